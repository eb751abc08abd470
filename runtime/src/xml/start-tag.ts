/**
 * Start tags, for the tokenizer (tokenizer.ts): the element's name (tried against the names met
 * before), its attributes (checked, normalized, unique), its namespace declarations and the
 * resolution of its prefixes. Also the state a document keeps while it is read (`Open`).
 */
import { chars, shown, textBetween, textValue, XmlSyntaxError, type Source } from "./chars.js";
import { isXmlSpace } from "../support/xml-space.js";
import type { XmlAttribute } from "./tokens.js";
import { XML_URI, XMLNS_URI } from "./namespaces.js";
import {
  checkName,
  childScope,
  internalized,
  named,
  newAttribute,
  newRawAttribute,
  newSeenName,
  NO_ATTRIBUTES,
  resolveAttributes,
  spaced,
  type Open,
  type RawAttribute,
  type SeenName,
} from "./tag-state.js";

/**
 * Element names met before, as text and as the Latin-1 view of UTF-8 bytes (where a non-ASCII
 * name is written otherwise); the oldest makes way once there are MAX_SEEN_NAMES.
 */
const seenInText: SeenName[] = [];
const seenInBytes: SeenName[] = [];
const MAX_SEEN_NAMES = 64;
/** What a document may add to the shared caches before it reads without them (Open.cacheMisses). */
const MAX_CACHE_MISSES = 256;

/**
 * The entry for the element name at `lt + 1 .. end`: one met before, or a new one (validated),
 * which the cache keeps unless this document is past MAX_CACHE_MISSES (Open.cacheMisses).
 */
function elementName(src: Source, lt: number, end: number, open: Open): SeenName {
  const xml = src.xml;
  const length = end - lt - 1;
  const seen = src.bytes === undefined ? seenInText : seenInBytes;
  const cached = open.cacheMisses < MAX_CACHE_MISSES;
  for (let k = 0; cached && k < seen.length; k++) {
    const c = seen[k]!;
    if (c.raw.length === length && xml.startsWith(c.raw, lt + 1)) return c;
  }
  const written = xml.slice(lt + 1, end);
  const shownName = shown(src, written);
  if (!checkName(shownName))
    throw new XmlSyntaxError(`'<${shownName}' is not a valid element name`, lt);
  if (!cached) {
    const colon = shownName.indexOf(":");
    const local = colon === -1 ? shownName : shownName.slice(colon + 1);
    return newSeenName(written, shownName, colon === -1 ? "" : shownName.slice(0, colon), local);
  }
  open.cacheMisses++;
  // Copies of their own, not slices that would keep the document alive.
  const raw = internalized(written);
  const name = shownName === written ? raw : internalized(shownName);
  const colon = name.indexOf(":");
  const local = internalized(colon === -1 ? name : name.slice(colon + 1));
  const prefix = colon === -1 ? "" : internalized(name.slice(0, colon));
  const entry = newSeenName(raw, name, prefix, local);
  if (seen.length >= MAX_SEEN_NAMES) seen.shift();
  seen.push(entry);
  return entry;
}

/**
 * Reads the start tag at `lt` and reports it; gives the position after it (after the element, for
 * a leaf), or -1 when the piece ends inside it and is not the last (`open.final`).
 */
