/**
 * An HTTP binding whose response document is the SOAP response's wrapper element, as spyne's HTTP
 * bindings answer (issue 18): the typed result is the wrapper's child, as over SOAP (it was the
 * whole wrapper, typed as its child, with a warning), or nothing (`void`). An element the schema
 * does not describe inside the wrapper is kept with the result or, where the result cannot hold
 * it, refused; it used to vanish with the rest of the wrapper.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateFiles } from "../../src/generate.js";
import { generateAndImport } from "../support/generated.js";
import { listen, type Loopback } from "../support/loopback.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const NS = "urn:http-extras";

/** An HTTP GET port of three operations: results void (Done), an object (Item), a string (Name). */
const WSDL = `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:http="http://schemas.xmlsoap.org/wsdl/http/"
  xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/" xmlns:s="http://www.w3.org/2001/XMLSchema"
  xmlns:tns="${NS}" targetNamespace="${NS}">
  <wsdl:types>
    <s:schema elementFormDefault="qualified" targetNamespace="${NS}">
      <s:element name="Done"><s:complexType><s:sequence><s:element name="id" type="s:string" /></s:sequence></s:complexType></s:element>
      <s:element name="Item"><s:complexType><s:sequence><s:element name="id" type="s:string" /></s:sequence></s:complexType></s:element>
      <s:element name="Name"><s:complexType><s:sequence><s:element name="id" type="s:string" /></s:sequence></s:complexType></s:element>
      <s:element name="DoneResponse"><s:complexType><s:sequence /></s:complexType></s:element>
      <s:element name="ItemResponse"><s:complexType><s:sequence>
        <s:element name="ItemResult" type="tns:Item" />
      </s:sequence></s:complexType></s:element>
      <s:complexType name="Item"><s:sequence><s:element name="v" type="s:int" /></s:sequence></s:complexType>
      <s:element name="NameResponse"><s:complexType><s:sequence>
        <s:element name="NameResult" type="s:string" />
      </s:sequence></s:complexType></s:element>
    </s:schema>
  </wsdl:types>
  <wsdl:message name="DoneIn"><wsdl:part name="parameters" element="tns:Done" /></wsdl:message>
  <wsdl:message name="ItemIn"><wsdl:part name="parameters" element="tns:Item" /></wsdl:message>
  <wsdl:message name="NameIn"><wsdl:part name="parameters" element="tns:Name" /></wsdl:message>
  <wsdl:message name="DoneOut"><wsdl:part name="Body" element="tns:DoneResponse" /></wsdl:message>
  <wsdl:message name="ItemOut"><wsdl:part name="Body" element="tns:ItemResponse" /></wsdl:message>
  <wsdl:message name="NameOut"><wsdl:part name="Body" element="tns:NameResponse" /></wsdl:message>
  <wsdl:portType name="P">
    <wsdl:operation name="Done"><wsdl:input message="tns:DoneIn" /><wsdl:output message="tns:DoneOut" /></wsdl:operation>
    <wsdl:operation name="Item"><wsdl:input message="tns:ItemIn" /><wsdl:output message="tns:ItemOut" /></wsdl:operation>
    <wsdl:operation name="Name"><wsdl:input message="tns:NameIn" /><wsdl:output message="tns:NameOut" /></wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="S" type="tns:P">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" />
    <wsdl:operation name="Done"><soap:operation soapAction="Done" style="document" /><wsdl:input><soap:body use="literal" /></wsdl:input><wsdl:output><soap:body use="literal" /></wsdl:output></wsdl:operation>
    <wsdl:operation name="Item"><soap:operation soapAction="Item" style="document" /><wsdl:input><soap:body use="literal" /></wsdl:input><wsdl:output><soap:body use="literal" /></wsdl:output></wsdl:operation>
    <wsdl:operation name="Name"><soap:operation soapAction="Name" style="document" /><wsdl:input><soap:body use="literal" /></wsdl:input><wsdl:output><soap:body use="literal" /></wsdl:output></wsdl:operation>
  </wsdl:binding>
  <wsdl:binding name="B" type="tns:P">
    <http:binding verb="GET" />
    <wsdl:operation name="Done"><http:operation location="/Done" /><wsdl:input><http:urlEncoded /></wsdl:input><wsdl:output><mime:mimeXml part="Body" /></wsdl:output></wsdl:operation>
    <wsdl:operation name="Item"><http:operation location="/Item" /><wsdl:input><http:urlEncoded /></wsdl:input><wsdl:output><mime:mimeXml part="Body" /></wsdl:output></wsdl:operation>
    <wsdl:operation name="Name"><http:operation location="/Name" /><wsdl:input><http:urlEncoded /></wsdl:input><wsdl:output><mime:mimeXml part="Body" /></wsdl:output></wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="Extras">
    <wsdl:port name="ExtrasSoap" binding="tns:S"><soap:address location="http://localhost/x.asmx" /></wsdl:port>
    <wsdl:port name="ExtrasHttpGet" binding="tns:B"><http:address location="http://localhost/x.asmx" /></wsdl:port>
  </wsdl:service>
</wsdl:definitions>`;

