/**
 * Conversions between XSD lexical values and JS values, for every scalar family the generator
 * emits. Parsing follows the XSD rules (whitespace collapsed for non-strings, exact ranges).
 */
import {
  isCommonDateTime,
  isTemporalLexical,
  VALIDATED,
  XsdDate,
  XsdDateTime,
  XsdTime,
} from "./temporal.js";
import { clipped } from "../support/input-text.js";
import { isXmlSpace } from "../support/xml-space.js";

export type ScalarKind =
  | "string"
  | "boolean"
  | "int"
  | "short"
  | "byte"
  | "unsignedInt"
  | "unsignedShort"
  | "unsignedByte"
  | "long"
  | "unsignedLong"
  | "integer"
  | "nonNegativeInteger"
  | "positiveInteger"
  | "nonPositiveInteger"
  | "negativeInteger"
  | "decimal"
  | "float"
  | "double"
  | "dateTime"
  | "date"
  | "time"
  | "base64Binary"
  | "hexBinary"
  | "anyType";

/** Thrown when a lexical value is not valid for its type. */
export class ValueFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ValueFormatError";
  }
}

export const NUMBER_RANGES: Partial<Record<ScalarKind, readonly [number, number]>> = {
  int: [-2147483648, 2147483647],
  short: [-32768, 32767],
  byte: [-128, 127],
  unsignedInt: [0, 4294967295],
  unsignedShort: [0, 65535],
  unsignedByte: [0, 255],
};

export const BIGINT_RANGES: Partial<
  Record<ScalarKind, readonly [bigint | undefined, bigint | undefined]>
> = {
  long: [-(2n ** 63n), 2n ** 63n - 1n],
  unsignedLong: [0n, 2n ** 64n - 1n],
  integer: [undefined, undefined],
  nonNegativeInteger: [0n, undefined],
  positiveInteger: [1n, undefined],
  nonPositiveInteger: [undefined, 0n],
  negativeInteger: [undefined, -1n],
};

const INTEGER = /^[+-]?\d+$/;
/**
 * xs:decimal's lexical space; the OpenAPI document's pattern for a decimal is this one (written
 * with [0-9], which every validator's engine reads as ASCII digits, where some read \d as Unicode).
 */
export const DECIMAL = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$/;
const FLOAT = /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|-?INF|\+INF|NaN)$/;

/** Whether `kind` decodes to a JS number. */
export const isNumberKind = (kind: ScalarKind): boolean =>
  kind in NUMBER_RANGES || kind === "float" || kind === "double";
/** Whether `kind` decodes to a bigint. */
export const isBigIntKind = (kind: ScalarKind): boolean => kind in BIGINT_RANGES;

function bad(kind: ScalarKind, text: string, why = ""): never {
  throw new ValueFormatError(`'${clipped(text)}' is not a valid xs:${kind} value${why}`);
}

/**
 * The int at `start .. end` of `text` when it is plain digits (an optional minus, up to 9 digits:
 * in range), else undefined; the decoder reads it in a document's Latin-1 view too
 * (decode-leaf.ts).
 */
export function plainIntIn(text: string, start: number, end: number): number | undefined {
  const minus = text.charCodeAt(start) === 45;
  let i = minus ? start + 1 : start;
  if (end === i || end - i > 9) return undefined;
  let v = 0;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
    v = v * 10 + c - 48;
  }
  return minus ? (v === 0 ? 0 : -v) : v;
}

/**
 * `text` without leading and trailing XML white space (space, tab, CR, LF): XSD's whiteSpace
 * collapse. `String.trim` would also strip U+00A0, U+2003 and the like, which no XSD number allows.
 */
