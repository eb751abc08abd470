/**
 * A base64Binary `$value` of a type with attributes (xmime-style `{ $value, contentType }`) stays
 * inline in an MTOM message: XOP reads an Include in place of an element's whole content, so the
 * reader accepts it only in a base64Binary element of its own, which does go as a part.
 */
import { describe, expect, it } from "vitest";
import { attribute, complex, field, xs } from "../../runtime/src/descriptors/builders.js";
import { parseMediaType } from "../../runtime/src/mime/headers.js";
import { readMtom, writeMtom } from "../../runtime/src/mime/xop.js";
import { decodeDocument } from "../../runtime/src/xml/reader.js";
import { writeField } from "../../runtime/src/xml/writer.js";

const NS = "urn:x";
const bin = complex("Bin", () => [], {
  text: xs.base64Binary,
  attrs: [attribute("contentType", NS, xs.string)],
});
const root = field(
  "r",
  NS,
  complex("R", () => [field("d", NS, bin), field("e", NS, xs.base64Binary)]),
);

describe("MTOM and a base64Binary in a type with attributes", () => {
  it("writes the element of its own as a part, the type's $value inline, and reads both back whole", async () => {
    const bytes = new Uint8Array(2000).fill(7);
    const pkg = await writeMtom({ threshold: 10 }, "1.1", undefined, () => {
      const out: string[] = [];
      writeField(out, root, { d: { $value: bytes, contentType: "a/b" }, e: bytes }, "", "r");
      return out.join("");
    });
    expect(pkg.xml.match(/xop:Include/g)).toHaveLength(1);
    const body = Buffer.concat(pkg.body.chunks as Uint8Array[]);
    const limits = { maxPartBytes: 1e9, maxParts: 100 };
    const msg = readMtom(body, parseMediaType(pkg.contentType), limits);
    const { value } = decodeDocument(Buffer.from(msg.root), [root], { xop: msg.attachments });
    const v = value as { d: { $value: Uint8Array; contentType: string }; e: Uint8Array };
    expect(v.d.contentType).toBe("a/b");
    expect(Buffer.from(v.d.$value).equals(Buffer.from(bytes))).toBe(true);
    expect(Buffer.from(v.e).equals(Buffer.from(bytes))).toBe(true);
  });
});
