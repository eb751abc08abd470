/**
 * HTTP GET/POST bindings beyond ASMX's shape: element parts whose children are the parameters,
 * XML response documents declared with mime:content, and what HTTP cannot carry, which leaves the
 * operation out of that one binding with a located warning instead of failing the WSDL.
 */
import { readdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { generateFiles, loadWsdl } from "../../src/generate.js";
import type { Service } from "../../src/model/model.js";
import { httpBop } from "../support/binding-operations.js";
import { listen } from "../support/loopback.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const RUNTIME = path.resolve("runtime/src/index.ts");

/** A WSDL with a SOAP binding (unless `soap: false`) and an HTTP POST binding of `Quote`, ASMX-style: on a portType of its own. */
function wsdl(
  options: {
    schema?: string;
    httpParts?: string;
    httpInput?: string;
    httpOutput?: string;
    soap?: boolean;
  } = {},
): string {
  const soap = options.soap ?? true;
  return `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:q" targetNamespace="urn:q">
  <types>
    <xs:schema targetNamespace="urn:q" elementFormDefault="qualified">
      <xs:element name="Quote"><xs:complexType><xs:sequence>
        <xs:element name="symbol" type="xs:string"/>
        <xs:element name="count" type="xs:int" minOccurs="0"/>
        <xs:element name="tags" type="xs:string" minOccurs="0" maxOccurs="unbounded"/>
      </xs:sequence></xs:complexType></xs:element>
      <xs:element name="QuoteResponse"><xs:complexType><xs:sequence>
        <xs:element name="price" type="xs:decimal"/>
        <xs:element name="at" type="xs:dateTime"/>
      </xs:sequence></xs:complexType></xs:element>
      <xs:complexType name="Pair"><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:complexType>
      ${options.schema ?? ""}
    </xs:schema>
  </types>
  <message name="QuoteIn"><part name="body" element="t:Quote"/></message>
  <message name="QuoteHttpIn">${options.httpParts ?? '<part name="body" element="t:Quote"/>'}</message>
  <message name="QuoteOut"><part name="body" element="t:QuoteResponse"/></message>
  <portType name="P"><operation name="Quote"><input message="t:QuoteIn"/><output message="t:QuoteOut"/></operation></portType>
  <portType name="PH"><operation name="Quote"><input message="t:QuoteHttpIn"/><output message="t:QuoteOut"/></operation></portType>
  ${
    soap
      ? `<binding name="S" type="t:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/>
    <operation name="Quote"><soap:operation soapAction="urn:q#Quote"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>`
      : ""
  }
  <binding name="H" type="t:PH"><http:binding verb="POST"/>
    <operation name="Quote"><http:operation location="/Quote"/>
      <input>${options.httpInput ?? '<mime:content type="application/x-www-form-urlencoded"/>'}</input>
      <output>${options.httpOutput ?? '<mime:content part="body" type="text/xml"/>'}</output>
    </operation>
  </binding>
  <service name="Q">
    ${soap ? '<port name="QSoap" binding="t:S"><soap:address location="http://localhost/q"/></port>' : ""}
    <port name="QPost" binding="t:H"><http:address location="http://localhost/q"/></port>
  </service>
</definitions>`;
}

async function model(text: string) {
  const file = writeTemp(tempDir(), "q.wsdl", text);
  const r = await loadWsdl(file);
  return { ...r, service: r.model?.services[0] as Service, file };
}

describe("HTTP bindings with element parts", () => {
  it("expands an element part into one parameter per child, linked to the SOAP input's fields", async () => {
    const { service, diagnostics } = await model(wsdl());
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const [soapOp, httpOp] = service.ports.map((p) => p.binding.operations[0]);
    const http = httpBop(httpOp);
    expect(http.operation).toBe(soapOp!.operation);
    expect(http.httpParameters.map((p) => p.name)).toEqual(["symbol", "count", "tags"]);
    expect(http.httpParameters.map((p) => p.field)).toEqual(soapOp!.operation.input.fields);
    // mime:content type="text/xml" with an element part is the response document, as mime:mimeXml is.
    expect(httpOp!.outputEncoding).toEqual({ kind: "mimeXml", part: "body" });
    expect(http.mimeXmlElement?.name).toEqual({ ns: "urn:q", local: "QuoteResponse" });
  });

  it("without a SOAP binding, the element's type is the operation's input", async () => {
    const { service, diagnostics } = await model(
      wsdl({ soap: false, httpOutput: '<mime:mimeXml part="body"/>' }),
    );
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const op = service.operations[0]!;
    expect(op.input.fields.map((f) => [f.name.local, f.minOccurs, f.maxOccurs])).toEqual([
      ["symbol", 1, 1],
      ["count", 0, 1],
      ["tags", 0, Infinity],
    ]);
    expect(
      httpBop(service.ports[0]!.binding.operations[0]).httpParameters.map((p) => p.name),
    ).toEqual(["symbol", "count", "tags"]);
  });

  it("round-trips through the generated client and server over HTTP POST", async () => {
    const dir = tempDir();
    const src = writeTemp(dir, "q.wsdl", wsdl());
    const { files, diagnostics } = await generateFiles(src, { runtimeImport: RUNTIME });
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const out = path.join(dir, "gen");
    for (const f of files) {
      const target = path.join(out, f.path);
      (await import("node:fs")).mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, f.content);
    }
    expect(readdirSync(out)).toContain("index.ts");
    const gen = await import(path.join(out, "index.ts"));
    const seen: unknown[] = [];
    const server = await listen(
      gen.createQHandler({
        quote: (input: unknown) => {
          seen.push(input);
          return { price: "12345678901234567890.125", at: "2024-02-29T23:59:59.1234567+05:30" };
        },
      }),
    );
    try {
      const client = new gen.QClient({ endpoint: `${server.url}/q`, port: "QPost" });
      const result = await client.quote({ symbol: "A&B <c>", count: 3, tags: ["x", "y z"] });
      expect(seen).toEqual([{ symbol: "A&B <c>", count: 3, tags: ["x", "y z"] }]);
      expect(result.price).toBe("12345678901234567890.125");
      expect(String(result.at)).toBe("2024-02-29T23:59:59.1234567+05:30");
    } finally {
      await server.close();
    }
  });
});