export function openTag(src: Source, lt: number, open: Open): number {
  const xml = src.xml;
  const n = xml.length;
  let j = tagName(src, lt, open);
  if (j === -1) return -1;
  const entry = open.last!;
  // A tag that declares namespaces as one read before in the same place (every envelope's). Only
  // tags whose first attribute is a declaration are looked up, and so only they are kept.
  const declaring = xml.startsWith(" xmlns", j);
  const known = declaring ? knownTag(xml, lt, open.ns) : undefined;
  if (known !== undefined) {
    const { raw, ns, attributes, selfClosing } = known;
    return report(src, lt, lt + raw.length, entry, ns, attributes, selfClosing, open);
  }
  let raw: RawAttribute[] | undefined;
  let selfClosing = false;
  for (;;) {
    while (j < n && isXmlSpace(xml.charCodeAt(j))) j++;
    if (j >= n) {
      if (!open.final) return -1;
      throw new XmlSyntaxError(`the start tag <${entry.name}> is not terminated`, lt);
    }
    const c = xml.charCodeAt(j);
    if (c === 62) {
      j++;
      break;
    }
    if (c === 47) {
      if (j + 1 >= n && !open.final) return -1;
      if (xml.charCodeAt(j + 1) !== 62)
        throw new XmlSyntaxError(`'/' in the start tag <${entry.name}> not followed by '>'`, j);
      selfClosing = true;
      j += 2;
      break;
    }
    j = attribute(src, j, entry.name, open, (raw ??= []));
    if (j === -1) return -1;
  }
  if (raw !== undefined && raw.length > 1) checkUnique(raw, entry.name);
  const ns = raw === undefined ? open.ns : declared(raw, open.ns, open);
  const attributes = raw === undefined ? NO_ATTRIBUTES : resolveAttributes(raw, ns);
  if (declaring && ns !== open.ns) remember(xml, lt, j, open.ns, ns, attributes, selfClosing);
  return report(src, lt, j, entry, ns, attributes, selfClosing, open);
}

/** Reports the start tag at `lt`, read up to `j`, in `open.tag` (see openTag). */
function report(
  src: Source,
  lt: number,
  j: number,
  entry: SeenName,
  ns: Record<string, string>,
  attributes: readonly XmlAttribute[],
  selfClosing: boolean,
  open: Open,
): number {
  const tag = open.tag;
  tag.name = entry.name;
  tag.local = entry.local;
  tag.uri = elementUri(entry, ns, lt);
  tag.attributes = attributes;
  tag.scope = ns;
  tag.offset = open.base + lt;
  if (!selfClosing) return entered(src, j, entry, ns, open);
  open.h.open(tag);
  open.h.close();
  return j;
}

/**
 * A start tag that declares namespaces, as read in a shared scope: the same text there reads the
 * same way, so it is not read again. ASCII only, so that its text means the same in a document
 * given as text and in the Latin-1 view of one given as bytes.
 */
interface KnownTag {
  readonly raw: string;
  readonly ns: Record<string, string>;
  readonly attributes: readonly XmlAttribute[];
  readonly selfClosing: boolean;
}
const MAX_KNOWN_TAG = 512;
/** Start tags kept per shared scope: a few element names repeat most. */
const KNOWN_TAGS_PER_SCOPE = 4;
const ASCII = /^[\u0000-\u007f]*$/;

function knownTag(xml: string, lt: number, parent: object): KnownTag | undefined {
  const tags = families.get(parent)?.tags;
  if (tags !== undefined)
    for (let k = 0; k < tags.length; k++) if (xml.startsWith(tags[k]!.raw, lt)) return tags[k];
  return undefined;
}

/** Keeps the tag at `lt .. end`, which made the shared scope `ns` in `parent` (see KnownTag). */
function remember(
  xml: string,
  lt: number,
  end: number,
  parent: object,
  ns: Record<string, string>,
  attributes: readonly XmlAttribute[],
  selfClosing: boolean,
): void {
  const tags = families.get(parent)?.tags;
  if (tags === undefined || !families.has(ns) || end - lt > MAX_KNOWN_TAG) return;
  const raw = xml.slice(lt, end);
  if (!ASCII.test(raw)) return;
  // Copies of their own: slices would keep the document alive.
  const copies = attributes.map((a) =>
    newAttribute(
      internalized(a.name),
      internalized(a.prefix),
      internalized(a.local),
      a.uri,
      internalized(a.value),
    ),
  );
  if (tags.length >= KNOWN_TAGS_PER_SCOPE) tags.shift();
  tags.push({ raw: internalized(raw), ns, attributes: Object.freeze(copies), selfClosing });
}

