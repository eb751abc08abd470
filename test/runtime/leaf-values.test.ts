/**
 * An xs:int of plain digits and an xs:boolean are read where they stand in the source (the Latin-1
 * view of bytes, or the text), with no string made of them (see runtime/src/xml/decode-leaf.ts):
 * they must read exactly as the string path reads them, and anything else must take that path.
 */
import { describe, expect, it } from "vitest";
import { complex, field, xs } from "../../runtime/src/descriptors/builders.js";
import { decodeDocument } from "../../runtime/src/xml/reader.js";
import { XmlDecodeError, type DecodeOptions } from "../../runtime/src/xml/decode-options.js";

const NS = "urn:t";
const Row = complex("Row", () => [
  field("N", NS, xs.int, { min: 0 }),
  field("B", NS, xs.boolean, { min: 0 }),
  field("Ns", NS, xs.int, { min: 0, max: 3 }),
]);
const root = [field("Row", NS, Row)];

/** The value read from the text and from its UTF-8 bytes, which must agree. */
function read(inner: string, options: DecodeOptions = {}): unknown {
  const xml = `<Row xmlns="${NS}">${inner}</Row>`;
  const fromText = outcome(() => decodeDocument(xml, root, options).value);
  const fromBytes = outcome(() => decodeDocument(Buffer.from(xml, "utf8"), root, options).value);
  expect(fromBytes).toEqual(fromText);
  if (fromText instanceof Error) throw fromText;
  return fromText;
}
function outcome(f: () => unknown): unknown {
  try {
    return f();
  } catch (e) {
    return e;
  }
}

describe("scalars read in the source", () => {
  it("reads ints of plain digits, signed, and at the edges of nine digits", () => {
    expect(read("<N>0</N>")).toEqual({ N: 0, Ns: [] });
    expect(read("<N>-0</N>")).toEqual({ N: 0, Ns: [] });
    expect(Object.is((read("<N>-0</N>") as { N: number }).N, 0)).toBe(true);
    expect(read("<N>-123456789</N>")).toEqual({ N: -123456789, Ns: [] });
    expect(read("<Ns>1</Ns><Ns>22</Ns><Ns>333</Ns>")).toEqual({ Ns: [1, 22, 333] });
  });

  it("leaves any other int to the string path, which reads or refuses it as before", () => {
    expect(read("<N>2147483647</N>")).toEqual({ N: 2147483647, Ns: [] });
    expect(read("<N>+5</N>")).toEqual({ N: 5, Ns: [] });
    expect(read("<N> 7\n</N>")).toEqual({ N: 7, Ns: [] });
    expect(read("<N>&#52;2</N>")).toEqual({ N: 42, Ns: [] });
    for (const bad of ["2147483648", "-", "1x", "٣", "1 2"])
      expect(() => read(`<N>${bad}</N>`), bad).toThrow(XmlDecodeError);
  });

  it("reads booleans written plainly, and leaves the rest to the string path", () => {
    expect(read("<B>true</B>")).toEqual({ B: true, Ns: [] });
    expect(read("<B>false</B>")).toEqual({ B: false, Ns: [] });
    expect(read("<B>1</B>")).toEqual({ B: true, Ns: [] });
    expect(read("<B>0</B>")).toEqual({ B: false, Ns: [] });
    expect(read("<B> true </B>")).toEqual({ B: true, Ns: [] });
    for (const bad of ["True", "yes", "2", "truee"])
      expect(() => read(`<B>${bad}</B>`), bad).toThrow(XmlDecodeError);
  });

  it("still counts the element and refuses one too many", () => {
    const refuse: DecodeOptions = { undescribed: "refuse" };
    expect(() => read("<N>1</N><N>2</N>", refuse)).toThrow(
      "element {urn:t}N occurs more than once in Row",
    );
    expect(() => read("<Ns>1</Ns><Ns>2</Ns><Ns>3</Ns><Ns>4</Ns>", refuse)).toThrow(
      "element {urn:t}Ns occurs more than 3 times in Row",
    );
    const limits = { maxDepth: 128, maxElements: 2 };
    expect(() => read("<N>1</N><B>1</B>", { limits })).toThrow("more than 2 elements");
  });
});
