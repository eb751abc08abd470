/**
 * Exclusive canonicalization against the W3C Recommendations' own examples (fixtures/wss/c14n/,
 * written from the specifications' text), and the cases signatures rely on: comments dropped,
 * `xml:` attributes not inherited, namespaces written once.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { excC14n } from "../../runtime/src/wss/c14n.js";
import { allElements, readTree, type SigElement } from "../../runtime/src/wss/tree.js";

const dir = new URL("../../fixtures/wss/c14n/", import.meta.url);
const fixture = (name: string): string => readFileSync(new URL(name, dir), "utf8");

function element(xml: string, local: string): SigElement {
  for (const e of allElements(readTree(xml))) if (e.local === local) return e;
  throw new Error(`no ${local}`);
}

describe("exclusive canonicalization, W3C vectors", () => {
  it.each([
    ["exc-2.2-first.xml", "elem2", [], "exc-2.2.expected.xml"],
    ["exc-2.2-second.xml", "elem2", [], "exc-2.2.expected.xml"],
    ["exc-2.2-first.xml", "elem2", ["n3"], "exc-2.2-first-prefixlist-n3.expected.xml"],
    ["c14n-3.2-whitespace.xml", "doc", [], "c14n-3.2-whitespace.expected.xml"],
    ["c14n-3.3-tags.xml", "doc", [], "c14n-3.3-tags.expected.xml"],
    ["c14n-3.4-characters.xml", "doc", [], "c14n-3.4-characters.expected.xml"],
  ])("%s, <%s> with PrefixList %j", (input, local, prefixes, expected) => {
    expect(excC14n(element(fixture(input), local), prefixes)).toBe(fixture(expected));
  });
});

describe("exclusive canonicalization, what signatures rely on", () => {
  it("drops comments and joins the text around them", () => {
    const el = element("<a><b>x<!-- c -->y</b></a>", "b");
    expect(excC14n(el)).toBe("<b>xy</b>");
  });

  it("does not inherit xml: attributes, nor declarations nothing uses", () => {
    const xml = '<r xml:lang="fr" xmlns:u="urn:u" xmlns="urn:d"><s xmlns:p="urn:p">t</s></r>';
    expect(excC14n(element(xml, "s"))).toBe('<s xmlns="urn:d">t</s>');
  });

  it("writes #default from the PrefixList and a prefix only where first used", () => {
    const xml = '<r xmlns="urn:d" xmlns:p="urn:p"><s><p:t p:a="1"><p:u/></p:t></s></r>';
    expect(excC14n(element(xml, "s"), ["#default"])).toBe(
      '<s xmlns="urn:d"><p:t xmlns:p="urn:p" p:a="1"><p:u></p:u></p:t></s>',
    );
  });

  it('undoes a default namespace with xmlns="" only below an element that wrote one', () => {
    expect(excC14n(element('<a xmlns="urn:a"><b xmlns=""/></a>', "a"))).toBe(
      '<a xmlns="urn:a"><b xmlns=""></b></a>',
    );
    expect(excC14n(element('<a xmlns="urn:a"><b xmlns=""/></a>', "b"))).toBe("<b></b>");
  });

  it("gives a different form for a changed text or attribute", () => {
    const a = excC14n(element('<a x="1">t</a>', "a"));
    expect(excC14n(element('<a x="2">t</a>', "a"))).not.toBe(a);
    expect(excC14n(element('<a x="1">u</a>', "a"))).not.toBe(a);
  });

  it("reads a PrefixList once: a prefix named twice is written once", () => {
    const el = element(fixture("exc-2.2-first.xml"), "elem2");
    const once = excC14n(el, ["n3"]);
    expect(excC14n(el, ["n3", "n3", "n3"])).toBe(once);
    expect(excC14n(el, new Set(["n3"]))).toBe(once);
    expect(once).toBe(fixture("exc-2.2-first-prefixlist-n3.expected.xml"));
  });

  it("writes a PrefixList's prefix again below an element that rebinds it", () => {
    const xml = '<r xmlns:p="urn:1"><s><t xmlns:p="urn:2"><u/></t></s></r>';
    expect(excC14n(element(xml, "s"), ["p"])).toBe(
      '<s xmlns:p="urn:1"><t xmlns:p="urn:2"><u></u></t></s>',
    );
  });
});
