/**
 * A small, fast, namespace-aware XML tokenizer for the runtime's hot path. It scans with `indexOf`
 * rather than character by character, and reports elements (with resolved namespaces), text and
 * CDATA. It checks well-formedness (matching tags, one root, no text outside it, unique attributes,
 * bound prefixes, valid references) and refuses any DOCTYPE, so no entity is ever declared or expanded.
 *
 * Given UTF-8 bytes, it scans their Latin-1 view (one character per byte: markup is ASCII, so every
 * offset is a byte offset) and decodes as UTF-8 only the names and texts that hold other bytes. That
 * spares decoding the whole document into a two-byte string, and ASCII texts stay one-byte strings.
 * Character data (references, line ends, forbidden characters) is read in xml-chars.ts.
 */
import { keepShapes } from "./kept.js";
import {
  chars,
  INVALID_CHAR,
  latin1View,
  shiftedError,
  shown,
  textBetween,
  textValue,
  XmlDtdError,
  XmlSyntaxError,
  type Source,
} from "./xml-chars.js";

export { XmlDtdError, XmlSyntaxError };

export const XMLNS_URI = "http://www.w3.org/2000/xmlns/";
const XML_URI = "http://www.w3.org/XML/1998/namespace";

export interface XmlAttribute {
  readonly name: string;
  readonly prefix: string;
  readonly local: string;
  /** The attribute's namespace; "" when unprefixed. */
  readonly uri: string;
  readonly value: string;
}

export interface XmlTag {
  readonly name: string;
  readonly local: string;
  readonly uri: string;
  readonly attributes: readonly XmlAttribute[];
  /** The namespaces in scope by prefix ("" for the default), to resolve QName values such as `xsi:type`. */
  readonly scope: Readonly<Record<string, string>>;
  /** Where the start tag begins in the document (its `<`), to locate problems with the element. */
  readonly offset: number;
}

/** The tag object the tokenizer reuses for every start tag of one document. */
interface MutableTag {
  name: string;
  local: string;
  uri: string;
  attributes: readonly XmlAttribute[];
  scope: Readonly<Record<string, string>>;
  offset: number;
}

export interface TokenHandler {
  /** A start tag. `tag` is reused for the next one: copy what must outlive the call. */
  open(tag: XmlTag): void;
  close(): void;
  text(text: string): void;
  /**
   * Optional: an element that holds text only (or nothing) and ends with an exact end tag, reported
   * at once rather than as open, text and close. `text` is "" when it is empty.
   */
  leaf?(tag: XmlTag, text: string): void;
}

/**
 * A document being tokenized: the open elements (their names and in-scope namespace bindings, as
 * parallel stacks) and what holds from one piece of the document to the next (see XmlTokenizer).
 */
interface Open {
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
  /** Whether the piece being read is the document's last: if not, a construct it cuts short waits for the next. */
  final: boolean;
  readonly tag: MutableTag;
  /** Element names met so far (the first few), reused for later tags of the same name. */
  readonly seenNames: SeenName[];
  /** The name of the last start tag. */
  last: SeenName | undefined;
}

/** An element name met before: as written in the source text, decoded, and split at its colon. */
interface SeenName {
  readonly raw: string;
  readonly name: string;
  readonly prefix: string;
  readonly local: string;
  /** The scope its prefix was last resolved in, and to what: the same scope resolves the same way. */
  scope: Readonly<Record<string, string>> | undefined;
  uri: string;
  /** The name of the start tag that followed this one last time: tried first next time. */
  next: SeenName | undefined;
}

/** An attribute as read, before its prefix is resolved. */
interface RawAttribute {
  readonly name: string;
  readonly value: string;
  readonly at: number;
}

// The objects the tokenizer makes for every document, each made by one function, one of each kept
// for good (see kept.ts).
const textSource = (xml: string): Source => ({ xml, bytes: undefined });
const newOpen = (h: TokenHandler, ns: Record<string, string>): Open => ({
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
  seenNames: [],
  last: undefined,
});
const newSeenName = (raw: string, name: string, prefix: string, local: string): SeenName => ({
  raw,
  name,
  prefix,
  local,
  scope: undefined,
  uri: "",
  next: undefined,
});
const newRawAttribute = (name: string, value: string, at: number): RawAttribute => ({
  name,
  value,
  at,
});
const newAttribute = (
  name: string,
  prefix: string,
  local: string,
  uri: string,
  value: string,
): XmlAttribute => ({ name, prefix, local, uri, value });

