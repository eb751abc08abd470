/** jsonReplacer: what the runtime reads, as JSON, with nothing lost. */
import { describe, expect, it } from "vitest";
import { complex, field, xs } from "../../runtime/src/descriptors/builders.js";
import { jsonReplacer } from "../../runtime/src/index.js";
import { decodeDocument } from "../../runtime/src/xml/reader.js";

const NS = "urn:t";
const Row = complex("Row", () => [
  field("Id", NS, xs.long),
  field("Big", NS, xs.integer),
  field("Blob", NS, xs.base64Binary),
  field("At", NS, xs.dateTime),
  field("Amount", NS, xs.decimal),
]);
const root = field("Row", NS, Row);
const xml = `<Row xmlns="urn:t"><Id>9007199254740993</Id><Big>-123456789012345678901234567890</Big><Blob>AAEC/w==</Blob><At>2024-02-29T23:59:59.1234567</At><Amount>0.10</Amount></Row>`;

describe("jsonReplacer", () => {
  it("writes big integers exactly, bytes as base64 and dates as their lexical form", () => {
    const value = decodeDocument(xml, [root]).value;
    // What it is for: plain JSON.stringify cannot write a bigint at all.
    expect(() => JSON.stringify(value)).toThrow(TypeError);
    expect(JSON.parse(JSON.stringify(value, jsonReplacer))).toEqual({
      Id: "9007199254740993",
      Big: "-123456789012345678901234567890",
      Blob: "AAEC/w==",
      At: "2024-02-29T23:59:59.1234567",
      Amount: "0.10",
    });
  });

  it("writes INF, -INF and NaN by their XSD names, which a response file revives", () => {
    const value = { a: Infinity, b: -Infinity, c: NaN, d: 1.5 };
    // Plain JSON.stringify writes each of them as null: the value is lost.
    expect(JSON.parse(JSON.stringify(value))).toEqual({ a: null, b: null, c: null, d: 1.5 });
    expect(JSON.parse(JSON.stringify(value, jsonReplacer))).toEqual({
      a: "INF",
      b: "-INF",
      c: "NaN",
      d: 1.5,
    });
  });

  it("leaves every other value as JSON.stringify writes it", () => {
    const plain = { a: [1, "x", null, true], b: { c: 1.5 } };
    expect(JSON.stringify(plain, jsonReplacer)).toBe(JSON.stringify(plain));
  });
});
