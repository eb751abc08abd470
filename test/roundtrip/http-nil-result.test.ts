/**
 * A null result over the HTTP GET and POST bindings. ASMX answers a null result with a nil document
 * element (`<dateTime xsi:nil="true" />`); the client reads it as the typed result admits: null for
 * a nillable result element (`DateTime?`, declared minOccurs="1" nillable="true"), undefined for an
 * optional one, `[]` for a repeated one. It read every one as undefined, which a result typed
 * `DateTime | null` cannot be.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestListener } from "../../runtime/src/index.js";
import { generateAndImport } from "../support/generated.js";
import { listen, type Loopback } from "../support/loopback.js";

const NS = "urn:http-nil";

/** The operations, each with the document element of its HTTP response. */
const OPS = { When: "dateTime", Name: "string", Names: "ArrayOfString" } as const;
const each = (f: (op: string, root: string) => string): string =>
  Object.entries(OPS)
    .map(([op, root]) => f(op, root))
    .join("\n");
const operations = (message: (op: string) => string) =>
  each((op) => `    <wsdl:operation name="${op}">${message(op)}</wsdl:operation>`);
const httpBinding = (
  verb: "Get" | "Post",
  input: string,
) => `  <wsdl:binding name="NilHttp${verb}" type="tns:NilHttp">
    <http:binding verb="${verb.toUpperCase()}" />
${operations((op) => `<http:operation location="/${op}" /><wsdl:input>${input}</wsdl:input><wsdl:output><mime:mimeXml part="Body" /></wsdl:output>`)}
  </wsdl:binding>`;

/** ASMX's shape: one SOAP port, one HTTP GET and one HTTP POST port, the HTTP parts all strings. */
const WSDL = `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/"
  xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="${NS}" targetNamespace="${NS}">
  <wsdl:types>
    <s:schema elementFormDefault="qualified" targetNamespace="${NS}">
${each((op) => `      <s:element name="${op}"><s:complexType><s:sequence><s:element name="id" type="s:int" /></s:sequence></s:complexType></s:element>`)}
      <s:element name="WhenResponse"><s:complexType><s:sequence>
        <s:element minOccurs="1" maxOccurs="1" name="WhenResult" nillable="true" type="s:dateTime" />
      </s:sequence></s:complexType></s:element>
      <s:element name="NameResponse"><s:complexType><s:sequence>
        <s:element minOccurs="0" maxOccurs="1" name="NameResult" type="s:string" />
      </s:sequence></s:complexType></s:element>
      <s:element name="NamesResponse"><s:complexType><s:sequence>
        <s:element minOccurs="0" maxOccurs="unbounded" name="NamesResult" type="s:string" />
      </s:sequence></s:complexType></s:element>
      <s:complexType name="ArrayOfString"><s:sequence>
        <s:element minOccurs="0" maxOccurs="unbounded" name="string" type="s:string" />
      </s:sequence></s:complexType>
      <s:element name="ArrayOfString" nillable="true" type="tns:ArrayOfString" />
      <s:element name="dateTime" nillable="true" type="s:dateTime" />
      <s:element name="string" nillable="true" type="s:string" />
    </s:schema>
  </wsdl:types>
${each(
  (
    op,
    root,
  ) => `  <wsdl:message name="${op}SoapIn"><wsdl:part name="parameters" element="tns:${op}" /></wsdl:message>
  <wsdl:message name="${op}SoapOut"><wsdl:part name="parameters" element="tns:${op}Response" /></wsdl:message>
  <wsdl:message name="${op}HttpIn"><wsdl:part name="id" type="s:string" /></wsdl:message>
  <wsdl:message name="${op}HttpOut"><wsdl:part name="Body" element="tns:${root}" /></wsdl:message>`,
)}
  <wsdl:portType name="NilSoap">
${operations((op) => `<wsdl:input message="tns:${op}SoapIn" /><wsdl:output message="tns:${op}SoapOut" />`)}
  </wsdl:portType>
  <wsdl:portType name="NilHttp">
${operations((op) => `<wsdl:input message="tns:${op}HttpIn" /><wsdl:output message="tns:${op}HttpOut" />`)}
  </wsdl:portType>
  <wsdl:binding name="NilSoap" type="tns:NilSoap">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" />
${operations((op) => `<soap:operation soapAction="${NS}/${op}" style="document" /><wsdl:input><soap:body use="literal" /></wsdl:input><wsdl:output><soap:body use="literal" /></wsdl:output>`)}
  </wsdl:binding>
${httpBinding("Get", "<http:urlEncoded />")}
${httpBinding("Post", `<mime:content type="application/x-www-form-urlencoded" />`)}
  <wsdl:service name="Nil">
    <wsdl:port name="NilSoap" binding="tns:NilSoap"><soap:address location="http://localhost/nil.asmx" /></wsdl:port>
    <wsdl:port name="NilHttpGet" binding="tns:NilHttpGet"><http:address location="http://localhost/nil.asmx" /></wsdl:port>
    <wsdl:port name="NilHttpPost" binding="tns:NilHttpPost"><http:address location="http://localhost/nil.asmx" /></wsdl:port>
  </wsdl:service>
</wsdl:definitions>`;