export function xmlTrim(text: string): string {
  const n = text.length;
  // Nearly every value has no space at its edges: looked at first, it costs no regex.
  if (n === 0 || (!isXmlSpace(text.charCodeAt(0)) && !isXmlSpace(text.charCodeAt(n - 1))))
    return text;
  return text.replace(XML_EDGE_SPACE, "");
}
const XML_EDGE_SPACE = /^[ \t\r\n]+|[ \t\r\n]+$/g;
/** Runs of XML white space: what separates the items of an xs:list. */
export const XML_SPACE = /[ \t\r\n]+/;

/** Parses a lexical value. */
export function parseScalar(kind: ScalarKind, text: string): unknown {
  if (kind === "string" || kind === "anyType") return text;
  if (kind === "int") {
    // The common case, read without the general path's trim and pattern (same result).
    const v = plainIntIn(text, 0, text.length);
    if (v !== undefined) return v;
  }
  const t = xmlTrim(text);
  switch (kind) {
    case "boolean":
      if (t === "true" || t === "1") return true;
      if (t === "false" || t === "0") return false;
      return bad(kind, text);
    case "decimal":
      if (!DECIMAL.test(t)) bad(kind, text);
      return t;
    case "float":
    case "double":
      if (!FLOAT.test(t)) bad(kind, text);
      return t === "INF" || t === "+INF" ? Infinity : t === "-INF" ? -Infinity : Number(t);
    case "dateTime":
      // A date alone is accepted too, as .NET's XmlConvert does.
      if (!isTemporalLexical("dateTime", t) && !isTemporalLexical("date", t)) bad(kind, text);
      return new XsdDateTime(t, VALIDATED);
    case "date":
      if (!isTemporalLexical("date", t)) bad(kind, text);
      return new XsdDate(t);
    case "time":
      if (!isTemporalLexical("time", t)) bad(kind, text);
      return new XsdTime(t);
    case "base64Binary": {
      const compact = t.replace(/[ \t\r\n]+/g, "");
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) bad(kind, text);
      return new Uint8Array(Buffer.from(compact, "base64"));
    }
    case "hexBinary":
      if (!/^([0-9a-fA-F]{2})*$/.test(t)) bad(kind, text);
      return new Uint8Array(Buffer.from(t, "hex"));
  }
  const nr = NUMBER_RANGES[kind];
  if (nr) {
    if (!INTEGER.test(t)) bad(kind, text);
    const n = Number(t);
    if (n < nr[0] || n > nr[1]) bad(kind, text, ` (out of range ${nr[0]}..${nr[1]})`);
    return n === 0 ? 0 : n;
  }
  const br = BIGINT_RANGES[kind];
  if (br) {
    if (!INTEGER.test(t)) bad(kind, text);
    const n = BigInt(t);
    if ((br[0] !== undefined && n < br[0]) || (br[1] !== undefined && n > br[1]))
      bad(kind, text, " (out of range)");
    return n;
  }
  return bad(kind, text);
}

function wrong(kind: ScalarKind, value: unknown): never {
  // A Blob or a stream is written only as an MTOM part: as text it would have to be read whole.
  if (kind === "base64Binary" && (value instanceof Blob || value instanceof ReadableStream))
    throw new ValueFormatError(
      "a base64Binary value that is a Blob or a ReadableStream is sent only as an MTOM attachment; expected a Uint8Array, or the client's or handler's mtom option on",
    );
  const shown =
    typeof value === "bigint"
      ? `${value}n`
      : typeof value === "string"
        ? `'${value}'`
        : String(value);
  throw new ValueFormatError(
    `${shown} (${value === null ? "null" : typeof value}) cannot be written as xs:${kind}`,
  );
}

/**
 * The common values of a scalar kind, written without `formatScalar`, which compares the kind
 * against a dozen names each time: the writer formats thousands of values per response.
 * `q`: QUICK_INT an integer in `lo`..`hi`, QUICK_DATE_TIME an xs:dateTime string in its common
 * form, QUICK_STRING a string, 0 none.
 */
export interface QuickForm {
  readonly q: 0 | typeof QUICK_INT | typeof QUICK_DATE_TIME | typeof QUICK_STRING;
  readonly lo: number;
  readonly hi: number;
}
export const QUICK_INT = 1;
export const QUICK_DATE_TIME = 2;
export const QUICK_STRING = 3;

