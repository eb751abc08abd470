/**
 * The rpc/encoded warning: once per binding, at its first encoded operation, naming the operations
 * and each value written without xsi:type; none for a SOAP 1.1 binding whose values all carry it,
 * which `--strict` then accepts.
 */
import { describe, expect, it } from "vitest";
import { loadWsdl } from "../../src/generate.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const ENC = `use="encoded" namespace="urn:svc" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"`;
const SOAP11 = "http://schemas.xmlsoap.org/wsdl/soap/";
const SOAP12 = "http://schemas.xmlsoap.org/wsdl/soap12/";

/** An rpc/encoded service whose operations A, B, C send and receive message M with `parts`. */
function wsdl(o: { types?: string; parts: string; soap?: string; style?: string }): string {
  const op = (name: string) =>
    `<wsdl:operation name="${name}"><wsdl:input message="tns:M"/><wsdl:output message="tns:M"/></wsdl:operation>`;
  const bop = (name: string) =>
    `<wsdl:operation name="${name}"><soap:operation soapAction="${name}"/><wsdl:input><soap:body ${ENC}/></wsdl:input><wsdl:output><soap:body ${ENC}/></wsdl:output></wsdl:operation>`;
  return `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="${o.soap ?? SOAP11}"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:svc" targetNamespace="urn:svc"
    xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
  <wsdl:types><xs:schema targetNamespace="urn:svc">
    <xs:import namespace="http://schemas.xmlsoap.org/soap/encoding/"/>${o.types ?? ""}
  </xs:schema></wsdl:types>
  <wsdl:message name="M">${o.parts}</wsdl:message>
  <wsdl:portType name="P">${op("A")}${op("B")}${op("C")}</wsdl:portType>
  <wsdl:binding name="B" type="tns:P">
    <soap:binding style="${o.style ?? "rpc"}" transport="http://schemas.xmlsoap.org/soap/http"/>
    ${bop("A")}
    ${bop("B")}
    ${bop("C")}
  </wsdl:binding>
  <wsdl:service name="S"><wsdl:port name="Port" binding="tns:B"><soap:address location="http://localhost/"/></wsdl:port></wsdl:service>