/**
 * Reads the element name of the start tag at `lt` into `open.last`; gives the position after it,
 * or -1 when the piece ends inside it. Documents repeat a few element names many times, mostly in
 * the same order: the name that followed the previous one last time is tried first, then the names
 * seen before, before a new one is sliced (and validated).
 */
function tagName(src: Source, lt: number, open: Open): number {
  const xml = src.xml;
  const n = xml.length;
  const last = open.last;
  const guess = last?.next;
  if (guess !== undefined && xml.startsWith(guess.raw, lt + 1)) {
    const c = xml.charCodeAt(lt + 1 + guess.raw.length);
    if (isXmlSpace(c) || c === 62 || c === 47) {
      open.last = guess;
      return lt + 1 + guess.raw.length;
    }
  }
  let j = lt + 1;
  while (j < n) {
    const c = xml.charCodeAt(j);
    if (isXmlSpace(c) || c === 62 || c === 47) break;
    j++;
  }
  if (j >= n && !open.final) return -1;
  const entry = elementName(src, lt, j, open);
  // Only cached entries are linked: a link would keep an uncached one, and its document, alive.
  if (last !== undefined && open.cacheMisses < MAX_CACHE_MISSES) last.next = entry;
  open.last = entry;
  return j;
}

/**
 * Reads the attribute at `j` of the start tag of `name` into `raw`; gives the position after its
 * value, or -1 when the piece ends inside it.
 */
function attribute(src: Source, j: number, name: string, open: Open, raw: RawAttribute[]): number {
  const xml = src.xml;
  const n = xml.length;
  const more = !open.final;
  const at = j;
  while (j < n) {
    const d = xml.charCodeAt(j);
    if (d === 61 || isXmlSpace(d) || d === 62 || d === 47) break;
    j++;
  }
  if (j >= n && more) return -1;
  const attrName = attributeName(src, at, j, name, open);
  while (j < n && isXmlSpace(xml.charCodeAt(j))) j++;
  if (j >= n && more) return -1;
  if (xml.charCodeAt(j) !== 61)
    throw new XmlSyntaxError(`the attribute ${attrName} in <${name}> has no value`, at);
  j++;
  while (j < n && isXmlSpace(xml.charCodeAt(j))) j++;
  if (j >= n && more) return -1;
  const q = xml.charCodeAt(j);
  if (q !== 34 && q !== 39)
    throw new XmlSyntaxError(`the value of ${attrName} in <${name}> is not quoted`, j);
  const close = xml.indexOf(q === 34 ? '"' : "'", j + 1);
  if (close === -1) {
    if (more) return -1;
    throw new XmlSyntaxError(`the value of ${attrName} in <${name}> is not terminated`, j);
  }
  const v = chars(src, j + 1, close);
  if (v.indexOf("<") !== -1) throw new XmlSyntaxError(`'<' in the value of ${attrName}`, j);
  // Attribute-value normalization: literal white space becomes a space; character references
  // survive.
  raw.push(newRawAttribute(attrName, textValue(spaced(v), j), at));
  return close + 1;
}

/**
 * Attribute names met before (as for element names, see seenInText): as written (`raw`) and as
 * characters.
 */
const attributesInText: { readonly raw: string; readonly name: string }[] = [];
const attributesInBytes: { readonly raw: string; readonly name: string }[] = [];

/**
 * The attribute name at `at .. end` of the start tag of `element`: one met before, or checked (the
 * cache is skipped by a document past MAX_CACHE_MISSES: see Open.cacheMisses).
 */
