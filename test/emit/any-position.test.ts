/**
 * `xs:any` content keeps its place in the sequence: a type whose any stands before (or between) its
 * elements gets `anyAt` in its descriptor, and the writer puts the `$any` trees there; after every
 * field otherwise (inherited fields first).
 */
import { describe, expect, it } from "vitest";
import { complex, field, xs } from "../../runtime/src/descriptors/builders.js";
import { decodeDocument } from "../../runtime/src/xml/reader.js";
import { writeElement } from "../../runtime/src/xml/writer.js";
import { generateFiles } from "../../src/generate.js";
import { oneOperationWsdl } from "../support/one-operation-wsdl.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const TYPES = `
    <xs:complexType name="Front"><xs:sequence><xs:any namespace="##other" minOccurs="0" maxOccurs="unbounded"/><xs:element name="x" type="xs:string"/></xs:sequence></xs:complexType>
    <xs:complexType name="Middle"><xs:sequence><xs:element name="x" type="xs:string"/><xs:sequence><xs:any namespace="##other" minOccurs="0"/><xs:element name="y" type="xs:string"/></xs:sequence></xs:sequence></xs:complexType>
    <xs:complexType name="Back"><xs:sequence><xs:element name="x" type="xs:string"/><xs:any namespace="##other" minOccurs="0"/></xs:sequence></xs:complexType>
    <xs:complexType name="Derived"><xs:complexContent><xs:extension base="t:Back"><xs:sequence><xs:element name="z" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>`;

describe("xs:any position", () => {
  it("is in the descriptors where it is not after every field", async () => {
    const file = writeTemp(
      tempDir(),
      "any.wsdl",
      oneOperationWsdl(
        TYPES,
        '<xs:element name="a" type="t:Front"/><xs:element name="b" type="t:Middle"/><xs:element name="c" type="t:Back"/><xs:element name="d" type="t:Derived"/>',
      ),
    );
    const { files, diagnostics } = await generateFiles(file);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    // One line, whichever way the printer broke it.
    const desc = files
      .find((f) => f.path === "descriptors.ts")!
      .content.replace(/\s+/g, " ")
      .replace(/([([]) /g, "$1")
      .replace(/,? ([)\]])/g, "$1");
    expect(desc).toMatch(
      /export const Front: ComplexDesc<t\.Front> = complex\("Front", \(\) => \[field\("x", xs\.string\)\], \{ any: true, anyAt: 0,? \}/,
    );
    expect(desc).toMatch(
      /export const Middle: ComplexDesc<t\.Middle> = complex\(.*?\{ any: true, anyAt: 1,? \}/,
    );
    expect(desc).toMatch(
      /export const Back: ComplexDesc<t\.BackOrDerived> = complex\("Back", \(\) => \[field\("x", xs\.string\)\], \{ any: true, family/,
    );
    // The base's any comes before the derived type's own fields.
    expect(desc).toMatch(
      /export const Derived: ComplexDesc<t\.Derived> = complex\(.*?any: true, anyAt: 1,/,
    );
  });

  it("is where the writer puts $any, and the reader takes it back", () => {
    const NS = "urn:n";
    const Middle = complex("Middle", () => [field("x", NS, xs.string), field("y", NS, xs.string)], {
      any: true,
      anyAt: 1,
    });
    const value = {
      x: "1",
      y: "2",
      $any: [{ ns: "urn:o", local: "Extra", attrs: {}, children: ["e"] }],
    };
    const out: string[] = [];
    writeElement(out, "M", NS, "", Middle, value, false, "M", "");
    expect(out.join("")).toBe(
      '<M xmlns="urn:n"><x>1</x><Extra xmlns="urn:o">e</Extra><y>2</y></M>',
    );
    expect(decodeDocument(out.join(""), [field("M", NS, Middle)]).value).toEqual(value);
    const front = complex("F", () => [field("x", NS, xs.string)], { any: true, anyAt: 0 });
    const out2: string[] = [];
    writeElement(out2, "F", NS, "", front, { x: "1", $any: value.$any }, false, "F", "");
    expect(out2.join("")).toBe('<F xmlns="urn:n"><Extra xmlns="urn:o">e</Extra><x>1</x></F>');
  });
});
