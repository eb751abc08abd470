/**
 * `xs:dateTime`, `xs:date` and `xs:time` values that keep their exact lexical form: any number of
 * fraction digits, with or without an offset. `toString()` gives the lexical form back unchanged.
 */
import { keepShapes } from "../support/kept.js";

const DATE_TIME =
  /^(-?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/;
const DATE = /^(-?\d{4,})-(\d{2})-(\d{2})(Z|[+-]\d{2}:\d{2})?$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/;

export type TemporalKind = "dateTime" | "date" | "time";

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** The number the two characters at `i` of `t` stand for; -1 unless both are ASCII digits. */
function digits(t: string, i: number): number {
  const a = t.charCodeAt(i) - 48;
  const b = t.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

function validFields(kind: TemporalKind, m: RegExpExecArray): boolean {
  const tz = m[kind === "dateTime" ? 8 : kind === "date" ? 4 : 5];
  if (tz !== undefined && tz !== "Z") {
    const h = digits(tz, 1);
    const mi = digits(tz, 4);
    if (h > 14 || mi > 59 || (h === 14 && mi !== 0)) return false;
  }
  if (kind !== "time") {
    const month = digits(m[2]!, 0);
    const day = digits(m[3]!, 0);
    if (month < 1 || month > 12 || day < 1) return false;
    if (day > 28) {
      const y = Number(m[1]);
      const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
      if (day > (month === 2 && leap ? 29 : MONTH_DAYS[month - 1]!)) return false;
    }
  }
  if (kind !== "date") {
    const o = kind === "dateTime" ? 3 : 0;
    const h = digits(m[o + 1]!, 0);
    const mi = digits(m[o + 2]!, 0);
    const s = digits(m[o + 3]!, 0);
    if (h === 24 ? mi !== 0 || s !== 0 || /[1-9]/.test(m[o + 4] ?? "") : h > 23) return false;
    if (mi > 59 || s > 59) return false;
  }
  return true;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Whether `t` is certainly a valid xs:dateTime in its common form (`YYYY-MM-DDThh:mm:ss`, a
 * fraction, an offset), checked without a regex match to allocate: the decoders meet thousands.
 * False means "not certain" (a day past the 28th, hour 24, a year of other than four digits, or
 * invalid): the full check decides.
 */
export function isCommonDateTime(t: string): boolean {
  const n = t.length;
  if (
    n < 19 ||
    t.charCodeAt(4) !== 45 ||
    t.charCodeAt(7) !== 45 ||
    t.charCodeAt(10) !== 84 ||
    t.charCodeAt(13) !== 58 ||
    t.charCodeAt(16) !== 58
  )
    return false;
  const month = digits(t, 5);
  const day = digits(t, 8);
  const h = digits(t, 11);
  const mi = digits(t, 14);
  const s = digits(t, 17);
  if (digits(t, 0) < 0 || digits(t, 2) < 0 || month < 1 || month > 12 || day < 1 || day > 28)
    return false;
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) return false;
  let k = 19;
  if (k < n && t.charCodeAt(k) === 46) {
    const from = ++k;
    while (k < n && isDigit(t.charCodeAt(k))) k++;
    if (k === from) return false;
  }
  if (k === n) return true;
  const c = t.charCodeAt(k);
  if (c === 90) return k + 1 === n;
  if ((c !== 43 && c !== 45) || n - k !== 6 || t.charCodeAt(k + 3) !== 58) return false;
  const oh = digits(t, k + 1);
  const om = digits(t, k + 4);
  return oh >= 0 && oh < 14 && om >= 0 && om <= 59;
}

/** Whether `text` is a valid lexical value of `kind`. */
export function isTemporalLexical(kind: TemporalKind, text: string): boolean {
  return (kind === "dateTime" && isCommonDateTime(text)) || matchesTemporal(kind, text);
}

/**
 * The full check, by pattern and field ranges (exported for the test that holds the quick one to
 * it).
 */
export function matchesTemporal(kind: TemporalKind, text: string): boolean {
  const re = kind === "dateTime" ? DATE_TIME : kind === "date" ? DATE : TIME;
  const m = re.exec(text);
  return m !== null && validFields(kind, m);
}

/** Passed by the decoder, which has validated the lexical value already. */
export const VALIDATED: unique symbol = Symbol("validated");

abstract class XsdTemporal {
  /** The value exactly as written on the wire. */
  readonly lexical: string;
  abstract readonly kind: TemporalKind;
  protected constructor(lexical: string) {
    this.lexical = lexical;
  }
  toString(): string {
    return this.lexical;
  }
  toJSON(): string {
    return this.lexical;
  }
  /** Whether the value carries a time-zone offset (`Z` or `±hh:mm`). */
  get hasOffset(): boolean {
    return /(Z|[+-]\d{2}:\d{2})$/.test(this.lexical);
  }
  /**
   * The instant as a JS `Date`. A value without an offset is read as UTC. Fraction digits past
   * milliseconds are truncated (the lexical value keeps them).
   */
  abstract toDate(): Date;
  equals(other: unknown): boolean {
    return (
      other instanceof XsdTemporal && other.kind === this.kind && other.lexical === this.lexical
    );
  }
}

/** `lexical`, if it is a valid xs:`kind` value. */
function checkedLexical(kind: TemporalKind, lexical: string): string {
  if (!isTemporalLexical(kind, lexical))
    throw new RangeError(`'${lexical}' is not a valid xs:${kind} value`);
  return lexical;
}

/**
 * The lexical form of an input given as a string or a `Date`: a `Date` as an xs:`kind` in UTC, with
 * milliseconds (the part of its ISO string the kind holds); an invalid Date is refused, naming the
 * kind.
 */
function inputLexical(value: Date | string, kind: TemporalKind): string {
  if (typeof value === "string") return value;
  if (Number.isNaN(value.getTime()))
    throw new RangeError(`invalid Date given for an xs:${kind} value`);
  const iso = value.toISOString();
  return kind === "date" ? iso.slice(0, 10) : kind === "time" ? iso.slice(11) : iso;
}

function parseOffsetMinutes(tz: string | undefined): number {
  if (!tz || tz === "Z") return 0;
  const sign = tz.startsWith("-") ? -1 : 1;
  const [h, m] = tz.slice(1).split(":").map(Number) as [number, number];
  return sign * (h * 60 + m);
}

function utcMillis(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  frac: string,
  tz: string | undefined,
): number {
  const ms = Number((frac + "000").slice(0, 3));
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  t.setUTCHours(h, mi, s, ms);
  return t.getTime() - parseOffsetMinutes(tz) * 60_000;
}

/**
 * An `xs:dateTime` value. A date alone (`2024-01-05`) is accepted too, as .NET's XmlConvert and
 * ASMX servers accept it; it means midnight of that day.
 */
export class XsdDateTime extends XsdTemporal {
  readonly kind = "dateTime" as const;
  constructor(lexical: string, validated?: typeof VALIDATED) {
    if (
      validated !== VALIDATED &&
      !isTemporalLexical("dateTime", lexical) &&
      !isTemporalLexical("date", lexical)
    ) {
      throw new RangeError(`'${lexical}' is not a valid xs:dateTime value`);
    }
    super(lexical);
  }
  /** Accepts an `XsdDateTime`, a lexical string, or a `Date` (written in UTC with milliseconds). */
  static from(value: XsdDateTimeInput): XsdDateTime {
    return value instanceof XsdDateTime ? value : new XsdDateTime(inputLexical(value, "dateTime"));
  }
  toDate(): Date {
    const m = DATE_TIME.exec(this.lexical);
    if (!m) return XsdDate.prototype.toDate.call(this);
    return new Date(
      utcMillis(
        Number(m[1]),
        Number(m[2]),
        Number(m[3]),
        Number(m[4]),
        Number(m[5]),
        Number(m[6]),
        m[7] ?? "",
        m[8],
      ),
    );
  }
}

/** An `xs:date` value. */
export class XsdDate extends XsdTemporal {
  readonly kind = "date" as const;
  constructor(lexical: string) {
    super(checkedLexical("date", lexical));
  }
  /** Accepts an `XsdDate`, a lexical string, or a `Date` (its UTC calendar day). */
  static from(value: XsdDateInput): XsdDate {
    return value instanceof XsdDate ? value : new XsdDate(inputLexical(value, "date"));
  }
  toDate(): Date {
    const m = DATE.exec(this.lexical)!;
    return new Date(utcMillis(Number(m[1]), Number(m[2]), Number(m[3]), 0, 0, 0, "", m[4]));
  }
}

/** An `xs:time` value. */
export class XsdTime extends XsdTemporal {
  readonly kind = "time" as const;
  constructor(lexical: string) {
    super(checkedLexical("time", lexical));
  }
  /** Accepts an `XsdTime`, a lexical string, or a `Date` (its UTC time of day). */
  static from(value: XsdTimeInput): XsdTime {
    return value instanceof XsdTime ? value : new XsdTime(inputLexical(value, "time"));
  }
  /** The time of day on 1970-01-01. */
  toDate(): Date {
    const m = TIME.exec(this.lexical)!;
    return new Date(
      utcMillis(1970, 1, 1, Number(m[1]), Number(m[2]), Number(m[3]), m[4] ?? "", m[5]),
    );
  }
}

export type XsdDateTimeInput = XsdDateTime | Date | string;
export type XsdDateInput = XsdDate | Date | string;
export type XsdTimeInput = XsdTime | Date | string;

// See support/kept.ts.
keepShapes(
  new XsdDateTime("1970-01-01T00:00:00Z", VALIDATED),
  new XsdDate("1970-01-01"),
  new XsdTime("00:00:00"),
);