type Op = (input: { id: string }) => Promise<unknown>;
interface Generated {
  createExtrasHandler: (impl: object) => import("node:http").RequestListener;
  ExtrasClient: new (o: { endpoint: string; port: string; undescribed?: "keep" | "refuse" }) => {
    done: Op;
    item: Op;
    name: Op;
  };
  undescribedOf: (value: unknown) => readonly { ns: string; local: string }[];
  ResponseFormatError: new (...args: never[]) => Error;
}

let mod: Generated;
let descriptors: string;
let diagnostics: readonly { code: string }[];
let server: Loopback;
let ours: Loopback;
/** What the server answers, by location. */
const answers: Record<string, string> = {};

beforeAll(async () => {
  const g = await generateAndImport<Generated>(WSDL, "extras.wsdl");
  mod = g.mod;
  descriptors = g.file("descriptors.ts");
  diagnostics = g.diagnostics;
  ours = await listen(
    mod.createExtrasHandler({
      done: () => undefined,
      item: ({ id }: { id: string }) => ({ v: Number(id) }),
      name: ({ id }: { id: string }) => `name ${id}`,
    }),
  );
  server = await listen((req, res) => {
    req.resume();
    const op = /\/(\w+)\?/.exec(req.url ?? "")?.[1] ?? "";
    res.writeHead(200, { "Content-Type": "text/xml; charset=utf-8" }).end(answers[op]);
  });
});
afterAll(async () => {
  await server?.close();
  await ours?.close();
});

const client = (undescribed?: "keep" | "refuse", base = server) =>
  new mod.ExtrasClient({
    endpoint: `${base.url}/x.asmx`,
    port: "ExtrasHttpGet",
    ...(undescribed ? { undescribed } : {}),
  });
