/**
 * Canonical XML for comparisons: namespaces resolved, prefixes and namespace declarations ignored,
 * attributes sorted, whitespace-only text between elements dropped; all other text kept exactly.
 */
import { DOMParser, type Element, type Node } from "@xmldom/xmldom";

export function canonicalXml(xml: string): string {
  const doc = new DOMParser({
    onError: (level, msg) => {
      if (level !== "warning") throw new Error(msg);
    },
  }).parseFromString(xml, "text/xml");
  return canon(doc.documentElement!);
}

function canon(el: Element): string {
  const attrs: string[] = [];
  for (let i = 0; i < el.attributes.length; i++) {
    const a = el.attributes.item(i)!;
    if (a.name === "xmlns" || a.name.startsWith("xmlns:")) continue;
    attrs.push(`{${a.namespaceURI ?? ""}}${a.localName}=${JSON.stringify(a.value)}`);
  }
  attrs.sort();
  const kids: Node[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) kids.push(c);
  const hasElements = kids.some((k) => k.nodeType === 1);
  const content = kids
    .map((k) =>
      k.nodeType === 1
        ? canon(k as Element)
        : k.nodeType === 3 || k.nodeType === 4
          ? hasElements && !(k.nodeValue ?? "").trim()
            ? ""
            : JSON.stringify(k.nodeValue)
          : "",
    )
    .join("");
  return `<{${el.namespaceURI ?? ""}}${el.localName}${attrs.length ? " " + attrs.join(" ") : ""}>${content}</>`;
}
