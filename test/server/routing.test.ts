/**
 * How the generated server tells requests apart, beyond ASMX's one-action-per-operation services
 * (found by scripts/corpus-roundtrip.ts over the corpus):
 *  - SOAP operations sharing a SOAPAction (SAP PI's `http://sap.com/xi/WebService/soap1.1`) are told
 *    apart by their body element;
 *  - an empty Body without an action is the request of the operation whose input has no body;
 *  - HTTP operations are found on every port of the verb at the path (a first port may lack them),
 *    and at the address followed by their location as clients join them (a location without a
 *    leading slash, or "/", which also takes precedence over the help page), parameters replacing
 *    their `(name)` in it for http:urlReplacement;
 *  - operations whose requests cannot be told apart at all get a located generation warning.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateFiles } from "../../src/generate.js";
import type { RequestListener } from "../../runtime/src/index.js";
import { generateAndImport } from "../support/generated.js";
import { listen, type Loopback } from "../support/loopback.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const NS = "urn:routing";
const HEAD = `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/"
  xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="${NS}" targetNamespace="${NS}">`;
const element = (name: string, content: string) =>
  `<s:element name="${name}"><s:complexType><s:sequence>${content}</s:sequence></s:complexType></s:element>`;
const message = (name: string, part?: string) =>
  `<wsdl:message name="${name}">${part ?? ""}</wsdl:message>`;
const literal = '<soap:body use="literal" />';
const soapOp = (name: string, action: string, input = true) =>
  `<wsdl:operation name="${name}"><soap:operation soapAction="${action}" style="document" />${input ? `<wsdl:input>${literal}</wsdl:input>` : ""}<wsdl:output>${literal}</wsdl:output></wsdl:operation>`;
const httpOp = (
  name: string,
  location: string,
  input = "<http:urlEncoded />",
  output = '<mime:mimeXml part="Body" />',
) =>
  `<wsdl:operation name="${name}"><http:operation location="${location}" /><wsdl:input>${input}</wsdl:input><wsdl:output>${output}</wsdl:output></wsdl:operation>`;

const WSDL = `${HEAD}
  <wsdl:types>
    <s:schema elementFormDefault="qualified" targetNamespace="${NS}">
      ${element("First", '<s:element name="a" type="s:int" />')}
      ${element("Second", '<s:element name="b" type="s:string" />')}
      ${element("Result", '<s:element name="from" type="s:string" />')}
      <s:element name="string" type="s:string" />
    </s:schema>
  </wsdl:types>
  ${message("FirstIn", '<wsdl:part name="p" element="tns:First" />')}
  ${message("SecondIn", '<wsdl:part name="p" element="tns:Second" />')}
  ${message("Out", '<wsdl:part name="p" element="tns:Result" />')}
  ${message("IdIn", '<wsdl:part name="id" type="s:string" />')}
  ${message("Text", '<wsdl:part name="Body" element="tns:string" />')}
  <wsdl:portType name="Soap">
    <wsdl:operation name="First"><wsdl:input message="tns:FirstIn" /><wsdl:output message="tns:Out" /></wsdl:operation>
    <wsdl:operation name="Second"><wsdl:input message="tns:SecondIn" /><wsdl:output message="tns:Out" /></wsdl:operation>
    <wsdl:operation name="Ping"><wsdl:output message="tns:Out" /></wsdl:operation>
  </wsdl:portType>
  <wsdl:portType name="Http">
    <wsdl:operation name="Lookup"><wsdl:input message="tns:IdIn" /><wsdl:output message="tns:Text" /></wsdl:operation>
    <wsdl:operation name="Root"><wsdl:input message="tns:IdIn" /><wsdl:output message="tns:Text" /></wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="SoapBinding" type="tns:Soap">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" />
    ${soapOp("First", "urn:shared")}
    ${soapOp("Second", "urn:shared")}
    ${soapOp("Ping", "", false)}
  </wsdl:binding>
  <wsdl:binding name="ImageGet" type="tns:Http">
    <http:binding verb="GET" />
    ${httpOp("Lookup", "/Lookup", "<http:urlEncoded />", '<mime:content type="image/gif" />')}
  </wsdl:binding>
  <wsdl:binding name="PathGet" type="tns:Http">
    <http:binding verb="GET" />
    ${httpOp("Lookup", "/find/(id)/now", "<http:urlReplacement />")}
  </wsdl:binding>
  <wsdl:binding name="AppendedGet" type="tns:Http">
    <http:binding verb="GET" />
    ${httpOp("Lookup", "Lookup")}
  </wsdl:binding>
  <wsdl:binding name="RootGet" type="tns:Http">
    <http:binding verb="GET" />
    ${httpOp("Root", "/")}
  </wsdl:binding>
  <wsdl:service name="Routing">
    <wsdl:port name="SoapPort" binding="tns:SoapBinding"><soap:address location="http://localhost/svc" /></wsdl:port>
    <wsdl:port name="ImagePort" binding="tns:ImageGet"><http:address location="http://localhost/svc" /></wsdl:port>
    <wsdl:port name="PathPort" binding="tns:PathGet"><http:address location="http://localhost/svc" /></wsdl:port>
    <wsdl:port name="AppendedPort" binding="tns:AppendedGet"><http:address location="http://localhost/svc" /></wsdl:port>
    <wsdl:port name="RootPort" binding="tns:RootGet"><http:address location="http://localhost" /></wsdl:port>
  </wsdl:service>
</wsdl:definitions>`;

type Op = (input?: object) => Promise<unknown>;
interface Generated {
  RoutingClient: new (o: { endpoint: string; port: string }) => {
    first: Op;
    second: Op;
    ping: Op;
    lookup: Op;
    root: Op;
  };
  createRoutingHandler: (impl: object) => RequestListener;
}

let lb: Loopback;
let mod: Generated;
let warnings: string[];

beforeAll(async () => {
  const g = await generateAndImport<Generated>(WSDL, "routing.wsdl");
  warnings = g.diagnostics.map((d) => d.code);
  mod = g.mod;
  lb = await listen(
    mod.createRoutingHandler({
      // First and Second are wrapped (their results unwrapped to Result's one child); Ping, with no input, is not.
      first: ({ a }: { a: number }) => `First ${a}`,
      second: ({ b }: { b: string }) => `Second ${b}`,
      ping: () => ({ from: "Ping" }),
      lookup: ({ id }: { id: string }) => `Lookup ${id}`,
      root: ({ id }: { id: string }) => `Root ${id}`,
    }),
  );
});
afterAll(() => lb?.close());

const client = (endpoint: string, port: string) =>
  new mod.RoutingClient({ endpoint: `${lb.url}${endpoint}`, port });
const soapPost = (action: string, body: string) =>
  fetch(`${lb.url}/svc`, {
    method: "POST",
    headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${action}"` },
    body: `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${body}</soap:Body></soap:Envelope>`,
  });

describe("routing SOAP requests", () => {
  it("operations sharing a SOAPAction are told apart by their body element", async () => {
    const c = client("/svc", "SoapPort");
    expect(await c.first({ a: 1 })).toBe("First 1");
    expect(await c.second({ b: "x" })).toBe("Second x");
  });

  it("an empty Body without an action goes to the operation whose input has no body", async () => {
    expect(await client("/svc", "SoapPort").ping()).toEqual({ from: "Ping" });
  });

  it("a body element none of the action's operations takes is a Client fault naming them", async () => {
    const res = await soapPost("urn:shared", `<Other xmlns="${NS}" />`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).toContain("soap:Client");
    expect(text).toContain(
      `The action names the operations First, Second, but the request holds the body element {${NS}}Other; expected {${NS}}First or {${NS}}Second.`,
    );
  });
});

describe("routing HTTP GET requests", () => {
  it("finds the operation on another port of the verb at the path when the first port lacks it", async () => {
    // ImagePort's Lookup (its response is an image) is left out; AppendedPort's is at /svc + "Lookup".
    expect(await client("/svc", "AppendedPort").lookup({ id: "7" })).toBe("Lookup 7");
    const res = await fetch(`${lb.url}/svcLookup?id=8`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(">Lookup 8</string>");
  });

  it("http:urlReplacement: parameters in place of their (name) in the location, percent-encoded both ways", async () => {
    expect(await client("/svc", "PathPort").lookup({ id: "a b/c" })).toBe("Lookup a b/c");
    const res = await fetch(`${lb.url}/svc/find/x%26y/now`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(">Lookup x&amp;y</string>");
    const malformed = await fetch(`${lb.url}/svc/find/%ZZ/now`);
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toBe("The URL path holds a malformed percent-encoding.");
  });

  it("serves an operation at location / in place of the help page, and ?WSDL still", async () => {
    expect(await client("", "RootPort").root({ id: "9" })).toBe("Root 9");
    const wsdl = await fetch(`${lb.url}/?WSDL`);
    expect(wsdl.status).toBe(200);
    expect(await wsdl.text()).toContain("<wsdl:definitions");
  });

  it("no routing warning for these operations: their requests differ", () => {
    expect(warnings).not.toContain("WSDL_AMBIGUOUS_OPERATIONS");
  });
});

describe("operations whose requests cannot be told apart", () => {
  it("get a located WSDL_AMBIGUOUS_OPERATIONS warning per binding, SOAP and HTTP", async () => {
    // Second takes First's element under the same action; RootGet gains Lookup at Root's location.
    const text = WSDL.replace('message="tns:SecondIn"', 'message="tns:FirstIn"').replace(
      httpOp("Root", "/"),
      `${httpOp("Root", "/")}\n    ${httpOp("Lookup", "/")}`,
    );
    const file = writeTemp(tempDir(), "ambiguous.wsdl", text);
    const r = await generateFiles(file);
    const found = r.diagnostics.filter((d) => d.code === "WSDL_AMBIGUOUS_OPERATIONS");
    expect(found.map((d) => d.severity)).toEqual(["warning", "warning"]);
    expect(found[0]!.message).toContain(
      `operations First, Second of binding SoapBinding take requests that cannot be told apart (the same SOAPAction "urn:shared" and the body element {${NS}}First)`,
    );
    expect(found[0]!.message).toContain("a server answers them all as First");
    expect(found[1]!.message).toContain(
      'operations Root, Lookup of binding RootGet take requests that cannot be told apart (the same location "/")',
    );
    // Each at the second operation's binding entry.
    const lines = text.split("\n");
    expect(lines[found[0]!.line - 1]).toContain('<wsdl:operation name="Second">');
    expect(lines[found[1]!.line - 1]).toContain(
      '<wsdl:operation name="Lookup"><http:operation location="/" />',
    );
  });
});