function attributeName(src: Source, at: number, end: number, element: string, open: Open): string {
  const xml = src.xml;
  const cached = open.cacheMisses < MAX_CACHE_MISSES;
  const seen = src.bytes === undefined ? attributesInText : attributesInBytes;
  if (cached) {
    for (let k = 0; k < seen.length; k++) {
      const c = seen[k]!;
      if (c.raw.length === end - at && xml.startsWith(c.raw, at)) return c.name;
    }
  }
  const name = chars(src, at, end);
  if (!checkName(name))
    throw new XmlSyntaxError(`'${name}' is not a valid attribute name in <${element}>`, at);
  if (!cached || ++open.cacheMisses >= MAX_CACHE_MISSES) return name;
  if (seen.length >= MAX_SEEN_NAMES) seen.shift();
  const raw = internalized(xml.slice(at, end));
  seen.push({ raw, name: src.bytes === undefined ? raw : internalized(name) });
  return name;
}

/**
 * Refuses a start tag naming an attribute twice: compared in a loop for the few attributes elements
 * have, in a set beyond (a tag with thousands would otherwise cost their square).
 */
function checkUnique(raw: readonly RawAttribute[], name: string): void {
  const names = raw.length > 16 ? new Set<string>() : undefined;
  for (let k = 1; k < raw.length; k++) {
    const a = raw[k]!;
    const twice =
      names === undefined ? named(raw, a.name, k) : names.add(raw[k - 1]!.name).has(a.name);
    if (twice) throw new XmlSyntaxError(`the attribute ${a.name} appears twice in <${name}>`, a.at);
  }
}

/**
 * The scope of a start tag with attributes `raw`: `parent`, or a child with its namespace
 * declarations.
 */
function declared(
  raw: readonly RawAttribute[],
  parent: Record<string, string>,
  open: Open,
): Record<string, string> {
  let declarations = 0;
  for (const a of raw) if (isNamespaceDeclaration(a.name)) declarations++;
  if (declarations === 0) return parent;
  const family = open.cacheMisses < MAX_CACHE_MISSES ? families.get(parent) : undefined;
  const known = family?.children.find((c) => sameDeclarations(c.declarations, raw));
  if (known !== undefined) return known.scope;
  const ns = newScope(raw, parent, declarations);
  if (family !== undefined && family.depth < MAX_SHARED_DEPTH && shareable(raw)) {
    share(family, raw, ns);
    open.cacheMisses++;
  }
  return ns;
}

const isNamespaceDeclaration = (name: string): boolean =>
  name === "xmlns" || name.startsWith("xmlns:");

/**
 * Scopes made before, by the scope they were made in: a document declaring what an earlier one
 * declared in the same place (every SOAP envelope its `soap`, `xsi` and `xsd`) reuses that scope,
 * rather than copying its bindings again, and the names resolved in it stay resolved (see
 * elementUri). Kept for the root scopes' first few levels, a few children each.
 */
interface ScopeFamily {
  readonly depth: number;
  /** The start tags that made its children (see KnownTag). */
  readonly tags: KnownTag[];
  readonly children: {
    readonly declarations: readonly string[];
    readonly scope: Record<string, string>;
  }[];
}
const families = new WeakMap<object, ScopeFamily>();
// At most 4 + 16 + 64 scopes kept, of namespace names no longer than MAX_SHARED_URI.
const MAX_SHARED_DEPTH = 3;
const MAX_SHARED_CHILDREN = 4;
const MAX_SHARED_URI = 256;

const shareable = (raw: readonly RawAttribute[]): boolean =>
  raw.every((a) => !isNamespaceDeclaration(a.name) || a.value.length <= MAX_SHARED_URI);

/** Registers a root scope, whose descendants' scopes are then shared (see ScopeFamily). */
export function shareScopes(root: object): void {
  if (!families.has(root)) families.set(root, { depth: 0, children: [], tags: [] });
}

/** Whether `raw` declares exactly `declarations` (names and values, in order). */
function sameDeclarations(declarations: readonly string[], raw: readonly RawAttribute[]): boolean {
  let k = 0;
  for (const a of raw) {
    if (!isNamespaceDeclaration(a.name)) continue;
    if (declarations[k] !== a.name || declarations[k + 1] !== a.value) return false;
    k += 2;
  }
  return k === declarations.length;
}

