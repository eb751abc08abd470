/** The runtime's XML tokenizer: namespaces, references, CDATA, and well-formedness errors. */
import { describe, expect, it } from "vitest";
import { XmlPieces } from "../../runtime/src/xml/pieces.js";
import { tokenizeXml, XmlSyntaxError, XmlTokenizer } from "../../runtime/src/xml/tokenizer.js";
import { type XmlTag } from "../../runtime/src/xml/tokens.js";

/**
 * The events for a document; with `leaves`, leaf elements come as one event, written as open, text,
 * close.
 */
function textEvents(xml: string | Uint8Array, leaves = false): string[] {
  const out: string[] = [];
  const open = (t: XmlTag) =>
    out.push(
      `<{${t.uri}}${t.local}${t.attributes
        .filter((a) => !a.name.startsWith("xmlns"))
        .map((a) => ` {${a.uri}}${a.local}=${a.value}`)
        .join("")}>`,
    );
  tokenizeXml(xml, {
    open,
    close: () => out.push("</>"),
    text: (t) => out.push(JSON.stringify(t)),
    ...(leaves
      ? {
          leaf: (t: XmlTag, text: string) => {
            open(t);
            if (text !== "") out.push(JSON.stringify(text));
            out.push("</>");
          },
        }
      : {}),
  });
  return out;
}

/** The events for UTF-8 bytes that arrive as `pieces` (fed as they come: see XmlPieces). */
function pieceEvents(pieces: readonly Uint8Array[], leaves: boolean): string[] {
  const out: string[] = [];
  const open = (t: XmlTag) =>
    out.push(
      `<{${t.uri}}${t.local}${t.attributes
        .filter((a) => !a.name.startsWith("xmlns"))
        .map((a) => ` {${a.uri}}${a.local}=${a.value}`)
        .join("")}>`,
    );
  const h = {
    open,
    close: () => out.push("</>"),
    text: (t: string) => out.push(JSON.stringify(t)),
    ...(leaves
      ? {
          leaf: (t: XmlTag, text: string) => (
            open(t),
            text !== "" && out.push(JSON.stringify(text)),
            out.push("</>")
          ),
        }
      : {}),
  };
  const feed = new XmlPieces(new XmlTokenizer(h), 0);
  // What it gives back as the bytes received (it keeps no chunk) is them, whether reading fails or
  // not.
  let written = 0;
  try {
    for (const p of pieces) {
      written++;
      feed.write(p);
    }
    feed.end();
  } finally {
    expect(feed.received().equals(Buffer.concat(pieces.slice(0, written)))).toBe(true);
  }
  return out;
}

/**
 * Ways of cutting UTF-8 bytes into pieces: byte by byte, and in two at every offset (at a sample of
 * offsets for long documents), inside multi-byte characters and markup included.
 */
function cuttings(bytes: Buffer): Uint8Array[][] {
  const out: Uint8Array[][] = [Array.from(bytes, (b) => Uint8Array.of(b))];
  const step = Math.max(1, Math.floor(bytes.length / 150));
  for (let k = 1; k < bytes.length; k += step) out.push([bytes.subarray(0, k), bytes.subarray(k)]);
  return out;
}

/**
 * The events for a document, read as text and as UTF-8 bytes (its Latin-1 view), each with and
 * without leaf events, and from bytes cut into pieces in every way `cuttings` gives: all must agree
 * on every event and every error (an error's offset too, for the pieces).
 */
