/**
 * A small, fast, namespace-aware XML tokenizer for the runtime's hot path. It scans with `indexOf`
 * rather than character by character, and reports elements (with resolved namespaces), text and
 * CDATA. It checks well-formedness (matching tags, one root, no text outside it, unique attributes,
 * bound prefixes, valid references) and refuses any DOCTYPE, so no entity is ever declared or
 * expanded.
 *
 * Given UTF-8 bytes, it scans their Latin-1 view (one character per byte: markup is ASCII, so every
 * offset is a byte offset) and decodes as UTF-8 only the names and texts that hold other bytes.
 * That spares decoding the whole document into a two-byte string, and ASCII texts stay one-byte
 * strings. Character data (references, line ends, forbidden characters) is read in chars.ts.
 */
import { keepShapes } from "../support/kept.js";
import { isXmlSpace } from "../support/xml-space.js";
import { newOpen, type Open } from "./tag-state.js";
import { openTag, shareScopes } from "./start-tag.js";
import {
  chars,
  INVALID_CHAR,
  latin1View,
  newSource,
  shiftedError,
  shown,
  textBetween,
  XmlDtdError,
  XmlSyntaxError,
  type Source,
} from "./chars.js";

export { XmlDtdError, XmlSyntaxError };
import type { TokenHandler } from "./tokens.js";
import { XML_URI } from "./namespaces.js";

const textSource = (xml: string): Source => newSource(xml, undefined);
keepShapes(textSource(""), latin1View(new Uint8Array(0)));

/**
 * Tokenizes a whole document, calling `h` for every element, text and CDATA section. A document
 * given as bytes is read as UTF-8 (a malformed sequence reads as U+FFFD, as `Response.text()`
 * does), and offsets are then byte offsets. `assumed` binds prefixes no declaration binds (as if
 * declared above the root: a declaration in the document overrides them).
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
  /**
   * The last piece as the tokenizer read it: the text, or the Latin-1 view of the bytes (see
   * XmlPieces).
   */
  lastView = "";

  constructor(h: TokenHandler, assumed?: Readonly<Record<string, string>>) {
    this.open = newOpen(h, rootScope(assumed));
  }

  /** Where the next piece starts in the document: everything before it has been read. */
  get offset(): number {
    return this.open.base;
  }

  /**
   * Reads `piece` (text, or UTF-8 bytes) as far as it can; gives the number of characters or bytes
   * read.
   */
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

/**
 * A prototype-free root scope (a prefix like "constructor" must not resolve to anything), never
 * written to: one for all documents without assumed bindings, so that the scopes of their elements
 * are shared too (see ScopeFamily in start-tag.ts). Assumed bindings get a root of their own on
 * every call, since their object may change from one call to the next.
 */
function rootScope(assumed: Readonly<Record<string, string>> | undefined): Record<string, string> {
  if (assumed === undefined) return PLAIN_ROOT;
  const root = Object.create(null) as Record<string, string>;
  for (const p of Object.keys(assumed))
    if (p !== "" && p !== "xml" && p !== "xmlns") root[p] = assumed[p]!;
  root["xml"] = XML_URI;
  root[""] = "";
  return root;
}
const PLAIN_ROOT = Object.assign(Object.create(null) as Record<string, string>, {
  xml: XML_URI,
  "": "",
});
shareScopes(PLAIN_ROOT);

/** Whether `<?xml` at `lt` is an XML declaration (and not a PI like `<?xml-stylesheet`). */
function isXmlDeclaration(xml: string, lt: number): boolean {
  if (!xml.startsWith("<?xml", lt)) return false;
  const c = xml.charCodeAt(lt + 5);
  return c === 63 || isXmlSpace(c);
}

/**
 * Tokenizes `src` from `i`; gives where it stopped: its end, or (unless `open.final`) the start of
 * a construct it cuts short.
 */
function tokenize(src: Source, i: number, open: Open): number {
  const xml = src.xml;
  const n = xml.length;
  const final = open.final;
  while (i < n) {
    const lt = xml.indexOf("<", i);
    // A text runs to the next markup: one cut short waits for the rest.
    if (lt === -1 && !final) return i;
    const end = lt === -1 ? n : lt;
    if (end > i) text(src, i, end, open);
    if (lt === -1) break;
    // Enough to tell what starts here ("<![CDATA[" is the longest opening told apart).
    if (!final && n - lt < 9 && xml.indexOf(">", lt) === -1) return lt;
    const next = markup(src, lt, open);
    if (next === -1) return lt;
    i = next;
  }
  if (final) {
    const names = open.names;
    if (names.length > 0)
      throw new XmlSyntaxError(
        `the element <${shown(src, names[names.length - 1]!)}> is not closed`,
        n,
      );
    if (!open.sawRoot) throw new XmlSyntaxError("no root element", n);
  }
  return n;
}

