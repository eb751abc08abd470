/**
 * Derived types in place of their base: `xsi:type` written from `$type` and read back, with prefixes
 * as other toolkits write them (.NET's q1:, Java's ns2:, an unprefixed default namespace).
 */
import { describe, expect, it } from "vitest";
import {
  attribute,
  complex,
  field,
  UNBOUNDED,
  xs,
} from "../../runtime/src/descriptors/builders.js";
import { decodeDocument } from "../../runtime/src/xml/reader.js";
import { writeElement } from "../../runtime/src/xml/writer.js";
import { withXsiTypes } from "../../runtime/src/xml/xsi-types.js";
import { XSI_NS } from "../../runtime/src/xml/namespaces.js";

const NS = "urn:t";
const Marker = complex("Marker", () => [field("Label", NS, xs.string)], {
  family: { ns: NS, derived: () => [Pin], abstract: true },
});
const Pin = complex("Pin", () => [field("Label", NS, xs.string), field("Size", NS, xs.int)], {
  family: { ns: NS, derived: () => [Banner] },
});
const Banner = complex(
  "Banner",
  () => [
    field("Label", NS, xs.string),
    field("Size", NS, xs.int),
    field("Text", NS, xs.string, { min: 0 }),
  ],
  { family: { ns: NS, tag: "Banner_2" } },
);
const Board = complex("Board", () => [
  field("Marker", NS, Marker, { min: 0, max: UNBOUNDED }),
  field("Pin", NS, Pin, { min: 0 }),
]);
const board = field("Board", NS, Board);

const xml = (value: unknown): string => {
  const out: string[] = [];
  writeElement(out, "Board", NS, "", Board, value, false, "Board", ` xmlns:xsi="${XSI_NS}"`);
  return out.join("");
};
const read = (doc: string): unknown => decodeDocument(doc, [board]).value;

describe("xsi:type", () => {
  it('with xsiType "always", is written on every value of a type others extend, its own type too', () => {
    const value = { Marker: [{ $type: "Pin", Label: "a", Size: 1 }], Pin: { Label: "c", Size: 3 } };
    const pinOwn = `<Pin xmlns:t="urn:t" xsi:type="t:Pin"><Label>c</Label><Size>3</Size></Pin>`;
    expect(withXsiTypes(true, () => xml(value))).toContain(pinOwn);
    // Only within the call: the default writes it where the type differs, as before.
    expect(xml(value)).toContain("<Pin><Label>c</Label><Size>3</Size></Pin>");
    expect(read(withXsiTypes(true, () => xml(value)))).toEqual(read(xml(value)));
    // A type no other extends gets none.
    const leaf = { Marker: [{ $type: "Banner_2", Label: "b", Size: 2 }] };
    expect(withXsiTypes(true, () => xml(leaf))).toBe(xml(leaf));
  });

  it("is written from $type, with the type's namespace bound on the element", () => {
    const value = {
      Marker: [
        { $type: "Pin", Label: "a", Size: 1 },
        { $type: "Banner_2", Label: "b", Size: 2, Text: "t" },
      ],
      Pin: { Label: "c", Size: 3 },
    };
    expect(xml(value)).toBe(
      `<Board xmlns="urn:t" xmlns:xsi="${XSI_NS}">` +
        `<Marker xmlns:t="urn:t" xsi:type="t:Pin"><Label>a</Label><Size>1</Size></Marker>` +
        `<Marker xmlns:t="urn:t" xsi:type="t:Banner"><Label>b</Label><Size>2</Size><Text>t</Text></Marker>` +
        `<Pin><Label>c</Label><Size>3</Size></Pin>` +
        `</Board>`,
    );
    expect(read(xml(value))).toEqual({
      Marker: [
        { $type: "Pin", Label: "a", Size: 1 },
        { $type: "Banner_2", Label: "b", Size: 2, Text: "t" },
      ],
      Pin: { $type: "Pin", Label: "c", Size: 3 },
    });
  });

  it("is read with whatever prefix binds the type's namespace, or the default namespace", () => {
    const doc =
      `<b:Board xmlns:b="urn:t" xmlns:i="${XSI_NS}">` +
      `<b:Marker xmlns:q1="urn:t" i:type="q1:Banner"><b:Label>x</b:Label><b:Size>7</b:Size></b:Marker>` +
      `<Marker xmlns="urn:t" i:type=" Pin "><Label>y</Label><Size>8</Size></Marker>` +
      `<b:Pin i:type="b:Banner"><b:Label>z</b:Label><b:Size>9</b:Size><b:Text>w</b:Text></b:Pin>` +
      `</b:Board>`;
    expect(read(doc)).toEqual({
      Marker: [
        { $type: "Banner_2", Label: "x", Size: 7 },
        { $type: "Pin", Label: "y", Size: 8 },
      ],
      Pin: { $type: "Banner_2", Label: "z", Size: 9, Text: "w" },
    });
  });

  it("naming a type the descriptors do not know (or one outside the family) reads the declared type", () => {
    const doc = `<Board xmlns="urn:t" xmlns:xsi="${XSI_NS}" xmlns:o="urn:other"><Pin xsi:type="o:Banner"><Label>l</Label><Size>1</Size><Text>dropped</Text></Pin></Board>`;
    expect(read(doc)).toEqual({ Marker: [], Pin: { $type: "Pin", Label: "l", Size: 1 } });
  });

  it("refuses an abstract type without $type, an unknown $type, and a derived property without $type", () => {
    expect(() => xml({ Marker: [{ Label: "a", Size: 1 }] })).toThrow(
      "Board.Marker[0]: Marker is abstract; set $type to one of 'Pin', 'Banner_2'",
    );
    expect(() => xml({ Marker: [{ $type: "Flag", Label: "a" }] })).toThrow(
      "Board.Marker[0].$type 'Flag' is neither Marker nor a type derived from it",
    );
    expect(() => xml({ Pin: { Label: "a", Size: 1, Text: "t" } })).toThrow(
      "Board.Pin.Text is not a property of Pin; set $type to the derived type meant (one of 'Banner_2')",
    );
  });
});

