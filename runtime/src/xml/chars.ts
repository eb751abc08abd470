/**
 * The character data of XML documents for the runtime's tokenizer: texts and attribute values with
 * references and line ends decoded and forbidden characters refused, read from a string or from
 * UTF-8 bytes through their Latin-1 view (one character per byte: markup is ASCII, so every offset
 * is a byte offset, and only what holds other bytes is decoded as UTF-8).
 */

export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    /**
     * For a prefix no declaration binds: the prefix, and the element or attribute name that uses
     * it.
     */
    readonly unboundPrefix?: {
      readonly prefix: string;
      readonly element?: string;
      readonly attribute?: string;
    },
  ) {
    super(message);
    this.name = "XmlSyntaxError";
  }
}

/**
 * A DOCTYPE declaration, refused before anything in it is read (no entity is declared or expanded).
 */
export class XmlDtdError extends XmlSyntaxError {
  constructor(offset: number) {
    super("a DOCTYPE declaration; DTDs are refused", offset);
    this.name = "XmlDtdError";
  }
}

/**
 * The same error at `by` characters (or bytes) further on: for a piece read `by` from the
 * document's start.
 */
export function shiftedError(e: XmlSyntaxError, by: number): XmlSyntaxError {
  const shifted =
    e instanceof XmlDtdError
      ? new XmlDtdError(e.offset + by)
      : new XmlSyntaxError(e.message, e.offset + by, e.unboundPrefix);
  if (e.stack !== undefined) shifted.stack = e.stack;
  return shifted;
}

/** A text that needs more than slicing: a reference, a CR, a character XML forbids. */
const SPECIAL = /[&\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const NON_ASCII = /[\u0080-\u00FF]/;

export const INVALID_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/**
 * The character a named reference (without its `&` and `;`) stands for: only XML's five are
 * defined.
 */
function namedReference(ref: string, offset: number): string {
  const v = PREDEFINED[ref];
  if (v !== undefined) return v;
  throw new XmlSyntaxError(
    /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(ref)
      ? `the entity &${ref}; is not defined (DTDs are refused)`
      : "a '&' that does not start a valid reference (write &amp;)",
    offset,
  );
}

/** The character a reference `#…` (without its `&` and `;`) names; refused unless XML allows it. */
function charReference(ref: string, offset: number): number {
  const hex = ref.charCodeAt(1) === 120;
  const digits = ref.slice(hex ? 2 : 1);
  if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits))
    throw new XmlSyntaxError(`&${ref}; is not a valid character reference`, offset);
  const code = parseInt(digits, hex ? 16 : 10);
  if (!allowedChar(code))
    throw new XmlSyntaxError(`&${ref}; is not a character XML allows`, offset);
  return code;
}

/**
 * Where the decimal character reference at `amp` (`&#` then 1 to 7 digits and `;`) ends, at its
 * `;`, if it names a character XML allows; else -1 (the general path reads it, and explains any
 * error).
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
  return (
    code === 9 ||
    code === 10 ||
    code === 13 ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** The references of a string decoded (the text path; bytes go through textFromBytes). */
function decodeReferences(s: string, offset: number): string {
  // A hand-rolled loop: texts with entities are common (&amp; &lt; &gt;) and regex callbacks are
  // slow.
  let out = "";
  let from = 0;
  for (let amp = s.indexOf("&"); amp !== -1; amp = s.indexOf("&", from)) {
    const semi = s.indexOf(";", amp + 1);
    if (semi === -1 || semi - amp > 12)
      throw new XmlSyntaxError("a '&' that does not start a valid reference (write &amp;)", offset);
    out += s.slice(from, amp);
    const ref = s.slice(amp + 1, semi);
    if (ref.charCodeAt(0) !== 35) {
      out += namedReference(ref, offset);
    } else {
      out += String.fromCodePoint(charReference(ref, offset));
    }
    from = semi + 1;
  }
  return out + s.slice(from);
}

/**
 * The source being read: its text (the Latin-1 view when `bytes` is set) and, for UTF-8 input, its
 * bytes.
 */
export interface Source {
  readonly xml: string;
  readonly bytes: Buffer | undefined;
  /**
   * For bytes, where the next of each kind of special byte stands in the view, at or after the
   * last text read (see textBetween); -1 before the first search. Texts come in document order, so
   * each search starts where the last one's result was passed, and the piece is searched once.
   */
  control: number;
  cr: number;
  ff: number;
  amp: number;
  high: number;
  /** Where the last text read starts: an earlier one (never met) searches again. */
  from: number;
}

/** A source: a text, or bytes through their Latin-1 view; one shape for both. */
export function newSource(xml: string, bytes: Buffer | undefined): Source {
  return { xml, bytes, control: -1, cr: -1, ff: -1, amp: -1, high: -1, from: 0 };
}