export function quickForm(kind: ScalarKind): QuickForm {
  const nr = NUMBER_RANGES[kind];
  if (nr) return { q: QUICK_INT, lo: nr[0], hi: nr[1] };
  const string = kind === "string" || kind === "anyType";
  return { q: kind === "dateTime" ? QUICK_DATE_TIME : string ? QUICK_STRING : 0, lo: 0, hi: 0 };
}

/** A common value's lexical form (see QuickForm); undefined when `formatScalar` must decide. */
export function quickText(f: QuickForm, value: unknown): string | undefined {
  switch (f.q) {
    case QUICK_INT:
      return typeof value === "number" && Number.isInteger(value) && value >= f.lo && value <= f.hi
        ? String(value)
        : undefined;
    case QUICK_DATE_TIME:
      return typeof value === "string" && isCommonDateTime(value) ? value : undefined;
    case QUICK_STRING:
      return typeof value === "string" ? value : undefined;
  }
  return undefined;
}

/** `formatScalar` for one kind, its common values first written by `quickText`. */
export function scalarFormatter(kind: ScalarKind): (value: unknown) => string {
  const f = quickForm(kind);
  return (value) => quickText(f, value) ?? formatScalar(kind, value);
}

/** Formats a JS value as a lexical value; accepts the input forms the generated types allow. */
export function formatScalar(kind: ScalarKind, value: unknown): string {
  switch (kind) {
    case "string":
    case "anyType":
      if (typeof value !== "string") wrong(kind, value);
      return value;
    case "boolean":
      if (typeof value !== "boolean") wrong(kind, value);
      return value ? "true" : "false";
    case "decimal":
      if (typeof value === "number" && Number.isFinite(value)) return String(value);
      if (typeof value === "bigint") return value.toString();
      if (typeof value !== "string" || !DECIMAL.test(value.trim())) wrong(kind, value);
      return value.trim();
    case "float":
    case "double":
      if (typeof value !== "number") wrong(kind, value);
      if (Object.is(value, -0)) return "-0";
      return value === Infinity
        ? "INF"
        : value === -Infinity
          ? "-INF"
          : Number.isNaN(value)
            ? "NaN"
            : String(value);
    case "dateTime":
      // The common case, a lexical string, is checked without making a value object.
      if (
        typeof value === "string" &&
        (isTemporalLexical("dateTime", value) || isTemporalLexical("date", value))
      )
        return value;
      try {
        return XsdDateTime.from(value as string).lexical;
      } catch {
        return wrong(kind, value);
      }
    case "date":
      try {
        return XsdDate.from(value as string).lexical;
      } catch {
        return wrong(kind, value);
      }
    case "time":
      try {
        return XsdTime.from(value as string).lexical;
      } catch {
        return wrong(kind, value);
      }
    case "base64Binary":
      if (!(value instanceof Uint8Array)) wrong(kind, value);
      return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
    case "hexBinary":
      if (!(value instanceof Uint8Array)) wrong(kind, value);
      return Buffer.from(value.buffer, value.byteOffset, value.byteLength)
        .toString("hex")
        .toUpperCase();
  }
  const nr = NUMBER_RANGES[kind];
  if (nr) {
    if (typeof value !== "number" || !Number.isInteger(value) || value < nr[0] || value > nr[1])
      wrong(kind, value);
    return String(value);
  }
  const br = BIGINT_RANGES[kind];
  if (br) {
    let n: bigint;
    if (typeof value === "bigint") n = value;
    else if (typeof value === "number" && Number.isSafeInteger(value)) n = BigInt(value);
    else return wrong(kind, value);
    if ((br[0] !== undefined && n < br[0]) || (br[1] !== undefined && n > br[1]))
      wrong(kind, value);
    return n.toString();
  }
  return wrong(kind, value);
}
