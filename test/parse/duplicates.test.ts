/**
 * A WSDL that declares one name twice (a message, or an operation of a portType and its binding, as
 * gSOAP's soapcpp2 writes them; WS-I Basic Profile R2304 forbids it): the first is read, every
 * other is a located warning, and the generated code compiles. Under `strict`, an error.
 */
import { describe, expect, it } from "vitest";
import { compileErrors } from "../support/compile.js";
import { generateFiles, loadWsdl } from "../../src/generate.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const dir = tempDir();

const op = (name: string, input: string) =>
  `<wsdl:operation name="${name}"><wsdl:input message="tns:${input}"/><wsdl:output message="tns:Out"/></wsdl:operation>`;
const bop = (name: string) =>
  `<wsdl:operation name="${name}"><soap:operation soapAction="${name}"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>`;

const WSDL = `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:n="urn:n" xmlns:tns="urn:svc" targetNamespace="urn:svc">
  <wsdl:types>
    <xs:schema targetNamespace="urn:n" elementFormDefault="qualified">
      <xs:element name="Req"><xs:complexType><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="Other"><xs:complexType><xs:sequence><xs:element name="b" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="Res" type="xs:string"/>
    </xs:schema>
  </wsdl:types>
  <wsdl:message name="In"><wsdl:part name="p" element="n:Req"/></wsdl:message>
  <wsdl:message name="In"><wsdl:part name="p" element="n:Other"/></wsdl:message>
  <wsdl:message name="Out"><wsdl:part name="p" element="n:Res"/></wsdl:message>
  <wsdl:portType name="P">
    ${op("Op", "In")}
    ${op("Op", "In")}
    ${op("Second", "In")}
  </wsdl:portType>
  <wsdl:binding name="B" type="tns:P">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    ${bop("Op")}
    ${bop("Op")}
    ${bop("Second")}
  </wsdl:binding>
  <wsdl:service name="S"><wsdl:port name="Port" binding="tns:B"><soap:address location="http://localhost/"/></wsdl:port></wsdl:service>
</wsdl:definitions>
`;

/** Line of the `n`-th (0-based) occurrence of `needle`. */
function lineOf(needle: string, n: number): number {
  let i = -1;
  for (let k = 0; k <= n; k++) i = WSDL.indexOf(needle, i + 1);
  return WSDL.slice(0, i).split("\n").length;
}

describe("a name declared twice", () => {
  it("reads the first, warns of each other where it stands, and the code compiles", async () => {
    const file = writeTemp(dir, "dup.wsdl", WSDL);
    const r = await generateFiles(file, { embedWsdl: false });
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const warnings = r.diagnostics.filter((d) => d.code === "WSDL_DUPLICATE");
    expect(warnings.map((w) => [w.line, w.message.split(";")[0]])).toEqual([
      [lineOf('<wsdl:message name="In">', 1), "message In is declared twice in urn:svc"],
      [
        lineOf('<wsdl:operation name="Op"><wsdl:input', 1),
        "operation Op is declared twice in portType P",
      ],
      [
        lineOf('<wsdl:operation name="Op"><soap:operation', 1),
        "operation Op is declared twice in binding B",
      ],
    ]);
    for (const w of warnings) expect(w.message).toMatch(/; expected one .*; the first .* is read/);
    const ops = r.model!.services[0]!.operations;
    expect(ops.map((o) => o.name)).toEqual(["Op", "Second"]);
    // The first In: its element is Req, whose field is a.
    expect(ops[0]!.input.fields.map((f) => f.name.local)).toEqual(["a"]);
    expect(compileErrors(r.files)).toEqual([]);

    const strict = await loadWsdl(file, { strict: true });
    expect(strict.model).toBeUndefined();
    expect(
      strict.diagnostics.filter((d) => d.code === "WSDL_DUPLICATE" && d.severity === "error"),
    ).toHaveLength(3);
  });
});
