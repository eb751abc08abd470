/**
 * The partial implementation's and the context's type names come from the naming pass, de-clashed
 * like the service's other names: schema types named `RPartialService` and `RContext` keep their
 * names, the server's types take the next free ones, and the output compiles.
 */
import { describe, expect, it } from "vitest";
import { typeCheckBatch } from "../../scripts/corpus.js";
import { generateFrom } from "../support/generate-root.js";
import { tempDir } from "../support/tmp.js";

const WSDL = `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:r" targetNamespace="urn:r">
  <types><xs:schema targetNamespace="urn:r" elementFormDefault="qualified">
    <xs:complexType name="RPartialService"><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:complexType>
    <xs:complexType name="RContext"><xs:sequence><xs:element name="b" type="xs:int"/></xs:sequence></xs:complexType>
    <xs:element name="Do"><xs:complexType><xs:sequence><xs:element name="p" type="t:RPartialService"/><xs:element name="c" type="t:RContext"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="DoResponse"><xs:complexType><xs:sequence><xs:element name="r" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema></types>
  <message name="In"><part name="p" element="t:Do"/></message>
  <message name="Out"><part name="p" element="t:DoResponse"/></message>
  <portType name="P"><operation name="Do"><input message="t:In"/><output message="t:Out"/></operation></portType>
  <binding name="B" type="t:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/>
    <operation name="Do"><soap:operation soapAction="urn:r#Do"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
  <service name="R"><port name="RSoap" binding="t:B"><soap:address location="http://localhost/r"/></port></service>
</definitions>`;

describe("the server's partial implementation and context type names", () => {
  it("are de-clashed from schema types, and index.ts re-exports them", async () => {
    const result = await generateFrom("server-names", "r.wsdl", WSDL);
    expect(result.status).toBe("ok");
    const content = (path: string) => result.files!.find((f) => f.path === path)!.content;
    expect(content("types.ts")).toMatch(/interface RPartialService \{/);
    expect(content("types.ts")).toMatch(/interface RContext \{/);
    const server = content("server.ts");
    expect(server).toContain("export type RPartialService_2 = Partial<RService>;");
    expect(server).toContain("export type RContext_2 = RequestContext;");
    expect(server).toContain("readonly do_: (input: Do, context: RContext_2) =>");
    expect(server).toMatch(/impl: RPartialService_2,/);
    expect(server).toContain('("The operation Do is not implemented." for Do)');
    expect(content("index.ts")).toContain(
      'export type { RContext_2, RHandlerOptions, RPartialService_2, RService } from "./server.js";',
    );
    typeCheckBatch([result], tempDir());
    expect(result.compileErrors).toEqual([]);
  });
});
