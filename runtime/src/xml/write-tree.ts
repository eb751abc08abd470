/** Writes raw element trees (`XmlNode`: xs:any content, faults' details, undescribed elements). */
import { escapeAttr, escapeText } from "./escape.js";
import { XML_URI } from "./namespaces.js";
import type { XmlNode } from "../support/xml-node.js";

/**
 * The attributes of a tree node, written (a qualified one with a prefix declared beside it, so the
 * tree stands alone).
 */
function nodeAttrs(node: XmlNode): string {
  let s = "";
  // The bindings values rely on (xsi:type="sf:Account"), then the attributes, each namespaced one
  // with a prefix of its own that none of those bindings uses.
  const kept = node.prefixes ?? {};
  for (const [prefix, uri] of Object.entries(kept)) s += ` xmlns:${prefix}="${escapeAttr(uri)}"`;
  let prefixes = 0;
  const prefix = (): string => {
    let p = `n${prefixes++}`;
    while (Object.hasOwn(kept, p)) p = `n${prefixes++}`;
    return p;
  };
  for (const [key, v] of Object.entries(node.attrs)) s += bagAttr(key, v, prefix);
  return s;
}

const CLARK = /^\{([^}]*)\}(.+)$/;

/**
 * One attribute of a bag keyed by Clark name (`{ns}local`, or `local` for no namespace), written;
 * a namespaced one with a prefix from `prefix()` declared beside it, so that it stands alone.
 */
export function bagAttr(key: string, value: string, prefix: () => string): string {
  const m = CLARK.exec(key);
  if (!m || !m[1]) return ` ${m ? m[2] : key}="${escapeAttr(value)}"`;
  return qualifiedAttr(m[1], m[2]!, escapeAttr(value), prefix);
}

/**
 * An attribute of namespace `ns` (its value already escaped), with a prefix from `prefix()`
 * declared beside it. The xml namespace is always `xml:` and never declared: Namespaces in XML 1.0
 * forbids binding it to any other prefix, and a parser refuses the document that does.
 */
export function qualifiedAttr(ns: string, local: string, text: string, prefix: () => string) {
  if (ns === XML_URI) return ` xml:${local}="${text}"`;
  const p = prefix();
  return ` xmlns:${p}="${escapeAttr(ns)}" ${p}:${local}="${text}"`;
}

/** The children of a tree node, written inside an element of namespace `ns`. */
function nodeChildren(out: string[], node: XmlNode, ns: string): void {
  for (const c of node.children) {
    if (typeof c === "string") out.push(escapeText(c));
    else writeNode(out, c, ns);
  }
}

/** An element (start tag `open`, end tag `close`) holding what tree `node` holds. */
export function treeContent(open: string, close: string, node: XmlNode, ns: string): string {
  const start = open + nodeAttrs(node);
  if (node.children.length === 0) return start + " />";
  const out = [start, ">"];
  nodeChildren(out, node, ns);
  out.push(close);
  return out.join("");
}

/** Appends a raw XML tree (content kept by `xs:any`). */
export function writeNode(out: string[], node: XmlNode, parentNs: string): void {
  let tag = "<" + node.local;
  if (node.ns !== parentNs) tag += node.ns === "" ? ' xmlns=""' : ` xmlns="${escapeAttr(node.ns)}"`;
  tag += nodeAttrs(node);
  if (node.children.length === 0) {
    out.push(tag, " />");
    return;
  }
  out.push(tag, ">");
  nodeChildren(out, node, node.ns);
  out.push("</" + node.local + ">");
}