describe("what HTTP cannot carry is left out of that binding, with a located warning", () => {
  const cases: [string, Parameters<typeof wsdl>[0], RegExp][] = [
    [
      "http:urlReplacement whose location has no place for a parameter",
      { httpInput: "<http:urlReplacement/>" },
      /http:urlReplacement: the parameter symbol has no \(symbol\) in the location "\/Quote"/,
    ],
    [
      "an XML request body",
      { httpInput: '<mime:content part="body" type="text/xml"/>' },
      /mime:content type="text\/xml"/,
    ],
    [
      "a structured parameter",
      { httpParts: '<part name="symbol" type="t:Pair"/>' },
      /structured type Pair/,
    ],
    [
      "a structured child of an element part",
      {
        httpParts: '<part name="body" element="t:Nested"/>',
        schema:
          '<xs:element name="Nested"><xs:complexType><xs:sequence><xs:element name="symbol" type="t:Pair"/></xs:sequence></xs:complexType></xs:element>',
      },
      /structured/,
    ],
    [
      "a part that matches no field",
      { httpParts: '<part name="zzz" type="xs:string"/>' },
      /parameter zzz matches no input field/,
    ],
    // Its bytes would be dropped and the result read as void.
    [
      "a response that is not XML",
      { httpOutput: '<mime:content part="body" type="image/gif"/>' },
      /the response is mime:content type="image\/gif", which is not XML/,
    ],
  ];
  for (const [what, options, message] of cases) {
    it(what, async () => {
      const { service, diagnostics, file } = await model(wsdl(options));
      expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      const warning = diagnostics.find((d) => d.code === "WSDL_HTTP_UNSUPPORTED");
      expect(warning?.message).toMatch(message);
      expect(warning?.message).toMatch(/left out of this binding/);
      expect(warning?.file).toBe(file);
      expect(warning?.line).toBeGreaterThan(1);
      const [soap, http] = service.ports.map((p) => p.binding);
      expect(soap!.operations.map((o) => o.operation.name)).toEqual(["Quote"]);
      expect(http!.operations).toEqual([]);
    });
  }
});