/** Reports the text from `i` to `end`: only white space may stand outside the root element. */
function text(src: Source, i: number, end: number, open: Open): void {
  if (open.names.length > 0) return open.h.text(textBetween(src, i, end));
  const xml = src.xml;
  for (let k = i; k < end; k++)
    if (!isXmlSpace(xml.charCodeAt(k)))
      throw new XmlSyntaxError(
        open.sawRoot ? "text after the root element" : "text before the root element",
        i,
      );
}

/** Reads the markup at `lt`; gives the position after it, or -1 when the piece cuts it short. */
function markup(src: Source, lt: number, open: Open): number {
  const c = src.xml.charCodeAt(lt + 1);
  if (c === 63) return instruction(src.xml, lt, open);
  if (c === 33) return declaration(src, lt, open);
  if (c === 47) return endTag(src, lt, open);
  if (open.names.length === 0 && open.sawRoot)
    throw new XmlSyntaxError("a second root element", lt);
  const next = openTag(src, lt, open);
  if (next !== -1) open.sawRoot = true;
  return next;
}

/** `<? … ?>`: the XML declaration (only where the document starts) or a processing instruction. */
function instruction(xml: string, lt: number, open: Open): number {
  const close = xml.indexOf("?>", lt + 2);
  if (close === -1) {
    if (!open.final) return -1;
    throw new XmlSyntaxError("an unterminated processing instruction", lt);
  }
  if (open.base + lt !== open.start && isXmlDeclaration(xml, lt))
    throw new XmlSyntaxError("an XML declaration that does not start the document", lt);
  return close + 2;
}

/** `<!`: a comment or a CDATA section; a DOCTYPE is refused. */
function declaration(src: Source, lt: number, open: Open): number {
  const xml = src.xml;
  if (!open.final && xml.length - lt < 9) return -1;
  if (xml.startsWith("<!--", lt)) {
    const close = xml.indexOf("-->", lt + 4);
    if (close !== -1) return close + 3;
    if (!open.final) return -1;
    throw new XmlSyntaxError("an unterminated comment", lt);
  }
  if (xml.startsWith("<![CDATA[", lt)) {
    if (open.names.length === 0) throw new XmlSyntaxError("CDATA outside the root element", lt);
    const close = xml.indexOf("]]>", lt + 9);
    if (close === -1) {
      if (!open.final) return -1;
      throw new XmlSyntaxError("an unterminated CDATA section", lt);
    }
    const raw = chars(src, lt + 9, close);
    if (INVALID_CHAR.test(raw)) throw new XmlSyntaxError("a character XML does not allow", lt);
    open.h.text(raw.indexOf("\r") === -1 ? raw : raw.replace(/\r\n?/g, "\n"));
    return close + 3;
  }
  if (xml.startsWith("<!DOCTYPE", lt)) throw new XmlDtdError(lt);
  throw new XmlSyntaxError("'<!' that starts no comment or CDATA section", lt);
}

/** The end tag at `lt`, which must close the open element (its name, then optional white space). */
function endTag(src: Source, lt: number, open: Open): number {
  const xml = src.xml;
  const close = xml.indexOf(">", lt + 2);
  if (close === -1) {
    if (!open.final) return -1;
    throw new XmlSyntaxError("an unterminated end tag", lt);
  }
  const top = open.names.pop();
  // Compared in place, without slicing the name.
  let k = lt + 2 + (top?.length ?? 0);
  let matches = top !== undefined && xml.startsWith(top, lt + 2);
  for (; matches && k < close; k++) matches = isXmlSpace(xml.charCodeAt(k));
  if (!matches) {
    const name = chars(src, lt + 2, close).trimEnd();
    if (top === undefined) throw new XmlSyntaxError(`the end tag </${name}> closes no element`, lt);
    throw new XmlSyntaxError(`the end tag </${name}> does not match <${shown(src, top)}>`, lt);
  }
  const scopes = open.scopes;
  scopes.pop();
  open.ns = scopes.length > 0 ? scopes[scopes.length - 1]! : open.rootNs;
  open.h.close();
  return close + 1;
}
