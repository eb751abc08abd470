/** The runtime's XML tokenizer: namespaces, references, CDATA, and well-formedness errors. */
import { describe, expect, it } from "vitest";
import { tokenizeXml, XmlSyntaxError, type XmlTag } from "../../src/runtime/xml-tokenizer.js";

function events(xml: string): string[] {
  const out: string[] = [];
  tokenizeXml(xml, {
    open: (t: XmlTag) => out.push(`<{${t.uri}}${t.local}${t.attributes.filter((a) => !a.name.startsWith("xmlns")).map((a) => ` {${a.uri}}${a.local}=${a.value}`).join("")}>`),
    close: () => out.push("</>"),
    text: (t) => out.push(JSON.stringify(t)),
  });
  return out;
}

describe("tokenizeXml", () => {
  it("resolves default and prefixed namespaces, and restores them after each element", () => {
    expect(events('<?xml version="1.0"?><a:r xmlns:a="urn:a" xmlns="urn:d"><x a:k="1" k="2"/><y xmlns=""><z/></y><w/></a:r>')).toEqual([
      "<{urn:a}r>", "<{urn:d}x {urn:a}k=1 {}k=2>", "</>", "<{}y>", "<{}z>", "</>", "</>", "<{urn:d}w>", "</>", "</>",
    ]);
  });

  it("tells apart names of the same length and names that prefix one another", () => {
    expect(events("<ab><ac/><a/><abc/><ab/></ab>")).toEqual(["<{}ab>", "<{}ac>", "</>", "<{}a>", "</>", "<{}abc>", "</>", "<{}ab>", "</>", "</>"]);
  });

  it("decodes references, CDATA and line ends; keeps comments and PIs out", () => {
    expect(events("<r>a&amp;b&lt;&#x41;&#66;&quot;&apos;<![CDATA[<&>]]><!-- c -->\r\n<?pi x?>end</r>")).toEqual([
      "<{}r>", '"a&b<AB\\"\'"', '"<&>"', '"\\n"', '"end"', "</>",
    ]);
    expect(events('<r a="x&#10;y&#9;" b="1\n2"/>')).toEqual(["<{}r {}a=x\ny\t {}b=1 2>", "</>"]);
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
  ];
  for (const [xml, message] of bad) {
    it(`rejects ${JSON.stringify(xml)}`, () => {
      expect(() => events(xml)).toThrow(XmlSyntaxError);
      expect(() => events(xml)).toThrow(message);
    });
  }
});