/** Node's Buffer slices to strings without `toString`'s argument checks and encoding lookup. */
interface DirectSlices {
  utf8Slice(start: number, end: number): string;
  latin1Slice(start: number, end: number): string;
}
const proto = Buffer.prototype as Partial<DirectSlices>;
/**
 * Called directly where the runtime has them: `toString(encoding, start, end)` cost 5% of decoding
 * the benchmark response in its argument checks alone. Elsewhere (another runtime's Buffer),
 * through `toString`.
 */
const DIRECT = typeof proto.utf8Slice === "function" && typeof proto.latin1Slice === "function";

/** The UTF-8 bytes `start .. end` of `bytes` (within it) as a string. */
function utf8Of(bytes: Buffer, start: number, end: number): string {
  return DIRECT
    ? (bytes as unknown as DirectSlices).utf8Slice(start, end)
    : bytes.toString("utf8", start, end);
}

/** The bytes `start .. end` of `bytes` (within it) as Latin-1, one character per byte. */
function latin1Of(bytes: Buffer, start: number, end: number): string {
  return DIRECT
    ? (bytes as unknown as DirectSlices).latin1Slice(start, end)
    : bytes.toString("latin1", start, end);
}

/**
 * The characters of `xml.slice(start, end)`: decoded from the bytes when they are not all ASCII.
 */
export function chars(src: Source, start: number, end: number): string {
  const s = src.xml.slice(start, end);
  return src.bytes !== undefined && NON_ASCII.test(s) ? utf8Of(src.bytes, start, end) : s;
}

/**
 * Character data between markup (`xml.slice(start, end)`), with references decoded. From bytes,
 * the view is sliced only for an ASCII text: any other is decoded from the bytes at once.
 */
export function textBetween(src: Source, start: number, end: number): string {
  const bytes = src.bytes;
  if (bytes === undefined) {
    const raw = src.xml.slice(start, end);
    return SPECIAL.test(raw) ? textValue(raw, start) : raw;
  }
  if (start < src.from) resetSearches(src);
  src.from = start;
  // Searched ahead in the whole piece, once, rather than in every text (see Source).
  if (end > nextControl(src, start) || end > nextFF(src, start))
    return checkedText(bytes, src.xml.slice(start, end), start);
  const high = highIn(src, start, end);
  const crs = end > nextCR(src, start);
  if (!crs && end <= nextAmp(src, start))
    return high ? utf8Of(bytes, start, end) : src.xml.slice(start, end);
  return textFromBytes(bytes, src, start, end, high, crs);
}

/** A text holding a C0 control or the bytes EF BF (U+FFxx): refused, or read the general way. */
function checkedText(bytes: Buffer, raw: string, start: number): string {
  if (CONTROL.test(raw) || NONCHARACTER_IN_VIEW.test(raw))
    throw new XmlSyntaxError("a character XML does not allow", start);
  const crs = raw.indexOf("\r") !== -1;
  if (!crs && raw.indexOf("&") === -1) return utf8Of(bytes, start, start + raw.length);
  // Searched in this text alone (its own source): the piece's searches stopped at its control.
  const own = newSource(raw, bytes);
  own.control = own.ff = raw.length;
  return textFromBytes(bytes, own, start, start + raw.length, NON_ASCII.test(raw), crs, start);
}

function resetSearches(src: Source): void {
  src.control = src.cr = src.ff = src.amp = src.high = -1;
}

const CONTROL_AHEAD = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

/**
 * The next match of the global one-character pattern `re` in `xml` from `at`, or the end: by
 * `test`, which makes no match array (one per text, else).
 */
function ahead(re: RegExp, xml: string, at: number): number {
  re.lastIndex = at;
  return re.test(xml) ? re.lastIndex - 1 : xml.length;
}
function found(i: number, xml: string): number {
  return i === -1 ? xml.length : i;
}
function nextControl(src: Source, at: number): number {
  if (src.control < at) src.control = ahead(CONTROL_AHEAD, src.xml, at);
  return src.control;
}
/**
 * Whether the text `start .. end` holds a non-ASCII byte: the one found last, if it is at or after
 * `start` (the first from an earlier text), else looked for in this text alone, by a loop (a
 * regex run per text cost more than the loop over a short one).
 */
function highIn(src: Source, start: number, end: number): boolean {
  if (src.high >= start) return src.high < end;
  const xml = src.xml;
  for (let k = start; k < end; k++)
    if (xml.charCodeAt(k) > 0x7f) {
      src.high = k;
      return true;
    }
  return false;
}
function nextFF(src: Source, at: number): number {
  if (src.ff < at) src.ff = found(src.xml.indexOf("\u00EF\u00BF", at), src.xml);
  return src.ff;
}
function nextCR(src: Source, at: number): number {
  if (src.cr < at) src.cr = found(src.xml.indexOf("\r", at), src.xml);
  return src.cr;
}
function nextAmp(src: Source, at: number): number {
  if (src.amp < at) src.amp = found(src.xml.indexOf("&", at), src.xml);
  return src.amp;
}

