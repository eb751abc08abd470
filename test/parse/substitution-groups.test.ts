/** Substitution groups: which elements may stand where a head is referenced, and the warning for those that cannot. */
import { describe, expect, it } from "vitest";
import { loadWsdl } from "../../src/generate.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const WSDL = `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:s" targetNamespace="urn:s">
  <types><xs:schema targetNamespace="urn:s" elementFormDefault="qualified">
    <xs:complexType name="Base"><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType>
    <xs:element name="Head" type="t:Base"/>
    <xs:element name="First" type="t:Base" substitutionGroup="t:Head"/>
    <xs:element name="Second" substitutionGroup="t:First"/>
    <xs:element name="Plain" type="xs:string" substitutionGroup="t:Head"/>
    <xs:element name="Hidden" type="t:Base" abstract="true" substitutionGroup="t:Head"/>
    <xs:element name="UnderHidden" type="t:Base" substitutionGroup="t:Hidden"/>
    <xs:element name="Op"><xs:complexType><xs:sequence><xs:element ref="t:Head" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="OpResponse"><xs:complexType/></xs:element>
  </xs:schema></types>
  <message name="In"><part name="p" element="t:Op"/></message><message name="Out"><part name="p" element="t:OpResponse"/></message>
  <portType name="P"><operation name="Op"><input message="t:In"/><output message="t:Out"/></operation></portType>
  <binding name="B" type="t:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/><operation name="Op"><soap:operation soapAction="urn:s#Op"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding>
  <service name="S"><port name="SP" binding="t:B"><soap:address location="http://localhost/s"/></port></service>
</definitions>`;

describe("substitution groups", () => {
  it("a ref to a head lists its members, directly or not, that are neither abstract nor simple; simple ones are left out with a located warning", async () => {
    const file = writeTemp(tempDir(), "s.wsdl", WSDL);
    const { model, diagnostics } = await loadWsdl(file);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const op = model!.types.find((t) => t.kind === "complex" && t.fields.some((f) => f.name.local === "Head"));
    const head = op!.kind === "complex" ? op!.fields[0]! : undefined;
    expect(head?.substitutes?.head.name.local).toBe("Head");
    expect(head?.substitutes?.members.map((m) => m.name.local)).toEqual(["First", "Second", "UnderHidden"]);
    const skipped = diagnostics.filter((d) => d.code === "XSD_SUBSTITUTE_SKIPPED");
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ severity: "warning", file, line: 8 });
    expect(skipped[0]!.message).toContain("{urn:s}Plain may stand for {urn:s}Head, but its type is simple");
  });
});
