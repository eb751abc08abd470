/** Content problems in a decoded document say where the element concerned starts. */
import { describe, expect, it } from "vitest";
import { complex, field, xs } from "../../runtime/src/descriptors/builders.js";
import { decodeDocument } from "../../runtime/src/xml/reader.js";
import { XmlDecodeError } from "../../runtime/src/xml/decode-options.js";

const NS = "urn:t";
const Item = complex("Item", () => [
  field("n", NS, xs.int),
  field("when", NS, xs.dateTime, { min: 0 }),
]);
const root = field(
  "Items",
  NS,
  complex("Items", () => [field("Item", NS, Item, { max: 10 })]),
);
const fail = (xml: string | Uint8Array): XmlDecodeError => {
  try {
    decodeDocument(xml, [root]);
  } catch (e) {
    if (e instanceof XmlDecodeError) return e;
    throw e;
  }
  throw new Error("decoded without error");
};

describe("decode errors", () => {
  it("an invalid value names the element and the line and column of its start tag", () => {
    const e = fail(
      `<Items xmlns="urn:t">\n  <Item><n>1</n></Item>\n  <Item>\n    <n>x2</n>\n  </Item>\n</Items>`,
    );
    expect(e.kind).toBe("invalid");
    expect(e.element).toBe("n");
    expect(e.message).toMatch(/^invalid value in element n: .* \(at line 4, column 5\)$/);
  });

  it("a missing required element names the element that lacks it, where that element starts", () => {
    const e = fail(
      `<Items xmlns="urn:t"><Item><n>1</n></Item><Item><when>2024-01-01T00:00:00</when></Item></Items>`,
    );
    expect(e.kind).toBe("missing");
    expect(e.message).toBe("element n is missing from Item (at line 1, column 43)");
  });

  it("a repeated element under its minOccurs is refused, absent or too few, as the writer refuses it", () => {
    const Pair = field(
      "Pair",
      NS,
      complex("Pair", () => [field("v", NS, xs.int, { min: 2, max: 3 })]),
    );
    const read = (body: string, strict = true) =>
      decodeDocument(`<Pair xmlns="urn:t">${body}</Pair>`, [Pair], { strict });
    expect(read("<v>1</v><v>2</v>")).toEqual({ field: Pair, value: { v: [1, 2] } });
    expect(() => read("")).toThrow(
      /^element v is missing from Pair; expected at least 2 \(at line 1/,
    );
    expect(() => read("<v>1</v>")).toThrow(/^element v occurs 1 time in Pair; expected at least 2/);
    expect(read("<v>1</v>", false)).toEqual({ field: Pair, value: { v: [1] } });
  });

  it("a document given as UTF-8 bytes is located in characters, as its text is", () => {
    const xml = `<Items xmlns="urn:t"><!-- Grüße, 日本 --><Item><n>1</n></Item>\n <!-- ñ --><Item><n>x</n></Item></Items>`;
    const fromText = fail(xml);
    expect(fromText.message).toMatch(/\(at line 2, column 18\)$/);
    expect(fail(Buffer.from(xml, "utf8")).message).toBe(fromText.message);
    const malformed = `<Items xmlns="urn:t">\n<!-- é --><Item></Itemx></Items>`;
    expect(fail(Buffer.from(malformed)).message).toBe(fail(malformed).message);
    expect(fail(malformed).message).toMatch(/line 2, column 17/);
  });

  it("depth and element count limits hold alike for text-only elements read at once and for others", () => {
    const doc = (n: string) => `<Items xmlns="urn:t">${`<Item>${n}</Item>`.repeat(3)}</Items>`;
    for (const n of ["<n>1</n>", "<n>1<!-- not a leaf --></n>"]) {
      const limited = (maxDepth: number, maxElements: number) => () =>
        decodeDocument(doc(n), [root], { limits: { maxDepth, maxElements } });
      expect(limited(3, 7)()).toEqual({
        field: root,
        value: { Item: [{ n: 1 }, { n: 1 }, { n: 1 }] },
      });
      expect(limited(2, 7), n).toThrow(/nesting deeper than 2 levels/);
      expect(limited(3, 6), n).toThrow(/more than 6 elements/);
    }
  });
});
