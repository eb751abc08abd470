/**
 * complexContent restriction: a type restricting a declared complex type is in its base's derivation
 * family (a value of it may stand where the base is declared, with xsi:type), keeps its own content,
 * and inherits the base's attributes it neither restates nor prohibits, as XML Schema says. A
 * restriction of SOAP encoding's Array (an encoded array) is none of that.
 */
import { describe, expect, it } from "vitest";
import { loadWsdl } from "../../src/generate.js";
import type { ComplexType } from "../../src/model/model.js";
import { oneOperationWsdl } from "../support/one-operation-wsdl.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const WSDL = oneOperationWsdl(
  `    <xs:complexType name="Root"><xs:attribute name="origin" type="xs:string"/></xs:complexType>
    <xs:complexType name="Key">
      <xs:complexContent><xs:extension base="t:Root">
        <xs:sequence><xs:element name="name" type="xs:string"/><xs:element name="note" type="xs:string" minOccurs="0"/></xs:sequence>
        <xs:attribute name="id" type="xs:string"/>
        <xs:attribute name="kind" type="xs:long" use="required"/>
        <xs:attribute name="secret" type="xs:string"/>
      </xs:extension></xs:complexContent>
    </xs:complexType>
    <xs:complexType name="Def">
      <xs:complexContent><xs:restriction base="t:Key">
        <xs:sequence><xs:element name="name" type="xs:string"/></xs:sequence>
        <xs:attribute name="id" type="xs:string" use="required"/>
        <xs:attribute name="secret" use="prohibited"/>
      </xs:restriction></xs:complexContent>
    </xs:complexType>
    <xs:complexType name="Narrower">
      <xs:complexContent><xs:restriction base="t:Def">
        <xs:sequence><xs:element name="name" type="xs:string"/></xs:sequence>
        <xs:attribute name="origin" use="prohibited"/>
      </xs:restriction></xs:complexContent>
    </xs:complexType>
    <xs:complexType name="Loop">
      <xs:complexContent><xs:restriction base="t:Loop"><xs:sequence/></xs:restriction></xs:complexContent>
    </xs:complexType>`,
  '<xs:element name="key" type="t:Key"/><xs:element name="loop" type="t:Loop" minOccurs="0"/>',
);

async function model(text: string) {
  const file = writeTemp(tempDir(), "r.wsdl", text);
  const { model, diagnostics } = await loadWsdl(file);
  const type = (local: string) =>
    model!.types.find((t): t is ComplexType => t.kind === "complex" && t.name?.local === local)!;
  return { type, diagnostics };
}

const attrs = (t: ComplexType) =>
  t.attributes.map((a) => `${a.name.local}${a.required ? "!" : ""}`);

describe("complexContent restriction", () => {
  it("joins its base's family, keeps its own content, and inherits the attributes it neither restates nor prohibits", async () => {
    const { type, diagnostics } = await model(WSDL);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const key = type("Key");
    const def = type("Def");
    const narrower = type("Narrower");
    expect(def.restricts).toBe(key);
    expect(def.base).toBeUndefined();
    expect(key.derived).toEqual([def]);
    expect(def.derived).toEqual([narrower]);
    // Content: only what the restriction restates (no inherited fields).
    expect(def.fields.map((f) => f.name.local)).toEqual(["name"]);
    // Attributes: restated id (now required), then Key's kind and Root's origin; secret prohibited.
    expect(attrs(def)).toEqual(["id!", "kind!", "origin"]);
    // A restriction of a restriction: Def's attributes (inherited ones included) less origin.
    expect(attrs(narrower)).toEqual(["id!", "kind!"]);
  });

  it("a type restricting itself is read without the restriction, with a located XSD_CIRCULAR warning", async () => {
    const { type, diagnostics } = await model(WSDL);
    expect(type("Loop").restricts).toBeUndefined();
    const circular = diagnostics.filter((d) => d.code === "XSD_CIRCULAR");
    expect(circular).toHaveLength(1);
    expect(circular[0]!.message).toContain("{urn:n}Loop derives from itself");
    expect(circular[0]!.line).toBe(29); // its xs:complexContent
  });

  it("a restriction of SOAP encoding's Array stays an encoded array, in no family", async () => {
    const text = oneOperationWsdl(
      `    <xs:import namespace="http://schemas.xmlsoap.org/soap/encoding/"/>
    <xs:complexType name="ArrayOfInt">
      <xs:complexContent><xs:restriction base="soapenc:Array">
        <xs:sequence><xs:element name="item" type="xs:int" minOccurs="0" maxOccurs="unbounded"/></xs:sequence>
      </xs:restriction></xs:complexContent>
    </xs:complexType>`,
      '<xs:element name="numbers" type="t:ArrayOfInt"/>',
    ).replace(
      'xmlns:xs="http://www.w3.org/2001/XMLSchema"',
      'xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"',
    );
    const { type, diagnostics } = await model(text);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const array = type("ArrayOfInt");
    expect(array.restricts).toBeUndefined();
    expect(array.derived).toEqual([]);
    expect(array.encodedArray).toEqual({
      itemType: { ns: "http://www.w3.org/2001/XMLSchema", local: "int" },
    });
    expect(array.fields.map((f) => f.name.local)).toEqual(["item"]);
    expect(diagnostics).toEqual([]);
  });
});