</wsdl:definitions>
`;
}

const dir = tempDir();
async function encodedWarnings(text: string) {
  const file = writeTemp(dir, "enc.wsdl", text);
  const r = await loadWsdl(file);
  expect(r.model).toBeDefined();
  const strict = await loadWsdl(file, { strict: true });
  const warnings = r.diagnostics.filter((d) => d.code === "WSDL_ENCODED");
  // --strict refuses exactly when there is a warning.
  expect(strict.model === undefined).toBe(warnings.length > 0);
  return warnings;
}

const STRUCT = `
    <xs:complexType name="Point"><xs:sequence>
      <xs:element name="x" type="xs:int"/><xs:element name="label" type="xs:string"/>
    </xs:sequence></xs:complexType>
    <xs:complexType name="Points"><xs:complexContent><xs:restriction base="soapenc:Array">
      <xs:attribute ref="soapenc:arrayType" wsdl:arrayType="tns:Point[]" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"/>
    </xs:restriction></xs:complexContent></xs:complexType>`;

describe("an rpc/encoded binding", () => {
  it("whose values all carry xsi:type (scalars, named structs, SOAP-encoded arrays) gets no warning, and --strict accepts it", async () => {
    const text = wsdl({
      types: STRUCT,
      parts: `<wsdl:part name="s" type="xs:string"/><wsdl:part name="p" type="tns:Point"/><wsdl:part name="ps" type="tns:Points"/>`,
    });
    expect(await encodedWarnings(text)).toEqual([]);
  });

  it("names each value written without xsi:type: an anonymous type's, a plain array's, a family's own; not an abstract family's", async () => {
    const text = wsdl({
      types: `${STRUCT}
    <xs:complexType name="Holder"><xs:sequence>
      <xs:element name="inner"><xs:complexType><xs:sequence><xs:element name="v" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
    </xs:sequence></xs:complexType>
    <xs:complexType name="ArrayOfString"><xs:sequence>
      <xs:element name="string" type="xs:string" minOccurs="0" maxOccurs="unbounded"/>
    </xs:sequence></xs:complexType>
    <xs:complexType name="Shape"><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType>
    <xs:complexType name="Circle"><xs:complexContent><xs:extension base="tns:Shape"><xs:sequence>
      <xs:element name="r" type="xs:double"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
    <xs:complexType name="Animal" abstract="true"><xs:sequence><xs:element name="name" type="xs:string"/></xs:sequence></xs:complexType>
    <xs:complexType name="Dog"><xs:complexContent><xs:extension base="tns:Animal"><xs:sequence>
      <xs:element name="barks" type="xs:boolean"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>`,
      parts: `<wsdl:part name="h" type="tns:Holder"/><wsdl:part name="a" type="tns:ArrayOfString"/><wsdl:part name="s" type="tns:Shape"/><wsdl:part name="pet" type="tns:Animal"/><wsdl:part name="p" type="tns:Point"/>`,
    });
    const warnings = await encodedWarnings(text);
    expect(warnings.map((w) => [w.line, w.message])).toEqual([
      [
        text.slice(0, text.indexOf('<wsdl:operation name="A"><soap:')).split("\n").length,
        'binding B uses SOAP encoding (use="encoded") in operations A, B, C; values of the anonymous type of element inner, ArrayOfString (a plain array), Shape (its own, not a derived type\'s) are written without the xsi:type rpc/encoded peers may need',
      ],
    ]);
  });

  it("names a SOAP-encoded array's items of a family's type, which say their type only when derived", async () => {
    const family = (base: string, abstract: boolean) => `
    <xs:complexType name="${base}"${abstract ? ' abstract="true"' : ""}><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType>
    <xs:complexType name="Sub"><xs:complexContent><xs:extension base="tns:${base}"><xs:sequence>
      <xs:element name="r" type="xs:double"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
    <xs:complexType name="List"><xs:complexContent><xs:restriction base="soapenc:Array">
      <xs:attribute ref="soapenc:arrayType" wsdl:arrayType="tns:${base}[]" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"/>
    </xs:restriction></xs:complexContent></xs:complexType>`;
    const parts = `<wsdl:part name="list" type="tns:List"/>`;
    const shapes = await encodedWarnings(wsdl({ types: family("Shape", false), parts }));
    expect(shapes.map((w) => w.message)).toEqual([
      'binding B uses SOAP encoding (use="encoded") in operations A, B, C; values of Shape (its own, not a derived type\'s) are written without the xsi:type rpc/encoded peers may need',
    ]);
    expect(await encodedWarnings(wsdl({ types: family("Animal", true), parts }))).toEqual([]);
  });

  it("in SOAP 1.2 is warned of its encoding's arrays and references, whatever its values", async () => {
    const text = wsdl({ soap: SOAP12, parts: `<wsdl:part name="s" type="xs:string"/>` });
    const warnings = await encodedWarnings(text);
    expect(warnings.map((w) => w.message)).toEqual([
      'binding B uses SOAP encoding (use="encoded") in operations A, B, C; SOAP 1.2 encoding\'s arrays and references (enc:itemType, enc:arraySize, enc:ref) are not read or written as such',
    ]);
  });

  it("in document style says its body elements are written as literal", async () => {
    const text = wsdl({
      style: "document",
      types: `<xs:element name="Req" type="xs:string"/>`,
      parts: `<wsdl:part name="body" element="tns:Req"/>`,
    });
    const warnings = await encodedWarnings(text);
    expect(warnings.map((w) => w.message)).toEqual([
      'binding B uses SOAP encoding (use="encoded") in operations A, B, C; values of body element Req (document style, written as literal) are written without the xsi:type rpc/encoded peers may need',
    ]);
  });
});

describe("the values SOAP encoding types (the transform's encoded-values pass)", () => {
  it("reach the own fields of a type derived from a derived type", async () => {
    const { generateFiles } = await import("../../src/generate.js");
    const text = wsdl({
      types: `
    <xs:complexType name="Shape" abstract="true"><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType>
    <xs:complexType name="Round"><xs:complexContent><xs:extension base="tns:Shape"><xs:sequence>
      <xs:element name="r" type="xs:double"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
    <xs:complexType name="Ring"><xs:complexContent><xs:extension base="tns:Round"><xs:sequence>
      <xs:element name="inner" type="xs:float"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>`,
      parts: `<wsdl:part name="shape" type="tns:Shape"/>`,
    });
    const r = await generateFiles(writeTemp(dir, "deep.wsdl", text));
    const descriptors = r.files.find((f) => f.path === "descriptors.ts")!.content;
    // Ring's own field, two derivations below the declared type, is written with its xsi:type.
    expect(descriptors).toMatch(/field\("inner", xs\.float, \{\s*xsiType: \{[^}]*type: "float" \}/);
  });
});
