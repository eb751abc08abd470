/**
 * An HTTP binding with defects, as spyne publishes for its HttpRpc protocol: http:binding without
 * `verb`, http:operation without `location`, an output described by soap:body. Each recovery is a
 * located warning that `--strict` refuses, and an output message with parts is read as XML, never
 * typed `void`.
 */
import { describe, expect, it } from "vitest";
import { generateFiles, loadWsdl } from "../../src/generate.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const WSDL = `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:t="urn:h" targetNamespace="urn:h">
  <types>
    <xs:schema targetNamespace="urn:h" elementFormDefault="qualified">
      <xs:element name="sayHello"><xs:complexType><xs:sequence><xs:element name="name" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="sayHelloResponse"><xs:complexType><xs:sequence><xs:element name="greeting" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
    </xs:schema>
  </types>
  <message name="sayHello"><part name="sayHello" element="t:sayHello"/></message>
  <message name="sayHelloResponse"><part name="sayHelloResponse" element="t:sayHelloResponse"/></message>
  <portType name="Hello"><operation name="sayHello"><input message="t:sayHello"/><output message="t:sayHelloResponse"/></operation></portType>
  <binding name="HelloHttp" type="t:Hello">
    <http:binding/>
    <operation name="sayHello">
      <http:operation/>
      <input><http:urlEncoded/></input>
      <output><soap:body use="literal"/></output>
    </operation>
  </binding>
  <service name="HelloService"><port name="HelloHttp" binding="t:HelloHttp"><http:address location="http://localhost/hello"/></port></service>
</definitions>
`;

const lineOf = (needle: string) => WSDL.slice(0, WSDL.indexOf(needle)).split("\n").length;

describe("an HTTP binding with defects", () => {
  it("is read with a located warning for each, and its output is a typed result", async () => {
    const file = writeTemp(tempDir(), "spyne.wsdl", WSDL);
    const r = await generateFiles(file, { embedWsdl: false });
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(
      r.diagnostics
        .filter((d) => d.code === "WSDL_HTTP_INCOMPLETE")
        .map((d) => [d.line, d.message])
        .sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      [
        lineOf("<http:binding/>"),
        'http:binding of binding HelloHttp has no verb; expected verb="GET" or verb="POST"; read as GET',
      ],
      [
        lineOf("<http:operation/>"),
        "http:operation of sayHello in binding HelloHttp has no location; expected the operation's path; read as /sayHello",
      ],
      [
        lineOf("<output><soap:body"),
        "the output of sayHello in binding HelloHttp is described by soap:body; expected mime:mimeXml or mime:content; read as the XML document of its part sayHelloResponse",
      ],
    ]);
    const op = r.model!.services[0]!.operations[0]!;
    expect(op.result.kind).not.toBe("void");
    const types = r.files.find((f) => f.path === "types.ts")!.content;
    expect(types).toMatch(
      /^  sayHello: \{\n    input: SayHello;\n    output: SayHelloResponse \| undefined;$/m,
    );

    const strict = await loadWsdl(file, { strict: true });
    expect(strict.model).toBeUndefined();
    expect(
      strict.diagnostics.filter((d) => d.code === "WSDL_HTTP_INCOMPLETE" && d.severity === "error"),
    ).toHaveLength(3);
  });
});