function events(xml: string): string[] {
  const outcome = (f: () => string[]): string[] | Error => {
    try {
      return f();
    } catch (e) {
      return e as Error;
    }
  };
  const fromText = outcome(() => textEvents(xml));
  const bytes = Buffer.from(xml, "utf8");
  const fromBytes = outcome(() => textEvents(bytes));
  const others: [string, () => string[]][] = [
    ["bytes", () => textEvents(bytes)],
    ["text, leaves", () => textEvents(xml, true)],
    ["bytes, leaves", () => textEvents(bytes, true)],
  ];
  for (const pieces of cuttings(bytes)) {
    const how = `pieces of ${pieces
      .map((p) => p.length)
      .slice(0, 3)
      .join(", ")}${pieces.length > 3 ? ", …" : ""}`;
    others.push(
      [how, () => pieceEvents(pieces, false)],
      [`${how}, leaves`, () => pieceEvents(pieces, true)],
    );
  }
  for (const [how, other] of others) {
    const got = outcome(other);
    if (fromText instanceof Error) {
      expect(got, how).toBeInstanceOf(Error);
      expect((got as Error).message, how).toBe(fromText.message);
      if (how.startsWith("pieces"))
        expect((got as XmlSyntaxError).offset, how).toBe((fromBytes as XmlSyntaxError).offset);
    } else expect(got, how).toEqual(fromText);
  }
  if (fromText instanceof Error) throw fromText;
  return fromText;
}

