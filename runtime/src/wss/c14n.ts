/**
 * Exclusive XML Canonicalization 1.0 (W3C Recommendation, 18 July 2002), without comments, of an
 * element and everything in it: the form signatures digest. A namespace is written only where an
 * element or attribute visibly uses it (or the InclusiveNamespaces PrefixList names it) and no
 * output ancestor has already written the same binding; attributes are sorted by namespace and
 * local name, and texts and values escaped as the Recommendation requires.
 */
import { escape, escapeText } from "../xml/escape.js";
import type { XmlAttribute } from "../xml/tokens.js";
import type { SigElement } from "./tree.js";

/**
 * The canonical form of `el` and its content. `inclusive` is the PrefixList ("#default" for the
 * default namespace), whose prefixes are written as inclusive canonicalization would; read once
 * into a set, so that a prefix named twice costs nothing more.
 */
export function excC14n(el: SigElement, inclusive: Iterable<string> = []): string {
  const out: string[] = [];
  const prefixes = new Set<string>();
  for (const p of inclusive) prefixes.add(p === "#default" ? "" : p);
  write(el, undefined, new Map(), prefixes, out);
  return out.join("");
}

function write(
  el: SigElement,
  parentScope: SigElement["scope"] | undefined,
  rendered: ReadonlyMap<string, string>,
  inclusive: ReadonlySet<string>,
  out: string[],
): void {
  // Below the apex, an element whose scope is its parent's own object declares nothing, so the
  // PrefixList's prefixes are already written as they bind here: skip them (the list's length
  // then costs nothing per element that declares no namespace).
  const decls = declarations(el, rendered, el.scope === parentScope ? NONE : inclusive);
  const name = qname(el.prefix, el.local);
  out.push("<", name);
  let mine = rendered;
  if (decls.length > 0) {
    const m = new Map(rendered);
    for (const [p, uri] of decls) {
      out.push(p === "" ? ' xmlns="' : ` xmlns:${p}="`, escape(uri, C14N_ATTR), '"');
      m.set(p, uri);
    }
    mine = m;
  }
  for (const a of sortedAttributes(el.attrs))
    out.push(" ", a.name, '="', escape(a.value, C14N_ATTR), '"');
  out.push(">");
  for (const c of el.children) {
    if (typeof c === "string") out.push(escapeText(c));
    else write(c, el.scope, mine, inclusive, out);
  }
  out.push("</", name, ">");
}

/** The namespace declarations `el` writes, sorted by prefix (the default first). */
function declarations(
  el: SigElement,
  rendered: ReadonlyMap<string, string>,
  inclusive: ReadonlySet<string>,
): [string, string][] {
  const used = new Set<string>([el.prefix]);
  for (const a of el.attrs) if (a.prefix !== "" && a.prefix !== "xml") used.add(a.prefix);
  for (const p of inclusive) if (p === "" || el.scope[p] !== undefined) used.add(p);
  const decls: [string, string][] = [];
  for (const p of used) {
    if (p === "xml") continue;
    const uri = el.scope[p] ?? "";
    // An empty default is written (xmlns="") only to undo a default an output ancestor wrote.
    const before = rendered.get(p) ?? "";
    if (uri !== before || (uri !== "" && !rendered.has(p))) decls.push([p, uri]);
  }
  return decls.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** Attributes without a namespace first, by local name; then by namespace URI and local name. */
function sortedAttributes(attrs: readonly XmlAttribute[]): readonly XmlAttribute[] {
  if (attrs.length < 2) return attrs;
  return [...attrs].sort((a, b) =>
    a.uri !== b.uri ? (a.uri < b.uri ? -1 : 1) : a.local < b.local ? -1 : a.local > b.local ? 1 : 0,
  );
}

const NONE: ReadonlySet<string> = new Set();

const qname = (prefix: string, local: string): string => (prefix ? `${prefix}:${local}` : local);

// C14N escapes text as our writer does; attribute values keep `>` literal, unlike our writer's.
const C14N_ATTR = /[&<"\t\n\r]/g;
