/**
 * A WSDL whose schemas live in other documents (an xs:import, an xs:include inside it): the
 * generated server serves each of them (`?xsd=1`, `?xsd=2`) beside `?WSDL`, with the references
 * between them pointing at those URLs, so that a client reading the WSDL from the server (.NET,
 * zeep, node-soap, this generator) finds every type. Before, only the root was embedded and served:
 * its relative schemaLocation led to a 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateFiles } from "../../src/generate.js";
import type { RequestListener } from "../../runtime/src/index.js";
import { generateAndImport, type Generated } from "../support/generated.js";
import { listen, type Loopback } from "../support/loopback.js";

const ROOT = `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:m="urn:messages" xmlns:tns="urn:svc" targetNamespace="urn:svc">
  <wsdl:types>
    <xs:schema targetNamespace="urn:svc"><xs:import namespace="urn:messages" schemaLocation="schemas/messages.xsd"/></xs:schema>
  </wsdl:types>
  <wsdl:message name="In"><wsdl:part name="p" element="m:Lookup"/></wsdl:message>
  <wsdl:message name="Out"><wsdl:part name="p" element="m:LookupResponse"/></wsdl:message>
  <wsdl:portType name="P"><wsdl:operation name="Lookup"><wsdl:input message="tns:In"/><wsdl:output message="tns:Out"/></wsdl:operation></wsdl:portType>
  <wsdl:binding name="B" type="tns:P">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Lookup"><soap:operation soapAction="urn:svc#Lookup"/>
      <wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="Directory"><wsdl:port name="Port" binding="tns:B"><soap:address location="http://localhost/directory.svc"/></wsdl:port></wsdl:service>
</wsdl:definitions>`;
const MESSAGES = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:m="urn:messages" targetNamespace="urn:messages" elementFormDefault="qualified">
  <xs:include schemaLocation="common/person.xsd"/>
  <xs:element name="Lookup"><xs:complexType><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="LookupResponse"><xs:complexType><xs:sequence><xs:element name="person" type="m:Person"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>`;
const PERSON = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:m="urn:messages" targetNamespace="urn:messages" elementFormDefault="qualified">
  <xs:complexType name="Person"><xs:sequence><xs:element name="name" type="xs:string"/></xs:sequence></xs:complexType>
</xs:schema>`;

let g: Generated<{ createDirectoryHandler: (impl: object) => RequestListener }>;
let lb: Loopback;
beforeAll(async () => {
  g = await generateAndImport(ROOT, "directory.wsdl", {
    "schemas/messages.xsd": MESSAGES,
    "schemas/common/person.xsd": PERSON,
  });
  lb = await listen(
    g.mod.createDirectoryHandler({ lookup: ({ id }: { id: number }) => ({ name: `#${id}` }) }),
  );
});
afterAll(() => lb?.close());

/** The same service with an HTTP GET port whose operation sits at its port's own path (address "/", location "/", as AWS SQS's). */
const AT_ROOT = ROOT.replace(
  'xmlns:tns="urn:svc"',
  'xmlns:tns="urn:svc" xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/"',
)
  .replace(
    "</wsdl:portType>",
    '</wsdl:portType><wsdl:portType name="G"><wsdl:operation name="Lookup"><wsdl:input message="tns:GetIn"/><wsdl:output message="tns:Out"/></wsdl:operation></wsdl:portType>',
  )
  .replace(
    '<wsdl:message name="Out">',
    '<wsdl:message name="GetIn"><wsdl:part name="id" type="xs:int"/></wsdl:message><wsdl:message name="Out">',
  )
  .replace(
    "</wsdl:binding>",
    '</wsdl:binding><wsdl:binding name="BG" type="tns:G"><http:binding verb="GET"/><wsdl:operation name="Lookup"><http:operation location="/"/><wsdl:input><http:urlEncoded/></wsdl:input><wsdl:output><mime:mimeXml part="p"/></wsdl:output></wsdl:operation></wsdl:binding>',
  )
  .replace(
    "</wsdl:service>",
    '<wsdl:port name="Get" binding="tns:BG"><http:address location="http://localhost/"/></wsdl:port></wsdl:service>',
  );

describe("a WSDL with imported and included schemas, served", () => {
  it("serves ?xsd=N, ?wsdl and ?disco at a port's path even where an HTTP GET operation sits there", async () => {
    const atRoot = await generateAndImport(AT_ROOT, "directory-get.wsdl", {
      "schemas/messages.xsd": MESSAGES,
      "schemas/common/person.xsd": PERSON,
    });
    const server = await listen(
      (atRoot.mod as typeof g.mod).createDirectoryHandler({
        lookup: ({ id }: { id: number }) => ({ name: `#${id}` }),
      }),
    );
    try {
      expect(await (await fetch(`${server.url}/?xsd=1`)).text()).toContain(
        '<xs:element name="Lookup">',
      );
      expect(await (await fetch(`${server.url}/?wsdl`)).text()).toContain("<wsdl:definitions");
      expect(await (await fetch(`${server.url}/?disco`)).text()).toContain("<discovery");
      const op = await fetch(`${server.url}/?id=7`);
      expect(op.status).toBe(200);
      expect(await op.text()).toContain("<name>#7</name>");
    } finally {
      await server.close();
    }
  });

  it("serves each document at its own URL, the references between them pointing there", async () => {
    const root = await (await fetch(`${lb.url}/directory.svc?wsdl`)).text();
    expect(root).toContain(`schemaLocation="${lb.url}/directory.svc?xsd=1"`);
    expect(root).toContain(`<soap:address location="${lb.url}/directory.svc"/>`);
    const messages = await fetch(`${lb.url}/directory.svc?XSD=1`);
    expect(messages.status).toBe(200);
    expect(messages.headers.get("content-type")).toBe("text/xml; charset=utf-8");
    const text = await messages.text();
    expect(text).toContain('<xs:element name="Lookup">');
    expect(text).toContain(`<xs:include schemaLocation="${lb.url}/directory.svc?xsd=2"/>`);
    expect(await (await fetch(`${lb.url}/directory.svc?xsd=2`)).text()).toContain(
      '<xs:complexType name="Person">',
    );
    // No such document: a 404, as ASMX sends, not the help page.
    expect((await fetch(`${lb.url}/directory.svc?xsd=3`)).status).toBe(404);
  });

  it("read back from the server by URL, generates the same types and descriptors", async () => {
    const served = await generateFiles(`${lb.url}/directory.svc?wsdl`);
    expect(served.diagnostics).toEqual([]);
    // The header names the source, and the server gives its own address.
    const body = (t: string) => t.slice(t.indexOf("\n")).replaceAll(lb.url, "http://localhost");
    for (const file of ["types.ts", "descriptors.ts", "client.ts"])
      expect(body(served.files.find((f) => f.path === file)!.content), file).toBe(
        body(g.file(file)),
      );
  });
});