const doc = (root: string, content: string) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<${root} xmlns="${NS}">${content}</${root}>`;

describe("an HTTP response document that is the SOAP response wrapper", () => {
  it("is read as the wrapper, the result its child, with no warning", () => {
    expect(diagnostics.map((d) => d.code)).toEqual([]);
    expect(descriptors).toMatch(/location: "\/Done",(?:(?!location)[^])*void: true/);
    expect(descriptors).toMatch(/location: "\/Item",[^]*?prop: "ItemResult"/);
    expect(descriptors).toMatch(/location: "\/Name",[^]*?prop: "NameResult"/);
  });

  it("reads the wrapper's child as the typed result", async () => {
    answers["Done"] = doc("DoneResponse", "");
    answers["Item"] = doc("ItemResponse", "<ItemResult><v>3</v></ItemResult>");
    answers["Name"] = doc("NameResponse", "<NameResult>n</NameResult>");
    expect(await client().done({ id: "1" })).toBeUndefined();
    expect(await client().item({ id: "1" })).toEqual({ v: 3 });
    expect(await client().name({ id: "1" })).toBe("n");
  });

  it("round-trips through the generated server, which writes the wrapper", async () => {
    const c = client(undefined, ours);
    expect(await c.done({ id: "1" })).toBeUndefined();
    expect(await c.item({ id: "4" })).toEqual({ v: 4 });
    expect(await c.name({ id: "5" })).toBe("name 5");
    const res = await fetch(`${ours.url}/x.asmx/Item?id=4`);
    expect(await res.text()).toMatch(
      /<ItemResponse [^>]*><ItemResult><v>4<\/v><\/ItemResult><\/ItemResponse>$/,
    );
  });

  it("keeps an undescribed element of the wrapper with an object result", async () => {
    answers["Item"] = doc("ItemResponse", "<ItemResult><v>3</v></ItemResult><Note>kept</Note>");
    const item = await client().item({ id: "1" });
    expect(item).toEqual({ v: 3 });
    expect(mod.undescribedOf(item).map((n) => n.local)).toEqual(["Note"]);
  });

  it("refuses one beside a result that cannot hold it: void or a string", async () => {
    answers["Done"] = doc("DoneResponse", "<Note>lost?</Note>");
    answers["Name"] = doc("NameResponse", "<NameResult>n</NameResult><Note>lost?</Note>");
    for (const call of [() => client().done({ id: "1" }), () => client().name({ id: "1" })]) {
      const e = await call().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(mod.ResponseFormatError);
      expect((e as Error).message).toMatch(/\{urn:http-extras\}Note.*does not describe/);
    }
  });

  it("with undescribed: 'refuse', rejects one naming the element", async () => {
    answers["Item"] = doc("ItemResponse", "<ItemResult><v>3</v></ItemResult><Note>no</Note>");
    const e = await client("refuse")
      .item({ id: "1" })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(mod.ResponseFormatError);
    expect((e as Error).message).toMatch(/Note/);
  });
});

describe("an HTTP response document that neither is the result nor holds it", () => {
  it("leaves the operation out of that binding with a located warning", async () => {
    // The HTTP port's Name answers an ItemResponse: no value of it is Name's string result.
    const wsdl = WSDL.replace(
      '<wsdl:message name="NameOut"><wsdl:part name="Body" element="tns:NameResponse" /></wsdl:message>',
      `<wsdl:message name="NameOut"><wsdl:part name="Body" element="tns:NameResponse" /></wsdl:message>
  <wsdl:message name="NameHttpOut"><wsdl:part name="Body" element="tns:ItemResponse" /></wsdl:message>`,
    )
      .replace(
        "</wsdl:portType>",
        `</wsdl:portType>
  <wsdl:portType name="H">
    <wsdl:operation name="Name"><wsdl:input message="tns:NameIn" /><wsdl:output message="tns:NameHttpOut" /></wsdl:operation>
  </wsdl:portType>`,
      )
      .replace('<wsdl:binding name="B" type="tns:P">', '<wsdl:binding name="B" type="tns:H">')
      .replace(/\n {4}<wsdl:operation name="(Done|Item)"><http:operation[^\n]*/g, "");
    const r = await generateFiles(writeTemp(tempDir(), "mismatch.wsdl", wsdl), {
      embedWsdl: false,
    });
    const warning = r.diagnostics.find((d) => d.code === "WSDL_HTTP_UNSUPPORTED");
    expect(warning?.message).toMatch(
      /Name in HTTP binding B: the response element ItemResponse neither is of the type of the operation's result \(NameResult in its other bindings\) nor holds it; the operation is left out of this binding/,
    );
    expect(warning?.line).toBeGreaterThan(1);
    const descriptors = r.files.find((f) => f.path === "descriptors.ts")!.content;
    expect(descriptors).not.toMatch(/location: "\/Name"/);
  });
});
