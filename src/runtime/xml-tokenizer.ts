/**
 * A small, fast, namespace-aware XML tokenizer for the runtime's hot path. It scans with `indexOf`
 * rather than character by character, and reports elements (with resolved namespaces), text and
 * CDATA. It checks well-formedness (matching tags, one root, no text outside it, unique attributes,
 * bound prefixes, valid references) and refuses any DOCTYPE, so no entity is ever declared or expanded.
 *
 * Given UTF-8 bytes, it scans their Latin-1 view (one character per byte: markup is ASCII, so every
 * offset is a byte offset) and decodes as UTF-8 only the names and texts that hold other bytes. That
 * spares decoding the whole document into a two-byte string, and ASCII texts stay one-byte strings.
 */

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

export class XmlSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
    this.name = "XmlSyntaxError";
  }
}

/** A text that needs more than slicing: a reference, a CR, a character XML forbids. */
const SPECIAL = /[&\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
/** The same in a Latin-1 view of UTF-8, where any byte above 0x7F also means "decode as UTF-8". */
const SPECIAL_IN_VIEW = /[&\r\u0000-\u0008\u000B\u000C\u000E-\u001F\u0080-\u00FF]/;
const NON_ASCII = /[\u0080-\u00FF]/;

const NAME = /^[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_.\-\u00B7-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_.\-\u00B7-\uFFFF]*)?$/;
const INVALID_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** The character a reference `#…` (without its `&` and `;`) names; refused unless XML allows it. */
function charReference(ref: string, offset: number): number {
  const hex = ref.charCodeAt(1) === 120;
  const digits = ref.slice(hex ? 2 : 1);
  if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) throw new XmlSyntaxError(`&${ref}; is not a valid character reference`, offset);
  const code = parseInt(digits, hex ? 16 : 10);
  if (!allowedChar(code)) throw new XmlSyntaxError(`&${ref}; is not a character XML allows`, offset);
  return code;
}

/**
 * Where the decimal character reference at `amp` (`&#` then 1 to 7 digits and `;`) ends, at its `;`,
 * if it names a character XML allows; else -1 (the general path reads it, and explains any error).
 */
function decimalEnd(bytes: Buffer, amp: number, end: number): number {
  let code = 0;
  let d = amp + 2;
  for (; d < end && d - amp < 9; d++) {
    const c = bytes[d]!;
    if (c < 48 || c > 57) break;
    code = code * 10 + c - 48;
  }
  return d > amp + 2 && d < end && bytes[d] === 59 && allowedChar(code) ? d : -1;
}