describe("a derived type that refers to its base", () => {
  // Generated descriptors name the base instead of restating its content (smaller code).
  const Base = complex("Base", () => [field("Label", NS, xs.string)], {
    attrs: [attribute("id", "", xs.int, { required: true })],
    family: { ns: NS, derived: () => [Derived] },
  });
  const Derived = complex("Derived", () => [field("Size", NS, xs.int)], {
    base: () => Base,
    attrs: [attribute("unit", "", xs.string)],
    family: { ns: NS },
  });
  const Holder = complex("Holder", () => [field("Item", NS, Base)]);

  it("names its direct derived types; the family holds every concrete one below", () => {
    expect(Marker.family!.derived.map((d) => d.name)).toEqual(["Pin", "Banner"]);
    const Top = complex("Top", () => [], { family: { ns: NS, derived: () => [Mid] } });
    const Mid = complex("Mid", () => [], {
      family: { ns: NS, abstract: true, derived: () => [Leaf, Top] },
    });
    const Leaf = complex("Leaf", () => [], { family: { ns: NS } });
    // Mid is abstract, and the cycle back to Top (a broken schema) ends there, Top listed once.
    expect(Top.family!.derived.map((d) => d.name)).toEqual(["Leaf", "Top"]);
  });

  it("has the base's fields and attributes first, then its own", () => {
    expect(Derived.fields.map((f) => f.name)).toEqual(["Label", "Size"]);
    expect(Derived.attrs.map((a) => a.name)).toEqual(["id", "unit"]);
    expect(Base.fields.map((f) => f.name)).toEqual(["Label"]);
  });

  it("is written and read in wire order, inherited content first", () => {
    const out: string[] = [];
    const value = { Item: { $type: "Derived", id: 7, unit: "px", Label: "a", Size: 2 } };
    writeElement(out, "Holder", NS, "", Holder, value, false, "Holder", ` xmlns:xsi="${XSI_NS}"`);
    const doc = out.join("");
    expect(doc).toBe(
      `<Holder xmlns="urn:t" xmlns:xsi="${XSI_NS}">` +
        `<Item xmlns:t="urn:t" xsi:type="t:Derived" id="7" unit="px"><Label>a</Label><Size>2</Size></Item>` +
        `</Holder>`,
    );
    expect(decodeDocument(doc, [field("Holder", NS, Holder)]).value).toEqual(value);
  });
});