const NAME =
  /^[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_.\-\u00B7-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_.\-\u00B7-\uFFFF]*)?$/;

const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13;

// Documents repeat a few names many times: remember the ones already checked (bounded). A name
// is kept as its own (internalized) copy: the name read is often a slice of the document's text,
// which would keep the whole document alive for as long as the process runs.
const validNames = new Set<string>();
function checkName(name: string): boolean {
  if (validNames.has(name)) return true;
  if (!NAME.test(name)) return false;
  if (validNames.size < 4096) validNames.add(internalized(name));
  return true;
}
const NO_ATTRIBUTES: readonly XmlAttribute[] = Object.freeze([]);

keepShapes(
  textSource(""),
  latin1View(new Uint8Array(0)),
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
const spaced = (v: string): string =>
  v.indexOf("\n") === -1 && v.indexOf("\t") === -1 && v.indexOf("\r") === -1
    ? v
    : v.replace(/\r\n|[\t\n\r]/g, " ");

/** Whether one of `raw` is named `name` (a loop: elements have few attributes). */
function named(raw: readonly RawAttribute[], name: string): boolean {
  for (const r of raw) if (r.name === name) return true;
  return false;
}

/**
 * Tokenizes a whole document, calling `h` for every element, text and CDATA section. A document
 * given as bytes is read as UTF-8 (a malformed sequence reads as U+FFFD, as `Response.text()` does),
 * and offsets are then byte offsets. `assumed` binds prefixes no declaration binds (as if declared
 * above the root: a declaration in the document overrides them).
 */
export function tokenizeXml(
  source: string | Uint8Array,
  h: TokenHandler,
  assumed?: Readonly<Record<string, string>>,
): void {
  new XmlTokenizer(h, assumed).read(source, true);
}

/**
 * A document tokenized as it arrives, piece by piece: `read` reads a piece as far as whole
 * constructs (tags, texts, comments, CDATA sections) go and says how much it read; the caller gives
 * the rest again, with what came next, in the next call. The last piece is read with `final` set,
 * and all of it must be read. The events and errors are those of the whole document read at once,
 * offsets included (counted from the document's start). A piece of bytes may end anywhere, even
 * inside a UTF-8 character: what a piece cuts short is not read until the rest has come.
 */
export class XmlTokenizer {
  private readonly open: Open;
  private first = true;
  /** The last piece as the tokenizer read it: the text, or the Latin-1 view of the bytes (see XmlPieces). */
  lastView = "";

  constructor(h: TokenHandler, assumed?: Readonly<Record<string, string>>) {
    // A prototype-free root scope: a prefix like "constructor" must not resolve to anything.
    const rootNs = Object.create(null) as Record<string, string>;
    if (assumed !== undefined)
      for (const p of Object.keys(assumed))
        if (p !== "" && p !== "xml" && p !== "xmlns") rootNs[p] = assumed[p]!;
    rootNs["xml"] = XML_URI;
    rootNs[""] = "";
    this.open = newOpen(h, rootNs);
  }

  /** Where the next piece starts in the document: everything before it has been read. */
  get offset(): number {
    return this.open.base;
  }

  /** Reads `piece` (text, or UTF-8 bytes) as far as it can; gives the number of characters or bytes read. */
  read(piece: string | Uint8Array, final: boolean): number {
    const open = this.open;
    open.final = final;
    const src: Source = typeof piece === "string" ? textSource(piece) : latin1View(piece);
    this.lastView = src.xml;
    let i = 0;
    if (this.first) {
      // A byte order mark, only at the very start (a piece too short to tell waits for more).
      if (!final && src.xml.length < 3) return 0;
      i =
        src.bytes === undefined
          ? src.xml.charCodeAt(0) === 0xfeff
            ? 1
            : 0
          : src.xml.startsWith("\u00EF\u00BB\u00BF")
            ? 3
            : 0;
      open.start = i;
      this.first = false;
    }
    let read: number;
    try {
      read = tokenize(src, i, open);
    } catch (e) {
      throw open.base !== 0 && e instanceof XmlSyntaxError ? shiftedError(e, open.base) : e;
    }
    open.base += read;
    return read;
  }
}

/** Whether `<?xml` at `lt` is an XML declaration (and not a PI like `<?xml-stylesheet`). */
function isDeclaration(xml: string, lt: number): boolean {
  if (!xml.startsWith("<?xml", lt)) return false;
  const c = xml.charCodeAt(lt + 5);
  return c === 63 || isSpace(c);
}

/**
 * Tokenizes `src` from `i`; gives where it stopped: its end, or (unless `open.final`) the start of a
 * construct it cuts short.
 */
function tokenize(src: Source, i: number, open: Open): number {
  const xml = src.xml;
  const n = xml.length;
  const h = open.h;
  const names = open.names;
  const final = open.final;

  while (i < n) {
    const lt = xml.indexOf("<", i);
    // A text runs to the next markup: one cut short waits for the rest.
    if (lt === -1 && !final) return i;
    const end = lt === -1 ? n : lt;
    if (end > i) {
      if (names.length === 0) {
        for (let k = i; k < end; k++)
          if (!isSpace(xml.charCodeAt(k)))
            throw new XmlSyntaxError(
              open.sawRoot ? "text after the root element" : "text before the root element",
              i,
            );
      } else h.text(textBetween(src, i, end));
    }
    if (lt === -1) break;
    // Enough to tell what starts here ("<![CDATA[" is the longest opening told apart).
    if (!final && n - lt < 9 && xml.indexOf(">", lt) === -1) return lt;
    const c = xml.charCodeAt(lt + 1);
    if (c === 63) {
      // <? … ?>: the XML declaration or a processing instruction.
      const close = xml.indexOf("?>", lt + 2);
      if (close === -1) {
        if (!final) return lt;
        throw new XmlSyntaxError("an unterminated processing instruction", lt);
      }
      if (open.base + lt !== open.start && isDeclaration(xml, lt))
        throw new XmlSyntaxError("an XML declaration that does not start the document", lt);
      i = close + 2;
    } else if (c === 33) {
      if (!final && n - lt < 9) return lt;
      if (xml.startsWith("<!--", lt)) {
        const close = xml.indexOf("-->", lt + 4);
        if (close === -1) {
          if (!final) return lt;
          throw new XmlSyntaxError("an unterminated comment", lt);
        }
        i = close + 3;
      } else if (xml.startsWith("<![CDATA[", lt)) {
        if (names.length === 0) throw new XmlSyntaxError("CDATA outside the root element", lt);
        const close = xml.indexOf("]]>", lt + 9);
        if (close === -1) {
          if (!final) return lt;
          throw new XmlSyntaxError("an unterminated CDATA section", lt);
        }
        const raw = chars(src, lt + 9, close);
        if (INVALID_CHAR.test(raw)) throw new XmlSyntaxError("a character XML does not allow", lt);
        h.text(raw.indexOf("\r") === -1 ? raw : raw.replace(/\r\n?/g, "\n"));
        i = close + 3;
      } else if (xml.startsWith("<!DOCTYPE", lt)) {
        throw new XmlDtdError(lt);
      } else throw new XmlSyntaxError("'<!' that starts no comment or CDATA section", lt);
    } else if (c === 47) {
      const close = xml.indexOf(">", lt + 2);
      if (close === -1) {
        if (!final) return lt;
        throw new XmlSyntaxError("an unterminated end tag", lt);
      }
      const top = names.pop();
      // Compare in place: the end tag is the open element's name, then optional white space.
      let k = lt + 2 + (top?.length ?? 0);
      if (
        top === undefined ||
        !xml.startsWith(top, lt + 2) ||
        (k < close && !isSpace(xml.charCodeAt(k)))
      ) {
        const name = chars(src, lt + 2, close).trimEnd();
        if (top === undefined)
          throw new XmlSyntaxError(`the end tag </${name}> closes no element`, lt);
        throw new XmlSyntaxError(`the end tag </${name}> does not match <${shown(src, top)}>`, lt);
      }
      while (k < close) {
        if (!isSpace(xml.charCodeAt(k)))
          throw new XmlSyntaxError(
            `the end tag </${chars(src, lt + 2, close).trimEnd()}> does not match <${shown(src, top)}>`,
            lt,
          );
        k++;
      }
      open.scopes.pop();
      open.ns = open.scopes.length > 0 ? open.scopes[open.scopes.length - 1]! : open.rootNs;
      h.close();
      i = close + 1;
    } else {
      if (names.length === 0 && open.sawRoot) throw new XmlSyntaxError("a second root element", lt);
      const next = openTag(src, lt, open, h);
      if (next === -1) return lt;
      i = next;
      open.sawRoot = true;
    }
  }
  if (final) {
    if (names.length > 0)
      throw new XmlSyntaxError(
        `the element <${shown(src, names[names.length - 1]!)}> is not closed`,
        n,
      );
    if (!open.sawRoot) throw new XmlSyntaxError("no root element", n);
  }
  return n;
}

/** Scopes of up to this many bindings are copied; larger ones are chained (see childScope). */
const MAX_COPIED_BINDINGS = 32;

/**
 * A new scope over `parent` for an element declaring `added` prefixes. A copy while the parent and
 * its declarations are few: an object whose prototype is the parent would be cheaper to make, but
 * every prototype gets a map of its own, so lookups through prototype-chained scopes meet new maps
 * in every document (decoding the 10,000-message response after a gc took ~99 ms with them, ~61 ms
 * with copies, which share one null-prototype map). Larger scopes are chained, so that thousands of
 * declarations cost their number: a null-prototype scope holds at most MAX_COPIED_BINDINGS bindings (the root's
 * aside), which is what makes copying one cheap (`for…in` lists every key before the first).
 */
function childScope(
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
function resolveAttributes(
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
function internalized(s: string): string {
  const key: Record<string, true> = {};
  key[s] = true;
  for (const k in key) return k;
  return s;
}

/** The entry for the element name at `lt + 1 .. end`: one met before, or a new one (validated). */
function elementName(src: Source, lt: number, end: number, open: Open): SeenName {
  const xml = src.xml;
  const length = end - lt - 1;
  const seen = open.seenNames;
  for (let k = 0; k < seen.length; k++) {
    const c = seen[k]!;
    if (c.raw.length === length && xml.startsWith(c.raw, lt + 1)) return c;
  }
  const raw = xml.slice(lt + 1, end);
  const name = shown(src, raw);
  if (!checkName(name)) throw new XmlSyntaxError(`'<${name}' is not a valid element name`, lt);
  const colon = name.indexOf(":");
  const local = internalized(colon === -1 ? name : name.slice(colon + 1));
  const entry = newSeenName(raw, name, colon === -1 ? "" : name.slice(0, colon), local);
  if (seen.length < 32) seen.push(entry);
  return entry;
}

/**
 * Reads the start tag at `lt` and reports it; gives the position after it (after the element, for
 * a leaf), or -1 when the piece ends inside it and is not the last (`open.final`).
 */
function openTag(src: Source, lt: number, open: Open, h: TokenHandler): number {
  const xml = src.xml;
  const more = !open.final;
  const parentNs = open.ns;
  const n = xml.length;
  // Documents repeat a few element names many times, mostly in the same order: try the name that
  // followed the previous one last time, then the names seen before, before slicing (and
  // validating) a new one.
  let entry: SeenName | undefined;
  const last = open.last;
  const guess = last?.next;
  if (guess !== undefined && xml.startsWith(guess.raw, lt + 1)) {
    const c = xml.charCodeAt(lt + 1 + guess.raw.length);
    if (isSpace(c) || c === 62 || c === 47) entry = guess;
  }
  let j = lt + 1;
  if (entry === undefined) {
    while (j < n) {
      const c = xml.charCodeAt(j);
      if (isSpace(c) || c === 62 || c === 47) break;
      j++;
    }
    if (j >= n && more) return -1;
    entry = elementName(src, lt, j, open);
    if (last !== undefined) last.next = entry;
  } else j += entry.raw.length;
  open.last = entry;
  const name = entry.name;
  let raw: RawAttribute[] | undefined;
  let attrNames: Set<string> | undefined;
  let selfClosing = false;
  for (;;) {
    while (j < n && isSpace(xml.charCodeAt(j))) j++;
    if (j >= n) {
      if (more) return -1;
      throw new XmlSyntaxError(`the start tag <${name}> is not terminated`, lt);
    }
    const c = xml.charCodeAt(j);
    if (c === 62) {
      j++;
      break;
    }
    if (c === 47) {
      if (j + 1 >= n && more) return -1;
      if (xml.charCodeAt(j + 1) !== 62)
        throw new XmlSyntaxError(`'/' in the start tag <${name}> not followed by '>'`, j);
      selfClosing = true;
      j += 2;
      break;
    }
    const at = j;
    while (j < n) {
      const d = xml.charCodeAt(j);
      if (d === 61 || isSpace(d) || d === 62 || d === 47) break;
      j++;
    }
    if (j >= n && more) return -1;
    const attrName = chars(src, at, j);
    if (!checkName(attrName))
      throw new XmlSyntaxError(`'${attrName}' is not a valid attribute name in <${name}>`, at);
    while (j < n && isSpace(xml.charCodeAt(j))) j++;
    if (j >= n && more) return -1;
    if (xml.charCodeAt(j) !== 61)
      throw new XmlSyntaxError(`the attribute ${attrName} in <${name}> has no value`, at);
    j++;
    while (j < n && isSpace(xml.charCodeAt(j))) j++;
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
    raw ??= [];
    // Duplicates: compared in a loop for the few attributes elements have, in a set beyond (a tag
    // with thousands would otherwise cost their square).
    const twice =
      raw.length < 16
        ? named(raw, attrName)
        : (attrNames ??= new Set(raw.map((r) => r.name))).has(attrName);
    if (twice) throw new XmlSyntaxError(`the attribute ${attrName} appears twice in <${name}>`, at);
    attrNames?.add(attrName);
    // Attribute-value normalization: literal white space becomes a space; character references survive.
    raw.push(newRawAttribute(attrName, textValue(spaced(v), j), at));
    j = close + 1;
  }
  // Namespace declarations first, then names resolved against them.
  let ns = parentNs;
  if (raw !== undefined) {
    let declarations = 0;
    for (const a of raw) if (a.name === "xmlns" || a.name.startsWith("xmlns:")) declarations++;
    if (declarations > 0) ns = childScope(parentNs, declarations);
    for (const a of raw) {
      if (a.name === "xmlns" || a.name.startsWith("xmlns:")) {
        const prefix = a.name.length === 5 ? "" : a.name.slice(6);
        if (prefix !== "" && a.value === "")
          throw new XmlSyntaxError(`the prefix ${prefix} is bound to an empty namespace`, a.at);
        ns[prefix] = a.value;
      }
    }
  }
  let uri: string | undefined;
  if (entry.scope === ns) uri = entry.uri;
  else {
    uri = ns[entry.prefix];
    if (uri === undefined)
      throw new XmlSyntaxError(
        `the prefix ${entry.prefix} of <${name}> is not bound to a namespace`,
        lt,
        { prefix: entry.prefix, element: name },
      );
    entry.scope = ns;
    entry.uri = uri;
  }
  const attributes = raw === undefined ? NO_ATTRIBUTES : resolveAttributes(raw, ns);
  const tag = open.tag;
  tag.name = name;
  tag.local = entry.local;
  tag.uri = uri;
  tag.attributes = attributes;
  tag.scope = ns;
  tag.offset = open.base + lt;
  if (selfClosing) {
    h.open(tag);
    h.close();
    return j;
  }
  if (h.leaf !== undefined) {
    // Text then this element's own end tag (no white space in it): a leaf, reported at once.
    const lt2 = xml.indexOf("<", j);
    const length = entry.raw.length;
    if (
      lt2 !== -1 &&
      xml.charCodeAt(lt2 + 1) === 47 &&
      xml.charCodeAt(lt2 + 2 + length) === 62 &&
      xml.startsWith(entry.raw, lt2 + 2)
    ) {
      h.leaf(tag, lt2 > j ? textBetween(src, j, lt2) : "");
      return lt2 + 3 + length;
    }
  }
  open.names.push(entry.raw);
  open.scopes.push(ns);
  open.ns = ns;
  h.open(tag);
  return j;
}