/**
 * Keeps `ns`, made in `family`'s scope by the declarations of `raw`. Its names and values become
 * copies of their own: as slices of the document, they would keep all of it alive.
 */
function share(family: ScopeFamily, raw: readonly RawAttribute[], ns: Record<string, string>) {
  const declarations: string[] = [];
  for (const a of raw) {
    if (!isNamespaceDeclaration(a.name)) continue;
    const value = internalized(a.value);
    ns[a.name.length === 5 ? "" : a.name.slice(6)] = value;
    declarations.push(internalized(a.name), value);
  }
  const children = family.children;
  if (children.length >= MAX_SHARED_CHILDREN) children.shift();
  children.push({ declarations, scope: ns });
  families.set(ns, { depth: family.depth + 1, children: [], tags: [] });
}

/** A child scope of `parent` binding the prefixes `raw` declares. */
function newScope(
  raw: readonly RawAttribute[],
  parent: Record<string, string>,
  declarations: number,
): Record<string, string> {
  const ns = childScope(parent, declarations);
  for (const a of raw) {
    if (isNamespaceDeclaration(a.name)) {
      const prefix = a.name.length === 5 ? "" : a.name.slice(6);
      if (prefix !== "" && a.value === "")
        throw new XmlSyntaxError(`the prefix ${prefix} is bound to an empty namespace`, a.at);
      checkReserved(prefix, a.value, a.at);
      ns[prefix] = a.value;
    }
  }
  return ns;
}

/**
 * Namespaces in XML 1.0's reserved names: `xml` only ever for its own namespace and that namespace
 * under no other prefix; `xmlns` and its namespace never declared. libxml2 and Xerces refuse such
 * a document, so reading it would hide a peer's defect.
 */
function checkReserved(prefix: string, uri: string, at: number): void {
  const wrong = prefix === "xmlns" || uri === XMLNS_URI || (prefix === "xml") !== (uri === XML_URI);
  if (wrong)
    throw new XmlSyntaxError(
      `the declaration of ${prefix === "" ? "the default namespace" : `prefix ${prefix}`} as ${uri} breaks the reserved xml and xmlns names`,
      at,
    );
}

/**
 * The namespace of the element named `entry` in scope `ns` (the last one found, when `ns` is the
 * same).
 */
function elementUri(entry: SeenName, ns: Readonly<Record<string, string>>, lt: number): string {
  if (entry.scope === ns) return entry.uri;
  const uri = ns[entry.prefix];
  if (uri === undefined)
    throw new XmlSyntaxError(
      `the prefix ${entry.prefix} of <${entry.name}> is not bound to a namespace`,
      lt,
      { prefix: entry.prefix, element: entry.name },
    );
  // Remembered only for a shared scope: another would keep its document alive in the entry.
  if (families.has(ns)) {
    entry.scope = ns;
    entry.uri = uri;
  }
  return uri;
}

/**
 * Reports the start tag in `open.tag`, whose content starts at `j`: as a leaf, when text and the
 * element's own end tag (no white space in it) follow, or else as an open element.
 */
function entered(
  src: Source,
  j: number,
  entry: SeenName,
  ns: Record<string, string>,
  open: Open,
): number {
  const xml = src.xml;
  const h = open.h;
  if (h.leaf !== undefined || h.leafRange !== undefined) {
    const lt2 = xml.indexOf("<", j);
    const length = entry.raw.length;
    if (
      lt2 !== -1 &&
      xml.charCodeAt(lt2 + 1) === 47 &&
      xml.charCodeAt(lt2 + 2 + length) === 62 &&
      xml.startsWith(entry.raw, lt2 + 2)
    ) {
      if (h.leafRange !== undefined) h.leafRange(open.tag, src, j, lt2);
      else h.leaf!(open.tag, lt2 > j ? textBetween(src, j, lt2) : "");
      return lt2 + 3 + length;
    }
  }
  open.names.push(entry.raw);
  open.scopes.push(ns);
  open.ns = ns;
  h.open(open.tag);
  return j;
}
