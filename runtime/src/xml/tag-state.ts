/**
 * The objects the tokenizer keeps while it reads start tags (the document's `Open` state, element
 * names met before, raw attributes), each made by one function so that each keeps one shape, and
 * the helpers that make names, scopes and attributes of them for start-tag.ts.
 */
import { keepShapes } from "../support/kept.js";
import { XmlSyntaxError } from "./chars.js";
import { XMLNS_URI } from "./namespaces.js";
import type { TokenHandler, XmlAttribute } from "./tokens.js";

/** The tag object the tokenizer reuses for every start tag of one document. */
export interface MutableTag {
  name: string;
  local: string;
  uri: string;
  attributes: readonly XmlAttribute[];
  scope: Readonly<Record<string, string>>;
  offset: number;
}

/**
 * A document being tokenized: the open elements (their names and in-scope namespace bindings, as
 * parallel stacks) and what holds from one piece of the document to the next (see XmlTokenizer).
 */
export interface Open {
  readonly h: TokenHandler;
  readonly names: string[];
  readonly scopes: Record<string, string>[];
  /** The bindings above the root element. */
  readonly rootNs: Record<string, string>;
  /** The bindings in scope at the current position. */
  ns: Record<string, string>;
  sawRoot: boolean;
  /** Where the document's content starts, after a byte order mark: the only place for `<?xml`. */
  start: number;
  /** Where the piece being read starts in the document (added to every offset reported). */
  base: number;
  /**
   * Whether the piece being read is the document's last: if not, a construct it cuts short waits
   * for the next.
   */
  final: boolean;
  readonly tag: MutableTag;
  /** The name of the last start tag. */
  last: SeenName | undefined;
  /**
   * What this document has added to the caches shared by documents (element and attribute names
   * met, shared scopes): past a few hundred it repeats nothing, and reads on without them, which
   * would cost a scan and interned strings for each new name or scope.
   */
  cacheMisses: number;
}

/**
 * An element name met before, in any document: as written in the source text, decoded, and split
 * at its colon. Shared by all documents, since what it remembers besides is only ever a guess that
 * is checked (`next`) or keyed by a scope object, which resolves a prefix the same way every time.
 */
export interface SeenName {
  readonly raw: string;
  readonly name: string;
  readonly prefix: string;
  readonly local: string;
  /**
   * The scope its prefix was last resolved in, and to what: the same scope resolves the same way.
   */
  scope: Readonly<Record<string, string>> | undefined;
  uri: string;
  /** The name of the start tag that followed this one last time: tried first next time. */
  next: SeenName | undefined;
}

/** An attribute as read, before its prefix is resolved. */
export interface RawAttribute {
  readonly name: string;
  readonly value: string;
  readonly at: number;
}

// The objects the tokenizer makes for every document, each made by one function, one of each kept
// for good (see support/kept.ts).
export const newOpen = (h: TokenHandler, ns: Record<string, string>): Open => ({
  h,
  names: [],
  scopes: [],
  rootNs: ns,
  ns,
  sawRoot: false,
  start: 0,
  base: 0,
  final: true,
  tag: { name: "", local: "", uri: "", attributes: NO_ATTRIBUTES, scope: ns, offset: 0 },
  last: undefined,
  cacheMisses: 0,
});
export const newSeenName = (
  raw: string,
  name: string,
  prefix: string,
  local: string,
): SeenName => ({
  raw,
  name,
  prefix,
  local,
  scope: undefined,
  uri: "",
  next: undefined,
});
export const newRawAttribute = (name: string, value: string, at: number): RawAttribute => ({
  name,
  value,
  at,
});
export const newAttribute = (
  name: string,
  prefix: string,
  local: string,
  uri: string,
  value: string,
): XmlAttribute => ({ name, prefix, local, uri, value });

const NAME =
  /^[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_.\-\u00B7-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_.\-\u00B7-\uFFFF]*)?$/;

