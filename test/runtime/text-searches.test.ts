/**
 * Texts of a document given as bytes are read with searches made once per piece (the next control,
 * CR, reference, U+FFxx and non-ASCII byte: see Source in chars.ts). These documents put those
 * characters after, between and inside other texts, read whole and cut in two at every offset, and
 * must read as the same document given as text does, with the same errors at the same places.
 */
import { describe, expect, it } from "vitest";
import { tokenizeXml, XmlSyntaxError, XmlTokenizer } from "../../runtime/src/xml/tokenizer.js";
import type { TokenHandler } from "../../runtime/src/xml/tokens.js";

function collector(out: string[]): TokenHandler {
  return {
    open: (t) => out.push(`<${t.local}>`),
    close: () => out.push("</>"),
    text: (t) => out.push(JSON.stringify(t)),
    // As open, text and close: a piece that cuts an element short reports it so.
    leaf: (t, text) =>
      out.push(`<${t.local}>`, ...(text === "" ? [] : [JSON.stringify(text)]), "</>"),
  };
}

/** The events of `bytes` read in two pieces cut at `cut` (the whole, when it is the length). */
function inTwo(bytes: Buffer, cut: number): string[] {
  const out: string[] = [];
  const t = new XmlTokenizer(collector(out));
  const read = t.read(bytes.subarray(0, cut), cut === bytes.length);
  if (cut < bytes.length) t.read(bytes.subarray(read), true);
  return out;
}

/** The error reading `bytes` in two pieces cut at `cut`, as "message @ offset". */
function errorInTwo(bytes: Buffer, cut: number): string {
  try {
    inTwo(bytes, cut);
  } catch (e) {
    if (e instanceof XmlSyntaxError) return `${e.message} @ ${e.offset}`;
    throw e;
  }
  return "no error";
}

const DOC =
  "<r><a>plain</a><b>é</b><c>x &amp; y</c><d>\r\n</d><e>more text</e>" +
  "<f>&lt;é&gt;\r</f><g>\uFFE0 &#65; \uFF01</g><h>last</h>\r\n</r>";

describe("texts read with searches ahead", () => {
  it("reads as the same document given as text, whole and cut in two anywhere", () => {
    const expected: string[] = [];
    tokenizeXml(DOC, collector(expected));
    expect(expected).toContain(JSON.stringify("<é>\n"));
    expect(expected).toContain(JSON.stringify("\uFFE0 A \uFF01"));
    const bytes = Buffer.from(DOC);
    for (let cut = 1; cut <= bytes.length; cut++) expect(inTwo(bytes, cut)).toEqual(expected);
  });

  const errors: [string, string, RegExp][] = [
    ["a control after other texts", "<r><a>ok</a><b>é &amp;</b><c>x\u0001</c></r>", /allow/],
    ["U+FFFE after other texts", "<r><a>é</a><b>&amp;</b><c>y\uFFFE</c></r>", /allow/],
    ["a control before a bad reference", "<r><a>é\u0001</a><b>&bad;</b></r>", /allow/],
    ["a bad reference before a control", "<r><a>é&bad;</a><b>\u0001</b></r>", /entity/],
    ["a control in an attribute after texts", '<r><a>é</a><b x="\u0002"/></r>', /allow/],
  ];
  for (const [what, doc, message] of errors)
    it(`refuses ${what} at the same place, whole and cut in two anywhere`, () => {
      const bytes = Buffer.from(doc);
      const whole = errorInTwo(bytes, bytes.length);
      expect(whole).toMatch(message);
      const bad = doc.search(/[\u0001\u0002\uFFFE]|&bad/);
      // The offset is that of the text (or tag) holding the bad character, in bytes.
      const at = Number(whole.split(" @ ")[1]);
      expect(at).toBeLessThanOrEqual(Buffer.byteLength(doc.slice(0, bad)));
      expect(at).toBeGreaterThan(Buffer.byteLength(doc.slice(0, bad)) - 8);
      for (let cut = 1; cut < bytes.length; cut++) expect(errorInTwo(bytes, cut)).toBe(whole);
    });
});
