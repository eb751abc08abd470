/** The generator's XML loading: the located element tree (dom.ts) and the limits and errors of xml.ts. */
import { describe, expect, it } from "vitest";
import { DiagnosticError } from "../../src/diagnostics.js";
import { parseXmlDocument } from "../../src/parse/xml.js";

const limits = { maxBytes: 1_000_000, maxDepth: 256 };

function failure(
  text: string,
  l = limits,
): { code: string; line: number; column: number; message: string } {
  try {
    parseXmlDocument(text, "t.xml", l);
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostics[0]!;
    throw e;
  }
  throw new Error("parsed without error");
}

describe("the located element tree", () => {
  const text = `<?xml version="1.0"?>
<!-- a comment -->
<r xmlns="urn:d" xmlns:p="urn:p" a="1" p:b="2">
  <p:x>one <![CDATA[<two>]]> &amp; <y>three</y></p:x>
    <z xmlns=""/>
</r>`;
  const root = parseXmlDocument(text, "t.xml", limits).documentElement;

  it("resolves names and namespaces, and finds attributes by qualified name", () => {
    expect([root.tagName, root.localName, root.namespaceURI]).toEqual(["r", "r", "urn:d"]);
    expect([
      root.getAttribute("a"),
      root.getAttribute("p:b"),
      root.getAttribute("b"),
      root.getAttribute("c"),
    ]).toEqual(["1", "2", null, null]);
    const [x, z] = root.elements;
    expect([x!.tagName, x!.localName, x!.namespaceURI]).toEqual(["p:x", "x", "urn:p"]);
    expect([
      z!.localName,
      z!.namespaceURI,
      z!.lookupNamespaceURI(""),
      z!.lookupNamespaceURI("p"),
    ]).toEqual(["z", null, null, "urn:p"]);
    expect([
      x!.lookupNamespaceURI(""),
      x!.lookupNamespaceURI("q"),
      x!.lookupNamespaceURI("xml"),
    ]).toEqual(["urn:d", null, "http://www.w3.org/XML/1998/namespace"]);
  });

  it("finds attributes the same among many (indexed past 16)", () => {
    for (const n of [15, 16, 17, 500]) {
      const attrs = Array.from({ length: n }, (_, i) => ` a${i}="v${i}"`).join("");
      const el = parseXmlDocument(
        `<r xmlns:p="urn:p"${attrs} p:last="L"/>`,
        "t.xml",
        limits,
      ).documentElement;
      expect(
        [
          el.getAttribute("a0"),
          el.getAttribute(`a${n - 1}`),
          el.getAttribute("p:last"),
          el.getAttribute("last"),
          el.getAttribute(`a${n}`),
        ],
        String(n),
      ).toEqual(["v0", `v${n - 1}`, "L", null, null]);
    }
  });

  it("keeps text, CDATA and references as textContent, descendants included; comments are dropped", () => {
    expect(root.elements[0]!.textContent).toBe("one <two> & three");
  });

  it("keeps text of white space alone only in documentation, whose text is read", () => {
    const xs = "http://www.w3.org/2001/XMLSchema";
    const wsdl = "http://schemas.xmlsoap.org/wsdl/";
    const el = parseXmlDocument(
      `<r xmlns:xs="${xs}" xmlns:w="${wsdl}">
  <xs:annotation>
    <xs:documentation>Use <b>this</b> <i>one</i>
  <em> </em>.</xs:documentation>
  </xs:annotation>
  <w:documentation> <b>a</b> <b>b</b> </w:documentation>
  <xs:documentation xmlns:xs="urn:other"> <b>a</b> <b>b</b> </xs:documentation>
  <x> <b>a</b> <b>b</b> <c> </c> t </x>
</r>`,
      "t.xml",
      limits,
    ).documentElement;
    const [annotation, wsdlDoc, other, x] = el.elements;
    expect(annotation!.elements[0]!.textContent).toBe("Use this one\n   .");
    expect(wsdlDoc!.textContent).toBe(" a b ");
    // Elsewhere such text means nothing to a WSDL or schema: the children are the elements.
    expect([el.children.length, other!.textContent, other!.children.length]).toEqual([4, "ab", 2]);
    expect(x!.children.map((c) => (typeof c === "string" ? c : c.localName))).toEqual([
      "b",
      "b",
      "c",
      " t ",
    ]);
    expect([x!.elements.length, x!.elements[2]!.children]).toEqual([3, []]);
  });

  it("locates each element at its '<', line and column", () => {
    expect([root.lineNumber, root.columnNumber]).toEqual([3, 1]);
    const [x, z] = root.elements;
    expect([
      x!.lineNumber,
      x!.columnNumber,
      x!.elements[0]!.lineNumber,
      x!.elements[0]!.columnNumber,
    ]).toEqual([4, 3, 4, 36]);
    expect([z!.lineNumber, z!.columnNumber]).toEqual([5, 5]);
  });
});

describe("limits and errors", () => {
  it("refuses nesting past the depth limit, at the first element too deep", () => {
    const deep = (n: number) => "<a>".repeat(n) + "</a>".repeat(n);
    expect(parseXmlDocument(deep(256), "t.xml", limits).documentElement.localName).toBe("a");
    expect(failure(deep(257))).toMatchObject({
      code: "XML_TOO_DEEP",
      line: 1,
      column: 256 * 3 + 1,
    });
  });

  it("refuses a document over the size limit, and an empty one", () => {
    expect(failure("<a>0123456789</a>", { maxBytes: 10, maxDepth: 256 })).toMatchObject({
      code: "XML_TOO_LARGE",
    });
    expect(failure("  \n")).toMatchObject({ code: "XML_EMPTY" });
  });

  it("refuses a DOCTYPE where it stands, and only a real one: the text of one in a comment or CDATA is content", () => {
    expect(
      failure('<?xml version="1.0"?>\n  <!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>'),
    ).toMatchObject({ code: "XML_DTD_REFUSED", line: 2, column: 3 });
    const doc = parseXmlDocument(
      "<a><!-- <!DOCTYPE x> --><![CDATA[<!DOCTYPE html><p>doc</p>]]></a>",
      "t.xml",
      limits,
    );
    expect(doc.documentElement.textContent).toBe("<!DOCTYPE html><p>doc</p>");
  });

  it("reports malformed XML where it is, with what is wrong", () => {
    expect(failure("<a>\n  <b>\n</a>")).toMatchObject({
      code: "XML_MALFORMED",
      line: 3,
      column: 1,
      message: "malformed XML: the end tag </a> does not match <b>",
    });
    expect(failure("<a>\n  <b x='1' x='2'/>\n</a>")).toMatchObject({
      code: "XML_MALFORMED",
      line: 2,
      message: expect.stringContaining("appears twice"),
    });
  });
});