// Documents repeat a few names many times: remember the ones already checked (bounded). A name
// is kept as its own (internalized) copy: the name read is often a slice of the document's text,
// which would keep the whole document alive for as long as the process runs.
const validNames = new Set<string>();
export function checkName(name: string): boolean {
  if (validNames.has(name)) return true;
  if (!NAME.test(name)) return false;
  if (validNames.size < 4096) validNames.add(internalized(name));
  return true;
}
export const NO_ATTRIBUTES: readonly XmlAttribute[] = Object.freeze([]);

keepShapes(
  newOpen(
    { open: () => {}, close: () => {}, text: () => {} },
    Object.create(null) as Record<string, string>,
  ),
  newSeenName("a", "a", "", "a"),
  newRawAttribute("a", "", 0),
  newAttribute("a", "", "a", "", ""),
);

/**
 * An attribute value with its literal white space made spaces; most hold none, and three indexOf
 * cost less than a global replace on every value.
 */
export const spaced = (v: string): string =>
  v.indexOf("\n") === -1 && v.indexOf("\t") === -1 && v.indexOf("\r") === -1
    ? v
    : v.replace(/\r\n|[\t\n\r]/g, " ");

/** Whether one of the first `before` attributes of `raw` is named `name`. */
export function named(raw: readonly RawAttribute[], name: string, before: number): boolean {
  for (let k = 0; k < before; k++) if (raw[k]!.name === name) return true;
  return false;
}

/** Scopes of up to this many bindings are copied; larger ones are chained (see childScope). */
const MAX_COPIED_BINDINGS = 32;

/**
 * A new scope over `parent` for an element declaring `added` prefixes: a null-prototype copy while
 * both are few, since prototype-chained scopes each get a V8 map of their own (the 10,000-message
 * decode after a gc: ~99 ms chained, ~61 ms copied). Past MAX_COPIED_BINDINGS it is chained, so
 * that thousands of declarations cost their number.
 */
export function childScope(
  parent: Readonly<Record<string, string>>,
  added: number,
): Record<string, string> {
  if (Object.getPrototypeOf(parent) === null && added <= MAX_COPIED_BINDINGS) {
    const ns = Object.create(null) as Record<string, string>;
    let count = added;
    for (const k in parent) {
      ns[k] = parent[k]!;
      count++;
    }
    if (count <= MAX_COPIED_BINDINGS) return ns;
  }
  return Object.create(parent) as Record<string, string>;
}

/**
 * Attributes with their namespaces resolved in `ns`. (Not a closure inside openTag: a closure over
 * its scope would cost a context allocation on every start tag.)
 */
export function resolveAttributes(
  raw: readonly RawAttribute[],
  ns: Readonly<Record<string, string>>,
): XmlAttribute[] {
  const out: XmlAttribute[] = [];
  for (const a of raw) {
    if (a.name === "xmlns") {
      out.push(newAttribute(a.name, "", "xmlns", XMLNS_URI, a.value));
      continue;
    }
    const c = a.name.indexOf(":");
    if (c === -1) {
      out.push(newAttribute(a.name, "", a.name, "", a.value));
      continue;
    }
    const p = a.name.slice(0, c);
    const u = p === "xmlns" ? XMLNS_URI : ns[p];
    if (u === undefined)
      throw new XmlSyntaxError(
        `the prefix ${p} of attribute ${a.name} is not bound to a namespace`,
        a.at,
        { prefix: p, attribute: a.name },
      );
    out.push(newAttribute(a.name, p, a.name.slice(c + 1), u, a.value));
  }
  return out;
}

/**
 * `s` as the engine's internalized string (property keys are): the readers compare local names
 * with descriptor names, which are literals, and two internalized strings compare by identity.
 */
export function internalized(s: string): string {
  const key: Record<string, true> = {};
  key[s] = true;
  for (const k in key) return k;
  return s;
}
