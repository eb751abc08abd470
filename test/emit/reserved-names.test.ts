/**
 * Generated names never take a name index.ts re-exports from the runtime: a schema type or a
 * declared fault called `SoapFault`, `CallOptions` or `XsdDateTime` is renamed, and the output
 * compiles.
 */
import { describe, expect, it } from "vitest";
import { typeCheckBatch } from "../../scripts/corpus.js";
import { generateFrom } from "../support/generate-root.js";
import { tempDir } from "../support/tmp.js";

const WSDL = `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:r" targetNamespace="urn:r">
  <types><xs:schema targetNamespace="urn:r" elementFormDefault="qualified">
    <xs:complexType name="CallOptions"><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:complexType>
    <xs:complexType name="XsdDateTime"><xs:sequence><xs:element name="b" type="xs:dateTime"/></xs:sequence></xs:complexType>
    <xs:element name="Do"><xs:complexType><xs:sequence><xs:element name="o" type="t:CallOptions"/><xs:element name="d" type="t:XsdDateTime"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="DoResponse"><xs:complexType><xs:sequence><xs:element name="r" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="SoapFault"><xs:complexType><xs:sequence><xs:element name="why" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema></types>
  <message name="In"><part name="p" element="t:Do"/></message>
  <message name="Out"><part name="p" element="t:DoResponse"/></message>
  <message name="F"><part name="p" element="t:SoapFault"/></message>
  <portType name="P"><operation name="Do"><input message="t:In"/><output message="t:Out"/><fault name="SoapFault" message="t:F"/></operation></portType>
  <binding name="B" type="t:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/>
    <operation name="Do"><soap:operation soapAction="urn:r#Do"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output>
      <fault name="SoapFault"><soap:fault name="SoapFault" use="literal"/></fault></operation>
  </binding>
  <service name="R"><port name="RSoap" binding="t:B"><soap:address location="http://localhost/r"/></port></service>
</definitions>`;

describe("names the runtime re-exports", () => {
  it("are not taken by schema types or fault classes, so index.ts compiles", async () => {
    const result = await generateFrom("reserved", "r.wsdl", WSDL);
    expect(result.status).toBe("ok");
    const index = result.files!.find((f) => f.path === "index.ts")!.content;
    const types = result.files!.find((f) => f.path === "types.ts")!.content;
    expect(types).not.toMatch(/interface (CallOptions|XsdDateTime) /);
    expect(types).toMatch(/interface CallOptions\w+ /);
    expect(index.match(/\bSoapFault,/g)).toHaveLength(1);
    typeCheckBatch([result], tempDir());
    expect(result.compileErrors).toEqual([]);
    expect(result.status).toBe("ok");
  });

  it("a schema type named t does not shadow descriptors.ts's import of types.ts, t", async () => {
    // descriptors.ts refers to types.ts as `t` (`ComplexDesc<t.Do>`): a descriptor of that name
    // would shadow the import (type names are capitalized, and the naming pass reserves `t`).
    const wsdl = WSDL.replace(
      '<xs:complexType name="CallOptions">',
      '<xs:complexType name="t"><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType><xs:complexType name="CallOptions">',
    ).replace('<xs:element name="o" type="t:CallOptions"/>', '<xs:element name="o" type="t:t"/>');
    const result = await generateFrom("reserved-t", "r.wsdl", wsdl);
    const descriptors = result.files!.find((f) => f.path === "descriptors.ts")!.content;
    expect(descriptors).toContain('import type * as t from "./types.js";');
    expect(descriptors).not.toMatch(/export const t:/);
    expect(descriptors).toContain('export const T: ComplexDesc<t.T> = complex("t", () => [');
    typeCheckBatch([result], tempDir());
    expect(result.compileErrors).toEqual([]);
  });

  it("operations named constructor, then, toString, __proto__ or stream get methods of other names (a then method would make the client a thenable; stream is the client's streaming twins), and __proto__ is an own key of the maps", async () => {
    const ops = ["Constructor", "Then", "ToString", "__proto__", "Stream", "Do"];
    const wsdl = WSDL.replace(
      /<portType name="P">[^]*?<\/portType>/,
      `<portType name="P">${ops.map((o) => `<operation name="${o}"><input message="t:In"/><output message="t:Out"/></operation>`).join("")}</portType>`,
    ).replace(
      /<operation name="Do"><soap:operation[^]*?<\/operation>/,
      ops
        .map(
          (o) =>
            `<operation name="${o}"><soap:operation soapAction="urn:r#${o}"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>`,
        )
        .join(""),
    );
    const result = await generateFrom("reserved-ops", "ops.wsdl", wsdl);
    expect(result.status).toBe("ok");
    const types = result.files!.find((f) => f.path === "types.ts")!.content;
    const methods = [...types.matchAll(/^  (\w+): \{$/gm)].map((m) => m[1]);
    expect(methods).toEqual([
      "constructor_",
      "then_",
      "toString_",
      "__proto___",
      "stream_2",
      "do_",
    ]);
    // Keyed by operation name in object literals: __proto__ as a computed key, an own property.
    const descriptors = result.files!.find((f) => f.path === "descriptors.ts")!.content;
    expect(descriptors).toMatch(/^ +\["__proto__"\]: \{$/m);
    expect(descriptors).toMatch(/^ +__proto___: "__proto__",$/m);
    expect(descriptors).not.toMatch(/^\s*"?__proto__"?:/m);
    typeCheckBatch([result], tempDir());
    expect(result.compileErrors).toEqual([]);
  });
});