/**
 * The characters XML does not allow, in a Latin-1 view of UTF-8: C0 controls, U+FFFE and U+FFFF (as
 * their bytes).
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
const NONCHARACTER_IN_VIEW = /\u00EF\u00BF[\u00BE\u00BF]/;

/**
 * Reused to decode texts with references: one string made per text, none for its pieces. Bounded: a
 * longer text gets a buffer of its own rather than keeping that much for good.
 */
let scratch = Buffer.allocUnsafe(0);
const SCRATCH_LIMIT = 1024 * 1024;

/** Writes `code` as UTF-8 at `w` in `out`; gives the position after it. */
function putCodePoint(out: Buffer, w: number, code: number): number {
  if (code < 0x80) {
    out[w++] = code;
    return w;
  }
  if (code < 0x800) out[w++] = 0xc0 | (code >> 6);
  else {
    if (code < 0x10000) out[w++] = 0xe0 | (code >> 12);
    else {
      out[w++] = 0xf0 | (code >> 18);
      out[w++] = 0x80 | ((code >> 12) & 63);
    }
    out[w++] = 0x80 | ((code >> 6) & 63);
  }
  out[w++] = 0x80 | (code & 63);
  return w;
}

/**
 * A text with references or CRs (`start .. end` of the view; `src`'s searches tell where they
 * stand), from its UTF-8 bytes: references decoded and line ends normalized in bytes, then one
 * string made. Never longer than the source: every reference is longer than the UTF-8 of its
 * character. `shift` is subtracted from `src`'s positions (non-zero for a text read as its own
 * source: see checkedText).
 */
function textFromBytes(
  bytes: Buffer,
  src: Source,
  start: number,
  end: number,
  nonAscii: boolean,
  crs: boolean,
  shift = 0,
): string {
  const length = end - start;
  if (scratch.length < length && length <= SCRATCH_LIMIT)
    scratch = Buffer.allocUnsafe(Math.max(length, 4096));
  const out = scratch.length >= length ? scratch : Buffer.allocUnsafe(length);
  let w = 0;
  let high = nonAscii;
  let k = start;
  while (k < end) {
    // Copy up to the next '&' (or CR) as it is: the searches of the piece, carried forward.
    let stop = nextAmp(src, k - shift) + shift;
    if (crs) {
      const cr = nextCR(src, k - shift) + shift;
      if (cr < stop) stop = cr;
    }
    if (stop > end) stop = end;
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
      // A decimal character reference XML allows, read in bytes.
      let code = 0;
      for (let d = k + 2; d < semi; d++) code = code * 10 + bytes[d]! - 48;
      w = putCodePoint(out, w, code);
      if (code > 0x7f) high = true;
      k = semi + 1;
    } else {
      semi = k + 1;
      while (semi < end && semi - k < 12 && bytes[semi] !== 59) semi++;
      if (semi >= end || bytes[semi] !== 59)
        throw new XmlSyntaxError(
          "a '&' that does not start a valid reference (write &amp;)",
          start,
        );
      const ref = latin1Of(bytes, k + 1, semi);
      const code =
        ref.charCodeAt(0) !== 35
          ? namedReference(ref, start).charCodeAt(0)
          : charReference(ref, start);
      w = putCodePoint(out, w, code);
      if (code > 0x7f) high = true;
      k = semi + 1;
    }
  }
  // Literal U+FFFE and U+FFFF were refused in the view, and references never name them.
  return high ? utf8Of(out, 0, w) : latin1Of(out, 0, w);
}

/** Character data given as a string (an attribute value, a text of a string document), decoded. */
export function textValue(raw: string, offset: number): string {
  if (!SPECIAL.test(raw)) return raw;
  if (INVALID_CHAR.test(raw)) throw new XmlSyntaxError("a character XML does not allow", offset);
  let s = raw.indexOf("\r") === -1 ? raw : raw.replace(/\r\n?/g, "\n");
  if (s.indexOf("&") !== -1) s = decodeReferences(s, offset);
  return s;
}

/** The Latin-1 view of bytes: one character per byte. */
export function latin1View(bytes: Uint8Array): Source {
  const buf = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return newSource(buf.toString("latin1"), buf);
}

/** A name as written in the source (its Latin-1 view, for bytes), as characters: for messages. */
export function shown(src: Source, raw: string): string {
  return src.bytes !== undefined && NON_ASCII.test(raw)
    ? Buffer.from(raw, "latin1").toString("utf8")
    : raw;
}