type Op = (input: { id: number }) => Promise<unknown>;
type Client = { when: Op; name: Op; names: Op };
interface Generated {
  NilClient: new (o: { endpoint: string; port?: string }) => Client;
  createNilHandler: (impl: object) => RequestListener;
}

const PORTS = ["NilSoap", "NilHttpGet", "NilHttpPost"] as const;
let mod: Generated;
let descriptors: string;
let ours: Loopback;
/** Answers every request with the nil document ASMX sends for a null result of `op`. */
let asmx: Loopback;

beforeAll(async () => {
  const g = await generateAndImport<Generated>(WSDL, "nil.wsdl");
  descriptors = g.file("descriptors.ts");
  mod = g.mod;
  // id 0: a null result; any other id: a value.
  ours = await listen(
    mod.createNilHandler({
      when: ({ id }: { id: number }) => (id === 0 ? null : "2024-01-05T10:00:00.1234567"),
      name: ({ id }: { id: number }) => (id === 0 ? undefined : `name ${id}`),
      names: ({ id }: { id: number }) => (id === 0 ? [] : ["a", "b"]),
    }),
  );
  asmx = await listen((req, res) => {
    req.resume();
    const root = req.url?.includes("/When")
      ? "dateTime"
      : req.url?.includes("/Names")
        ? "ArrayOfString"
        : "string";
    res.writeHead(200, { "Content-Type": "text/xml; charset=utf-8" });
    res.end(
      `<?xml version="1.0" encoding="utf-8"?>\r\n<${root} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true" xmlns="${NS}" />`,
    );
  });
});

afterAll(async () => {
  await ours?.close();
  await asmx?.close();
});

const client = (base: Loopback, port: string) =>
  new mod.NilClient({ endpoint: `${base.url}/nil.asmx`, port });

describe("a null result over every binding", () => {
  it.each(PORTS)(
    "%s: a nillable result reads as null, an optional one as undefined, a repeated one as []",
    async (port) => {
      const c = client(ours, port);
      expect(await c.when({ id: 0 })).toBeNull();
      expect(await c.name({ id: 0 })).toBeUndefined();
      expect(await c.names({ id: 0 })).toEqual([]);
      expect(await c.names({ id: 1 })).toEqual(["a", "b"]);
      expect(String(await c.when({ id: 1 }))).toBe("2024-01-05T10:00:00.1234567");
      expect(await c.name({ id: 2 })).toBe("name 2");
    },
  );

  it.each(["NilHttpGet", "NilHttpPost"])(
    "%s: ASMX's nil document reads as the typed result admits",
    async (port) => {
      const c = client(asmx, port);
      expect(await c.when({ id: 7 })).toBeNull();
      expect(await c.name({ id: 7 })).toBeUndefined();
      expect(await c.names({ id: 7 })).toEqual([]);
    },
  );

  it("the HTTP descriptors say what a nil document reads as", () => {
    // Each HTTP operation's descriptor, from its location to the next one's: its response's nil flag.
    const flags = (location: string) =>
      descriptors
        .split(/(?=location: ")/)
        .filter((d) => d.startsWith(`location: "/${location}"`))
        .map((d) => /nil: "(\w+)"/.exec(d)?.[1]);
    // The GET and POST ports share one operation table.
    expect(descriptors.match(/operations: NilHttpGetOperations,/g)).toHaveLength(2);
    expect(flags("When")).toEqual(["null"]);
    expect(flags("Name")).toEqual([undefined]);
    expect(flags("Names")).toEqual(["empty"]);
  });
});