describe("tokenizeXml", () => {
  it("resolves default and prefixed namespaces, and restores them after each element", () => {
    expect(
      events(
        '<?xml version="1.0"?><a:r xmlns:a="urn:a" xmlns="urn:d"><x a:k="1" k="2"/><y xmlns=""><z/></y><w/></a:r>',
      ),
    ).toEqual([
      "<{urn:a}r>",
      "<{urn:d}x {urn:a}k=1 {}k=2>",
      "</>",
      "<{}y>",
      "<{}z>",
      "</>",
      "</>",
      "<{urn:d}w>",
      "</>",
      "</>",
    ]);
  });

  it("reports leaves only for text-only elements closed by their own end tag", () => {
    const leaves: string[] = [];
    tokenizeXml(
      "<r><a>1</a><b></b><c>x<d/></c><e>y</e ><f/><a>2&amp;</a><g><!--c-->z</g><h><![CDATA[w]]></h></r>",
      {
        open: () => {},
        close: () => {},
        text: () => {},
        leaf: (t, text) => leaves.push(`${t.local}=${text}`),
      },
    );
    expect(leaves).toEqual(["a=1", "b=", "a=2&"]);
  });

  it("finds a repeated attribute among many, wherever the two stand", () => {
    const attrs = (n: number) => Array.from({ length: n }, (_, i) => ` a${i}="${i}"`).join("");
    expect(events(`<r${attrs(40)}/>`)[0]).toBe(
      `<{}r${Array.from({ length: 40 }, (_, i) => ` {}a${i}=${i}`).join("")}>`,
    );
    for (const [n, again] of [
      [3, 1],
      [15, 14],
      [16, 0],
      [17, 16],
      [40, 3],
      [40, 39],
      [2000, 1999],
    ] as const) {
      expect(() => events(`<r${attrs(n)} a${again}="x"/>`), `${n} then a${again}`).toThrow(
        `the attribute a${again} appears twice in <r>`,
      );
    }
  });

  it("resolves prefixes the same whether a scope is small enough to copy or not", () => {
    for (const n of [3, 31, 32, 33, 200]) {
      const decl = Array.from({ length: n }, (_, i) => ` xmlns:p${i}="urn:${i}"`).join("");
      const last = `p${n - 1}`;
      // Declared on the root, then more (and one redeclared) below it, and restored after.
      const xml = `<p0:r${decl}><${last}:a xmlns:q="urn:q" xmlns:p0="urn:new"><p0:b q:k="1"/><p1:c xmlns="urn:d"><d/></p1:c></${last}:a><p0:e/></p0:r>`;
      expect(events(xml), String(n)).toEqual([
        "<{urn:0}r>",
        `<{urn:${n - 1}}a>`,
        "<{urn:new}b {urn:q}k=1>",
        "</>",
        "<{urn:1}c>",
        "<{urn:d}d>",
        "</>",
        "</>",
        "</>",
        "<{urn:0}e>",
        "</>",
        "</>",
      ]);
    }
  });

  it("reads the shapes that cost their square in a naive reader: a tag with 100,000 attributes, 20,000 children each declaring a prefix under 10,000 bindings", () => {
    let attributes = 0;
    let elements = 0;
    let lastUri = "";
    const count = {
      open: (t: XmlTag) => ((attributes += t.attributes.length), elements++, (lastUri = t.uri)),
      close: () => {},
      text: () => {},
    };
    const attrs = Array.from({ length: 100_000 }, (_, i) => ` a${i}=""`).join("");
    tokenizeXml(`<r${attrs}/>`, count);
    expect(attributes).toBe(100_000);
    const decls = Array.from({ length: 10_000 }, (_, i) => ` xmlns:p${i}="urn:${i}"`).join("");
    tokenizeXml(`<r${decls}>${'<p9999:c xmlns:z="urn:z"/>'.repeat(20_000)}</r>`, count);
    expect([elements, lastUri]).toEqual([1 + 1 + 20_000, "urn:9999"]);
  });

  it("resolves each document by its own declarations, though documents share alike ones", () => {
    // Scopes, declaring start tags, element and attribute names are remembered from one document
    // to the next (see ScopeFamily, KnownTag and seenInText in runtime/src/xml/start-tag.ts): the
    // same prefix
    // bound otherwise, a name written otherwise, or a declaration added or left out must read as
    // that document says.
    const docs = [
      '<e:E xmlns:e="urn:1" xmlns:x="urn:x"><e:B><p:Op xmlns:p="urn:op" p:a="1"/></e:B></e:E>',
      '<e:E xmlns:e="urn:2" xmlns:x="urn:x"><e:B><p:Op xmlns:p="urn:op" p:a="1"/></e:B></e:E>',
      '<e:E xmlns:x="urn:x" xmlns:e="urn:1"><e:B><p:Op xmlns:p="urn:op2" p:a="2"/></e:B></e:E>',
      '<e:E xmlns:e="urn:1"><e:B><p:Op xmlns:p="urn:op"/></e:B></e:E>',
      '<e:E xmlns:e="urn:1" xmlns:x="urn:x" xmlns:y="urn:y"><e:B><Op xmlns="urn:op"/></e:B></e:E>',
      '<e:E xmlns:e="urn:1" xmlns:x="urn:x"><e:B><p:Op xmlns:p="urn:op" p:a="1"/></e:B></e:E>',
    ];
    const expected = [
      ["<{urn:1}E>", "<{urn:1}B>", "<{urn:op}Op {urn:op}a=1>"],
      ["<{urn:2}E>", "<{urn:2}B>", "<{urn:op}Op {urn:op}a=1>"],
      ["<{urn:1}E>", "<{urn:1}B>", "<{urn:op2}Op {urn:op2}a=2>"],
      ["<{urn:1}E>", "<{urn:1}B>", "<{urn:op}Op>"],
      ["<{urn:1}E>", "<{urn:1}B>", "<{urn:op}Op>"],
      ["<{urn:1}E>", "<{urn:1}B>", "<{urn:op}Op {urn:op}a=1>"],
    ].map((open) => [...open, "</>", "</>", "</>"]);
    // The same declaring tag in scopes that bind its own prefix otherwise.
    docs.push(
      '<e:E xmlns:e="urn:1" xmlns:x="urn:x"><x:Op xmlns:p="urn:op" p:a="1"/></e:E>',
      '<e:E xmlns:e="urn:1" xmlns:x="urn:y"><x:Op xmlns:p="urn:op" p:a="1"/></e:E>',
    );
    expected.push(
      ["<{urn:1}E>", "<{urn:x}Op {urn:op}a=1>", "</>", "</>"],
      ["<{urn:1}E>", "<{urn:y}Op {urn:op}a=1>", "</>", "</>"],
    );
    // Each read as text, as bytes and in pieces (see events), twice over.
    for (const round of [1, 2])
      for (const [i, xml] of docs.entries())
        expect(events(xml), `${round}: ${xml}`).toEqual(expected[i]);
    // A prefix one document binds is unbound in the next that does not declare it.
    expect(() => events('<e:E xmlns:x="urn:x"/>')).toThrow("the prefix e of <e:E> is not bound");
    // A non-ASCII name, written otherwise in the bytes' Latin-1 view than in text.
    const named = '<ns:Nöm xmlns:ns="urn:n" ns:ät="ü"/>';
    for (const round of [1, 2])
      expect(events(named), String(round)).toEqual(["<{urn:n}Nöm {urn:n}ät=ü>", "</>"]);
  });

  it("reads a document past what the shared caches take (thousands of fresh names and scopes) as it reads one within", () => {
    // Past 256 fresh attribute names or shared scopes a document reads on without the caches
    // (Open.cacheMisses): names and scopes must resolve the same on either side of that point,
    // and the caches still serve the next document.
    const n = 600;
    let xml = '<r xmlns:s="urn:s">';
    const expected = ["<{}r>"];
    for (let i = 0; i < n; i++) {
      xml += `<p${i}:e xmlns:p${i}="urn:${i}" p${i}:a${i}="${i}" s:k="v"/>`;
      expected.push(`<{urn:${i}}e {urn:${i}}a${i}=${i} {urn:s}k=v>`, "</>");
    }
    xml += `<s:last s:k="w"/></r>`;
    expected.push("<{urn:s}last {urn:s}k=w>", "</>", "</>");
    for (const round of [1, 2]) expect(events(xml), String(round)).toEqual(expected);
    // A document that repeats itself, read after it, is served by the caches as before.
    const small = '<e:E xmlns:e="urn:1"><e:B e:a="1"/></e:E>';
    expect(events(small)).toEqual(["<{urn:1}E>", "<{urn:1}B {urn:1}a=1>", "</>", "</>"]);
  });

  it("binds assumed prefixes above the root, under the document's own declarations", () => {
    const seen: string[] = [];
    const h = {
      open: (t: XmlTag) => seen.push(`{${t.uri}}${t.local}`),
      close: () => {},
      text: () => {},
    };
    tokenizeXml('<s:r><s:a xmlns:s="urn:own"/><x:b/><c/></s:r>', h, {
      s: "urn:assumed",
      x: "urn:x",
      "": "urn:not-default",
      xml: "urn:not-xml",
    });
    expect(seen).toEqual(["{urn:assumed}r", "{urn:own}a", "{urn:x}b", "{}c"]);
    expect(() => tokenizeXml("<y:r/>", h, { s: "urn:s" })).toThrow(
      "the prefix y of <y:r> is not bound",
    );
  });

  it("tells apart names of the same length and names that prefix one another", () => {
    expect(events("<ab><ac/><a/><abc/><ab/></ab>")).toEqual([
      "<{}ab>",
      "<{}ac>",
      "</>",
      "<{}a>",
      "</>",
      "<{}abc>",
      "</>",
      "<{}ab>",
      "</>",
      "</>",
    ]);
  });

  it("decodes references, CDATA and line ends; keeps comments and PIs out", () => {
    expect(
      events("<r>a&amp;b&lt;&#x41;&#66;&quot;&apos;<![CDATA[<&>]]><!-- c -->\r\n<?pi x?>end</r>"),
    ).toEqual(["<{}r>", '"a&b<AB\\"\'"', '"<&>"', '"\\n"', '"end"', "</>"]);
    expect(events('<r a="x&#10;y&#9;" b="1\n2"/>')).toEqual(["<{}r {}a=x\ny\t {}b=1 2>", "</>"]);
  });

  it(
    "reads non-ASCII names, texts and attribute values the same from bytes, references and CRs in them included",
    { timeout: 120_000 },
    () => {
      expect(
        events(
          '<Größe xmlns:ü="urn:ü" ü:ä="Ω &amp; 日本"><ü:x>Grüße &lt;ok&gt; &#x1F600;&#233;\r\nñ\rx</ü:x><y>a&amp;b&quot;&apos;</y></Größe>',
        ),
      ).toEqual([
        "<{}Größe {urn:ü}ä=Ω & 日本>",
        "<{urn:ü}x>",
        JSON.stringify("Grüße <ok> 😀é\nñ\nx"),
        "</>",
        "<{}y>",
        JSON.stringify("a&b\"'"),
        "</>",
        "</>",
      ]);
      // Long texts (copied in runs) and references at both ends.
      const long = "é".repeat(40) + "x".repeat(40);
      expect(events(`<r>&amp;${long}&lt;${long}&gt;</r>`)).toEqual([
        "<{}r>",
        JSON.stringify(`&${long}<${long}>`),
        "</>",
      ]);
      // A text longer than the reused scratch space may grow to (1 MiB of bytes).
      const huge = "é".repeat(600_000);
      expect(events(`<r>${huge}&amp;&#233;</r>`)).toEqual([
        "<{}r>",
        JSON.stringify(`${huge}&é`),
        "</>",
      ]);
    },
  );

  it("decodes character references of every UTF-8 length, decimal and hex, among other text", () => {
    expect(
      events(
        "<r>é&#65;&#233;&#8594;&#128512;&#x41;&#xE9;&#x1F600;&#0065;&#13;x&amp;&quot;&apos;</r>",
      ),
    ).toEqual(["<{}r>", JSON.stringify("éAé→😀Aé😀A\rx&\"'"), "</>"]);
    expect(events("<r>é&#0000000065;</r>")).toEqual(["<{}r>", '"éA"', "</>"]);
    expect(events("<r>&#1114111;&#57344;&#65533;&#32;</r>")).toEqual([
      "<{}r>",
      JSON.stringify("\u{10FFFF}\uE000\uFFFD "),
      "</>",
    ]);
  });

  it("normalizes CRLF and CR in texts between elements, pretty-printed documents included", () => {
    const doc = "<r>\r\n" + "  <i>a &amp; b\r\nc</i>\r\n".repeat(3) + "\r</r>";
    const item = ["<{}i>", '"a & b\\nc"', "</>"];
    expect(events(doc)).toEqual([
      "<{}r>",
      '"\\n  "',
      ...item,
      '"\\n  "',
      ...item,
      '"\\n  "',
      ...item,
      '"\\n\\n"',
      "</>",
    ]);
  });

  it("reads UTF-8 bytes with a byte order mark; a malformed sequence reads as U+FFFD, as Response.text() does", () => {
    expect(
      textEvents(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("<a>é</a>")])),
    ).toEqual(["<{}a>", '"é"', "</>"]);
    expect(
      textEvents(
        Buffer.concat([Buffer.from("<a>x"), Buffer.from([0xc3]), Buffer.from("y&amp;</a>")]),
      ),
    ).toEqual(["<{}a>", '"x\uFFFDy&"', "</>"]);
  });

  it("refuses U+FFFE written as UTF-8 bytes, with or without references around it", () => {
    expect(() => textEvents(Buffer.from("<a>x\uFFFE</a>"))).toThrow(/character XML does not allow/);
    expect(() => textEvents(Buffer.from("<a>&amp;\uFFFF</a>"))).toThrow(
      /character XML does not allow/,
    );
  });

  const bad: [string, RegExp][] = [
    ["", /no root element/],
    ["text", /text before the root/],
    ["<a></b>", /does not match <a>/],
    ["<ab></a>", /<\/a> does not match <ab>/],
    ["<a></ab>", /<\/ab> does not match <a>/],
    ["<a></a x>", /does not match <a>/],
    ["</a>", /closes no element/],
    ["<a>", /is not closed/],
    ["<a/><b/>", /second root/],
    ["<a/>x", /text after the root/],
    ['<a x="1" x="2"/>', /appears twice/],
    ["<p:a/>", /prefix p .* not bound/],
    ["<a p:x='1'/>", /prefix p of attribute/],
    ["<a>&foo;</a>", /entity &foo; is not defined/],
    ["<a>& b</a>", /does not start a valid reference/],
    ["<a>&#0;</a>", /not a character XML allows/],
    ['<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>', /DTDs are refused/],
    ["<a>\u0001</a>", /character XML does not allow/],
    ["<a x=1/>", /not quoted/],
    ['<a x="<"/>', /'<' in the value/],
    ["<1a/>", /not a valid element name/],
    ["<a><!-- x</a>", /unterminated comment/],
    ["<constructor:a/>", /not bound/],
    ["<é></è>", /<\/è> does not match <é>/],
    ["<é>", /<é> is not closed/],
    ["<a>é &bad; </a>", /entity &bad; is not defined/],
    ["<a>é &amp </a>", /does not start a valid reference/],
    ["<a>é &#xD800; </a>", /not a character XML allows/],
    ["<a>é\u0001</a>", /character XML does not allow/],
    ["<a>é&#55296;</a>", /not a character XML allows/],
    ["<a>é&#1114112;</a>", /not a character XML allows/],
    ["<a>é&#12</a>", /does not start a valid reference/],
    ["<a>é&#12345678901;</a>", /does not start a valid reference/],
    ["<a>é&#1a;</a>", /not a valid character reference/],
    ["<a>é&#00000000065;</a>", /does not start a valid reference/],
    ["<a>é&#65535;</a>", /not a character XML allows/],
    ["é<a/>", /text before the root/],
    ["<a/>\u00A0", /text after the root/],
    // Strict on the wire: the generator reads such a WSDL file with a warning
    // (XML_LATE_DECLARATION).
    ['<!-- c --><?xml version="1.0"?><a/>', /XML declaration that does not start the document/],
    [' <?xml version="1.0"?><a/>', /XML declaration that does not start the document/],
    // Namespaces in XML 1.0's reserved names (what an EWS answer once had: xml bound to a0).
    ['<a xmlns:a0="http://www.w3.org/XML/1998/namespace"/>', /prefix a0 as .* reserved/],
    ['<a xmlns="http://www.w3.org/XML/1998/namespace"/>', /default namespace as .* reserved/],
    ['<a xmlns:xml="urn:x"/>', /prefix xml as urn:x breaks the reserved/],
    ['<a xmlns:xmlns="urn:x"/>', /prefix xmlns as urn:x breaks the reserved/],
    ['<a xmlns:p="http://www.w3.org/2000/xmlns/"/>', /prefix p as .* reserved/],
  ];
  for (const [xml, message] of bad) {
    it(`rejects ${JSON.stringify(xml)}`, () => {
      expect(() => events(xml)).toThrow(XmlSyntaxError);
      expect(() => events(xml)).toThrow(message);
    });
  }
});

describe("pieces that keep nothing read (a streamed result)", () => {
  it("hold only what the tokenizer has not read yet, and read every element", () => {
    const item = "<m><id>7</id><text>é€😀 &amp; more</text></m>";
    const bytes = Buffer.from(`<list>${item.repeat(2000)}</list>`, "utf8");
    let closed = 0;
    const feed = new XmlPieces(
      new XmlTokenizer({ open: () => {}, close: () => void closed++, text: () => {} }),
      0,
    );
    feed.forget();
    let most = 0;
    // Chunks of a prime size: cut inside characters and tags.
    for (let at = 0; at < bytes.length; at += 997) {
      feed.write(bytes.subarray(at, at + 997));
      most = Math.max(most, feed.received().length);
    }
    feed.end();
    expect(closed).toBe(1 + 2000 * 3);
    // What waits is at most the construct a chunk cut short and the chunk after it.
    expect(most).toBeLessThan(2 * 997);
    expect(bytes.length).toBeGreaterThan(50 * most);
  });
});
