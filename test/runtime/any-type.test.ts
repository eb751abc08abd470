/** xs:anyType content is kept whole: text as a string, anything more as the element's tree, written back as read. */
import { describe, expect, it } from "vitest";
import { complex, field, UNBOUNDED, xs } from "../../runtime/src/descriptors/builders.js";
import { decodeDocument } from "../../runtime/src/xml/reader.js";
import { writeElement } from "../../runtime/src/xml/writer.js";
import { XSI_NS } from "../../runtime/src/xml/namespaces.js";

const NS = "urn:t";
const Bag = complex("Bag", () => [
  field("v", NS, xs.anyType, { min: 0, max: UNBOUNDED, nillable: true }),
]);
const root = field("Bag", NS, Bag);
const read = (xml: string) => decodeDocument(xml, [root]).value as { v: unknown[] };
const write = (value: unknown) => {
  const out: string[] = [];
  writeElement(out, "Bag", NS, "", Bag, value, false, "Bag", ` xmlns:xsi="${XSI_NS}"`);
  return out.join("");
};

describe("xs:anyType", () => {
  const doc =
    `<Bag xmlns="urn:t" xmlns:xsi="${XSI_NS}">` +
    `<v>plain &amp; text</v>` +
    `<v xsi:type="xsd:string" xmlns:xsd="http://www.w3.org/2001/XMLSchema">typed</v>` +
    `<v>mixed <b xmlns="urn:o" k="1">bold</b> tail</v>` +
    `<v unit="kg">5</v>` +
    `<v xsi:nil="true" />` +
    `<v />` +
    `</Bag>`;

  it("reads text as a string and anything more as the element's tree: no child element or attribute is dropped", () => {
    expect(read(doc).v).toEqual([
      "plain & text",
      "typed",
      {
        ns: NS,
        local: "v",
        attrs: {},
        children: [
          "mixed ",
          { ns: "urn:o", local: "b", attrs: { k: "1" }, children: ["bold"] },
          " tail",
        ],
      },
      { ns: NS, local: "v", attrs: { unit: "kg" }, children: ["5"] },
      null,
      "",
    ]);
  });

  it("writes a tree back inside the field's element, and reads the same value again", () => {
    const value = read(doc);
    const xml = write(value);
    expect(xml).toBe(
      `<Bag xmlns="urn:t" xmlns:xsi="${XSI_NS}"><v>plain &amp; text</v><v>typed</v>` +
        `<v>mixed <b xmlns="urn:o" k="1">bold</b> tail</v><v unit="kg">5</v><v xsi:nil="true" /><v /></Bag>`,
    );
    expect(read(xml)).toEqual(value);
  });

  it("keeps the binding of the prefix an xsi:type names, declared above the tree, and writes it back", () => {
    // The prefix is n0, the name the writer would otherwise give the first namespaced attribute.
    const typed = `<Bag xmlns="urn:t" xmlns:xsi="${XSI_NS}" xmlns:n0="urn:sf"><v xsi:type="n0:Account" k:k="1" xmlns:k="urn:k"><n0:Name>Acme</n0:Name></v></Bag>`;
    const value = read(typed);
    expect(value.v[0]).toEqual({
      ns: NS,
      local: "v",
      attrs: { [`{${XSI_NS}}type`]: "n0:Account", "{urn:k}k": "1" },
      prefixes: { n0: "urn:sf" },
      children: [{ ns: "urn:sf", local: "Name", attrs: {}, children: ["Acme"] }],
    });
    // Written where no ancestor declares n0: the element declares it, and its attributes' own prefixes avoid the name.
    const xml = write(value);
    expect(xml).toContain(
      `<v xmlns:n0="urn:sf" xmlns:n1="${XSI_NS}" n1:type="n0:Account" xmlns:n2="urn:k" n2:k="1">`,
    );
    expect(read(xml)).toEqual(value);
  });

  it("an unprefixed xsi:type on an element outside the default namespace keeps naming the default namespace's type", () => {
    // <o:w> is in urn:o, but "Rec" names {urn:t}Rec (the default namespace there); written back, <w>
    // gets xmlns="urn:o", so the type needs a prefix of its own to keep its namespace.
    const typed = `<Bag xmlns="urn:t" xmlns:xsi="${XSI_NS}" xmlns:o="urn:o"><v><o:w xsi:type="Rec"><o:x xsi:type="Rec"/></o:w><w2 xsi:type="Rec"/></v></Bag>`;
    const value = read(typed);
    const v = value.v[0] as {
      children: {
        attrs: Record<string, string>;
        prefixes?: Record<string, string>;
        children: { attrs: Record<string, string>; prefixes?: Record<string, string> }[];
      }[];
    };
    const [w, w2] = v.children;
    expect([w!.attrs[`{${XSI_NS}}type`], w!.prefixes]).toEqual(["d:Rec", { d: "urn:t" }]);
    expect([w!.children[0]!.attrs[`{${XSI_NS}}type`], w!.children[0]!.prefixes]).toEqual([
      "d:Rec",
      { d: "urn:t" },
    ]);
    // In the default namespace, nothing to change.
    expect([w2!.attrs[`{${XSI_NS}}type`], w2!.prefixes]).toEqual(["Rec", undefined]);
    const xml = write(value);
    expect(xml).toContain('<w xmlns="urn:o" xmlns:d="urn:t"');
    expect(read(xml)).toEqual(value);
  });

  it("keeps an attribute named __proto__ (or constructor) as an attribute, read and written back", () => {
    const value = read(`<Bag xmlns="urn:t"><v __proto__="x" constructor="y"><w/></v></Bag>`);
    const v = value.v[0] as { attrs: Record<string, string> };
    expect(Object.keys(v.attrs)).toEqual(["__proto__", "constructor"]);
    expect(Object.getPrototypeOf(v.attrs)).toBe(Object.prototype);
    expect(v.attrs["__proto__"]).toBe("x");
    const xml = write(value);
    expect(xml).toContain('<v __proto__="x" constructor="y">');
    expect(read(xml)).toEqual(value);
    // The same in an xs:anyAttribute bag.
    const Open = complex("Open", () => [], { anyAttrs: true });
    const openRoot = field("Open", NS, Open);
    const bag = (
      decodeDocument(`<Open xmlns="urn:t" __proto__="p" k="1"/>`, [openRoot]).value as {
        $attributes: Record<string, string>;
      }
    ).$attributes;
    expect([Object.keys(bag), bag["__proto__"], Object.getPrototypeOf(bag)]).toEqual([
      ["__proto__", "k"],
      "p",
      Object.prototype,
    ]);
  });

  it("refuses a value that is neither a string nor a tree", () => {
    expect(() => write({ v: [42] })).toThrow(
      /Bag\.v\[0\]: 42 \(number\) cannot be written as xs:anyType/,
    );
  });
});