/** Whether XML allows the character (its Char production). */
function allowedChar(code: number): boolean {
  return code === 9 || code === 10 || code === 13 || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

function decodeReferences(s: string, offset: number): string {
  // A hand-rolled loop: texts with entities are common (&amp; &lt; &gt;) and regex callbacks are slow.
  let out = "";
  let from = 0;
  for (let amp = s.indexOf("&"); amp !== -1; amp = s.indexOf("&", from)) {
    const semi = s.indexOf(";", amp + 1);
    if (semi === -1 || semi - amp > 12) throw new XmlSyntaxError("a '&' that does not start a valid reference (write &amp;)", offset);
    out += s.slice(from, amp);
    const ref = s.slice(amp + 1, semi);
    if (ref.charCodeAt(0) !== 35) {
      const v = PREDEFINED[ref];
      if (v === undefined) {
        throw new XmlSyntaxError(/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(ref) ? `the entity &${ref}; is not defined (DTDs are refused)` : "a '&' that does not start a valid reference (write &amp;)", offset);
      }
      out += v;
    } else {
      out += String.fromCodePoint(charReference(ref, offset));
    }
    from = semi + 1;
  }
  return out + s.slice(from);
}

/** The source being read: its text (the Latin-1 view when `bytes` is set) and, for UTF-8 input, its bytes. */
interface Source {
  readonly xml: string;
  readonly bytes: Buffer | undefined;
}

/** The characters of `xml.slice(start, end)`: decoded from the bytes when they are not all ASCII. */
function chars(src: Source, start: number, end: number): string {
  const s = src.xml.slice(start, end);
  return src.bytes !== undefined && NON_ASCII.test(s) ? src.bytes.toString("utf8", start, end) : s;
}

/** Character data between markup (`xml.slice(start, end)`), with references decoded. */
function textBetween(src: Source, start: number, end: number): string {
  const raw = src.xml.slice(start, end);
  if (src.bytes === undefined) return SPECIAL.test(raw) ? textValue(raw, start) : raw;
  if (!SPECIAL_IN_VIEW.test(raw)) return raw;
  if (CONTROL.test(raw) || raw.indexOf("\u00EF\u00BF") !== -1 && NONCHARACTER_IN_VIEW.test(raw)) throw new XmlSyntaxError("a character XML does not allow", start);
  if (raw.indexOf("&") === -1 && raw.indexOf("\r") === -1) return src.bytes.toString("utf8", start, end);
  return textFromBytes(src.bytes, raw, start);
}

/** The characters XML does not allow, in a Latin-1 view of UTF-8: C0 controls, U+FFFE and U+FFFF (as their bytes). */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
const NONCHARACTER_IN_VIEW = /\u00EF\u00BF[\u00BE\u00BF]/;

/** Reused to decode texts with references: one string made per text, none for its pieces. */
let scratch = Buffer.allocUnsafe(0);

/**
 * A text with references or CRs (`raw`, at `start` of the view), from its UTF-8 bytes: references
 * decoded and line ends normalized in bytes, then one string made. Never longer than the source:
 * every reference is longer than the UTF-8 of its character.
 */
function textFromBytes(bytes: Buffer, raw: string, start: number): string {
  const end = start + raw.length;
  if (scratch.length < raw.length) scratch = Buffer.allocUnsafe(Math.max(raw.length, 4096));
  const out = scratch;
  let w = 0;
  let high = NON_ASCII.test(raw);
  const crs = raw.indexOf("\r") !== -1;
  let k = start;
  while (k < end) {
    // Copy up to the next '&' (or CR) as it is; searched in this text only.
    const amp = raw.indexOf("&", k - start);
    let stop = amp === -1 ? end : start + amp;
    if (crs) {
      const cr = raw.indexOf("\r", k - start);
      if (cr !== -1 && start + cr < stop) stop = start + cr;
    }
    // Long runs natively; short ones byte by byte (a native copy costs as much as ~80 bytes).
    if (stop - k > 96) {
      w += bytes.copy(out, w, k, stop);
      k = stop;
    } else for (; k < stop; k++) out[w++] = bytes[k]!;
    if (k >= end) break;
    if (bytes[k] === 13) {
      out[w++] = 10;
      k += k + 1 < end && bytes[k + 1] === 10 ? 2 : 1;
      continue;
    }
    // A reference: the common ones read in bytes, the rest as text.
    let semi: number;
    const c1 = bytes[k + 1];
    const c2 = bytes[k + 2];
    const c3 = bytes[k + 3];
    if (c1 === 97 && c2 === 109 && c3 === 112 && bytes[k + 4] === 59 && k + 4 < end) {
      out[w++] = 38;
      k += 5;
    } else if ((c1 === 108 || c1 === 103) && c2 === 116 && c3 === 59 && k + 3 < end) {
      out[w++] = c1 === 108 ? 60 : 62;
      k += 4;
    } else if (c1 === 35 && (semi = decimalEnd(bytes, k, end)) !== -1) {
      // A decimal character reference XML allows, written out as UTF-8.
      let code = 0;
      for (let d = k + 2; d < semi; d++) code = code * 10 + bytes[d]! - 48;
      if (code < 0x80) out[w++] = code;
      else {
        high = true;
        if (code < 0x800) {
          out[w++] = 0xc0 | (code >> 6);
        } else {
          if (code < 0x10000) out[w++] = 0xe0 | (code >> 12);
          else {
            out[w++] = 0xf0 | (code >> 18);
            out[w++] = 0x80 | ((code >> 12) & 63);
          }
          out[w++] = 0x80 | ((code >> 6) & 63);
        }
        out[w++] = 0x80 | (code & 63);
      }
      k = semi + 1;
    } else {
      semi = k + 1;
      while (semi < end && semi - k < 12 && bytes[semi] !== 59) semi++;
      if (semi >= end || bytes[semi] !== 59) throw new XmlSyntaxError("a '&' that does not start a valid reference (write &amp;)", start);
      const ref = bytes.toString("latin1", k + 1, semi);
      if (ref.charCodeAt(0) !== 35) {
        const v = PREDEFINED[ref];
        if (v === undefined) {
          throw new XmlSyntaxError(/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(ref) ? `the entity &${ref}; is not defined (DTDs are refused)` : "a '&' that does not start a valid reference (write &amp;)", start);
        }
        out[w++] = v.charCodeAt(0);
      } else {
        const code = charReference(ref, start);
        if (code < 0x80) out[w++] = code;
        else {
          w += out.write(String.fromCodePoint(code), w, "utf8");
          high = true;
        }
      }
      k = semi + 1;
    }
  }
  // Literal U+FFFE and U+FFFF were refused in the view, and references never name them.
  return out.toString(high ? "utf8" : "latin1", 0, w);
}

function textValue(raw: string, offset: number): string {
  if (!SPECIAL.test(raw)) return raw;
  if (INVALID_CHAR.test(raw)) throw new XmlSyntaxError("a character XML does not allow", offset);
  let s = raw.indexOf("\r") === -1 ? raw : raw.replace(/\r\n?/g, "\n");
  if (s.indexOf("&") !== -1) s = decodeReferences(s, offset);
  return s;
}

/** The open elements: their names and in-scope namespace bindings, as parallel stacks. */
interface Open {
  readonly names: string[];
  readonly scopes: Record<string, string>[];
  /** The bindings in scope at the current position. */
  ns: Record<string, string>;
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

const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13;

// Documents repeat a few names many times: remember the ones already checked (bounded).
const validNames = new Set<string>();
function checkName(name: string): boolean {
  if (validNames.has(name)) return true;
  if (!NAME.test(name)) return false;
  if (validNames.size < 4096) validNames.add(name);
  return true;
}
const NO_ATTRIBUTES: readonly XmlAttribute[] = Object.freeze([]);

/** The Latin-1 view of bytes: one character per byte. */
export function latin1View(bytes: Uint8Array): { xml: string; bytes: Buffer } {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { xml: buf.toString("latin1"), bytes: buf };
}

/**
 * Tokenizes a whole document, calling `h` for every element, text and CDATA section. A document
 * given as bytes is read as UTF-8 (a malformed sequence reads as U+FFFD, as `Response.text()` does),
 * and offsets are then byte offsets.
 */
export function tokenizeXml(source: string | Uint8Array, h: TokenHandler): void {
  const src: Source = typeof source === "string" ? { xml: source, bytes: undefined } : latin1View(source);
  const xml = src.xml;
  const n = xml.length;
  let i = src.bytes === undefined ? (xml.charCodeAt(0) === 0xfeff ? 1 : 0) : xml.startsWith("\u00EF\u00BB\u00BF") ? 3 : 0;
  // A prototype-free root scope: a prefix like "constructor" must not resolve to anything.
  const rootNs: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, { xml: XML_URI, "": "" });
  const open: Open = { names: [], scopes: [], ns: rootNs, tag: { name: "", local: "", uri: "", attributes: NO_ATTRIBUTES, scope: rootNs, offset: 0 }, seenNames: [], last: undefined };
  const names = open.names;
  let sawRoot = false;

  while (i < n) {
    const lt = xml.indexOf("<", i);
    const end = lt === -1 ? n : lt;
    if (end > i) {
      if (names.length === 0) {
        for (let k = i; k < end; k++) if (!isSpace(xml.charCodeAt(k))) throw new XmlSyntaxError(sawRoot ? "text after the root element" : "text before the root element", i);
      } else h.text(textBetween(src, i, end));
    }
    if (lt === -1) break;
    const c = xml.charCodeAt(lt + 1);
    if (c === 63) {
      // <? … ?>: the XML declaration or a processing instruction.
      const close = xml.indexOf("?>", lt + 2);
      if (close === -1) throw new XmlSyntaxError("an unterminated processing instruction", lt);
      i = close + 2;
    } else if (c === 33) {
      if (xml.startsWith("<!--", lt)) {
        const close = xml.indexOf("-->", lt + 4);
        if (close === -1) throw new XmlSyntaxError("an unterminated comment", lt);
        i = close + 3;
      } else if (xml.startsWith("<![CDATA[", lt)) {
        if (names.length === 0) throw new XmlSyntaxError("CDATA outside the root element", lt);
        const close = xml.indexOf("]]>", lt + 9);
        if (close === -1) throw new XmlSyntaxError("an unterminated CDATA section", lt);
        const raw = chars(src, lt + 9, close);
        if (INVALID_CHAR.test(raw)) throw new XmlSyntaxError("a character XML does not allow", lt);
        h.text(raw.indexOf("\r") === -1 ? raw : raw.replace(/\r\n?/g, "\n"));
        i = close + 3;
      } else if (xml.startsWith("<!DOCTYPE", lt)) {
        throw new XmlSyntaxError("a DOCTYPE declaration; DTDs are refused", lt);
      } else throw new XmlSyntaxError("'<!' that starts no comment or CDATA section", lt);
    } else if (c === 47) {
      const close = xml.indexOf(">", lt + 2);
      if (close === -1) throw new XmlSyntaxError("an unterminated end tag", lt);
      const top = names.pop();
      // Compare in place: the end tag is the open element's name, then optional white space.
      let k = lt + 2 + (top?.length ?? 0);
      if (top === undefined || !xml.startsWith(top, lt + 2) || (k < close && !isSpace(xml.charCodeAt(k)))) {
        const name = chars(src, lt + 2, close).trimEnd();
        if (top === undefined) throw new XmlSyntaxError(`the end tag </${name}> closes no element`, lt);
        throw new XmlSyntaxError(`the end tag </${name}> does not match <${shown(src, top)}>`, lt);
      }
      while (k < close) {
        if (!isSpace(xml.charCodeAt(k))) throw new XmlSyntaxError(`the end tag </${chars(src, lt + 2, close).trimEnd()}> does not match <${shown(src, top)}>`, lt);
        k++;
      }
      open.scopes.pop();
      open.ns = open.scopes.length > 0 ? open.scopes[open.scopes.length - 1]! : rootNs;
      h.close();
      i = close + 1;
    } else {
      if (names.length === 0 && sawRoot) throw new XmlSyntaxError("a second root element", lt);
      i = openTag(src, lt, open, h);
      sawRoot = true;
    }
  }
  if (names.length > 0) throw new XmlSyntaxError(`the element <${shown(src, names[names.length - 1]!)}> is not closed`, n);
  if (!sawRoot) throw new XmlSyntaxError("no root element", n);
}

/**
 * Attributes with their namespaces resolved in `ns`. (Not a closure inside openTag: a closure over
 * its scope would cost a context allocation on every start tag.)
 */
function resolveAttributes(raw: readonly { name: string; value: string; at: number }[], ns: Readonly<Record<string, string>>): XmlAttribute[] {
  const out: XmlAttribute[] = [];
  for (const a of raw) {
    if (a.name === "xmlns") {
      out.push({ name: a.name, prefix: "", local: "xmlns", uri: XMLNS_URI, value: a.value });
      continue;
    }
    const c = a.name.indexOf(":");
    if (c === -1) {
      out.push({ name: a.name, prefix: "", local: a.name, uri: "", value: a.value });
      continue;
    }
    const p = a.name.slice(0, c);
    const u = p === "xmlns" ? XMLNS_URI : ns[p];
    if (u === undefined) throw new XmlSyntaxError(`the prefix ${p} of attribute ${a.name} is not bound to a namespace`, a.at);
    out.push({ name: a.name, prefix: p, local: a.name.slice(c + 1), uri: u, value: a.value });
  }
  return out;
}

/** A name as written in the source (its Latin-1 view, for bytes), as characters: for messages. */
function shown(src: Source, raw: string): string {
  return src.bytes !== undefined && NON_ASCII.test(raw) ? Buffer.from(raw, "latin1").toString("utf8") : raw;
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
  const entry: SeenName = { raw, name, prefix: colon === -1 ? "" : name.slice(0, colon), local, scope: undefined, uri: "", next: undefined };
  if (seen.length < 32) seen.push(entry);
  return entry;
}

function openTag(src: Source, lt: number, open: Open, h: TokenHandler): number {
  const xml = src.xml;
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
    entry = elementName(src, lt, j, open);
    if (last !== undefined) last.next = entry;
  } else j += entry.raw.length;
  open.last = entry;
  const name = entry.name;
  let raw: { name: string; value: string; at: number }[] | undefined;
  let selfClosing = false;
  for (;;) {
    while (j < n && isSpace(xml.charCodeAt(j))) j++;
    if (j >= n) throw new XmlSyntaxError(`the start tag <${name}> is not terminated`, lt);
    const c = xml.charCodeAt(j);
    if (c === 62) {
      j++;
      break;
    }
    if (c === 47) {
      if (xml.charCodeAt(j + 1) !== 62) throw new XmlSyntaxError(`'/' in the start tag <${name}> not followed by '>'`, j);
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
    const attrName = chars(src, at, j);
    if (!checkName(attrName)) throw new XmlSyntaxError(`'${attrName}' is not a valid attribute name in <${name}>`, at);
    while (j < n && isSpace(xml.charCodeAt(j))) j++;
    if (xml.charCodeAt(j) !== 61) throw new XmlSyntaxError(`the attribute ${attrName} in <${name}> has no value`, at);
    j++;
    while (j < n && isSpace(xml.charCodeAt(j))) j++;
    const q = xml.charCodeAt(j);
    if (q !== 34 && q !== 39) throw new XmlSyntaxError(`the value of ${attrName} in <${name}> is not quoted`, j);
    const close = xml.indexOf(q === 34 ? '"' : "'", j + 1);
    if (close === -1) throw new XmlSyntaxError(`the value of ${attrName} in <${name}> is not terminated`, j);
    const v = chars(src, j + 1, close);
    if (v.indexOf("<") !== -1) throw new XmlSyntaxError(`'<' in the value of ${attrName}`, j);
    raw ??= [];
    for (const r of raw) if (r.name === attrName) throw new XmlSyntaxError(`the attribute ${attrName} appears twice in <${name}>`, at);
    // Attribute-value normalization: literal white space becomes a space; character references survive.
    raw.push({ name: attrName, value: textValue(v.replace(/\r\n|[\t\n\r]/g, " "), j), at });
    j = close + 1;
  }
  // Namespace declarations first, then names resolved against them.
  let ns = parentNs;
  if (raw !== undefined) {
    for (const a of raw) {
      if (a.name === "xmlns" || a.name.startsWith("xmlns:")) {
        if (ns === parentNs) ns = Object.create(parentNs) as Record<string, string>;
        const prefix = a.name.length === 5 ? "" : a.name.slice(6);
        if (prefix !== "" && a.value === "") throw new XmlSyntaxError(`the prefix ${prefix} is bound to an empty namespace`, a.at);
        ns[prefix] = a.value;
      }
    }
  }
  let uri: string | undefined;
  if (entry.scope === ns) uri = entry.uri;
  else {
    uri = ns[entry.prefix];
    if (uri === undefined) throw new XmlSyntaxError(`the prefix ${entry.prefix} of <${name}> is not bound to a namespace`, lt);
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
  tag.offset = lt;
  if (selfClosing) {
    h.open(tag);
    h.close();
    return j;
  }
  if (h.leaf !== undefined) {
    // Text then this element's own end tag (no white space in it): a leaf, reported at once.
    const lt2 = xml.indexOf("<", j);
    const length = entry.raw.length;
    if (lt2 !== -1 && xml.charCodeAt(lt2 + 1) === 47 && xml.charCodeAt(lt2 + 2 + length) === 62 && xml.startsWith(entry.raw, lt2 + 2)) {
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
