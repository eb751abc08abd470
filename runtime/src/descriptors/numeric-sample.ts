/**
 * Samples of the number kinds that meet bounds (min/max Inclusive/Exclusive) and digits
 * (totalDigits, fractionDigits), computed exactly: a value is an integer count of 10^-scale, a
 * bigint, so that a bound like 0.005 or 9223372036854775807 is kept as written. The stand-in is
 * kept when it already fits; else the value nearest it that does.
 */
import { BIGINT_RANGES, NUMBER_RANGES, type ScalarKind } from "../scalars/scalars.js";
import type { Facets } from "./types.js";
import type { Choose } from "./xsd-regex.js";

/** Why a scalar has no sample: facets no value meets, or a pattern the builder cannot meet. */
export interface NoSample {
  readonly none: "contradiction" | "pattern" | "unsupported";
  readonly why: string;
}

/** Each integer kind's range, as bigints (undefined: unbounded that way). */
const INTEGER_RANGES: Partial<
  Record<ScalarKind, readonly [bigint | undefined, bigint | undefined]>
> = {
  ...Object.fromEntries(
    Object.entries(NUMBER_RANGES).map(([k, [lo, hi]]) => [k, [BigInt(lo), BigInt(hi)]]),
  ),
  ...BIGINT_RANGES,
};
const DECIMALS = new Set<ScalarKind>(["decimal", "float", "double"]);
const DECIMAL = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?\s*$/;

/** Whether a kind's values are numbers, whose bounds and digits numericSample meets. */
export const isNumberKind = (kind: ScalarKind): boolean =>
  kind in INTEGER_RANGES || DECIMALS.has(kind);

/**
 * A decimal or float lexical as [sign, integer digits, fraction digits], its exponent (`1E2`,
 * a float's or double's bound) moved into the point; undefined when not a number (INF, NaN).
 */
function digitsOf(text: string): readonly [string, string, string] | undefined {
  const m = DECIMAL.exec(text);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return undefined;
  const exp = Number(m[4] ?? "0");
  const all = (m[2] ?? "") + (m[3] ?? "");
  const point = (m[2] ?? "").length + exp;
  const padded = point < 0 ? "0".repeat(-point) + all : all.padEnd(point, "0");
  const at = Math.max(point, 0);
  return [m[1] ?? "", padded.slice(0, at), padded.slice(at)];
}

/** The fraction digits a number lexical is written with, its exponent counted. */
const fractionOf = (text: string): number => digitsOf(text)?.[2].replace(/0+$/, "").length ?? 0;

/** `text` (a decimal lexical) times 10^scale, rounded down or up; undefined when not a decimal. */
function scaled(text: string, scale: number, up: boolean): bigint | undefined {
  const m = digitsOf(text);
  if (!m) return undefined;
  const frac = m[2];
  const kept = (frac + "0".repeat(scale)).slice(0, scale);
  let n = BigInt((m[1] || "0") + kept);
  const cut = /[1-9]/.test(frac.slice(scale));
  if (m[0] === "-") n = -n;
  // Digits cut off move the value toward zero: round it the way asked.
  if (cut && up && m[0] !== "-") n += 1n;
  if (cut && !up && m[0] === "-") n -= 1n;
  return n;
}

/** `n` × 10^-scale as a decimal lexical. */
function format(n: bigint, scale: number): string {
  const neg = n < 0n;
  const digits = (neg ? -n : n).toString().padStart(scale + 1, "0");
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale);
  return `${neg ? "-" : ""}${int}${scale > 0 ? `.${frac}` : ""}`;
}

const max = (a: bigint | undefined, b: bigint | undefined) =>
  a === undefined ? b : b === undefined ? a : a > b ? a : b;
const min = (a: bigint | undefined, b: bigint | undefined) =>
  a === undefined ? b : b === undefined ? a : a < b ? a : b;

/** The least and greatest values (in units of 10^-scale) that meet the bounds and digits. */
function bounds(kind: ScalarKind, f: Facets, scale: number) {
  const unit = 10n ** BigInt(scale);
  const range = INTEGER_RANGES[kind];
  let lo = range?.[0] === undefined ? undefined : range[0] * unit;
  let hi = range?.[1] === undefined ? undefined : range[1] * unit;
  const inc = (s: string | undefined, up: boolean) =>
    s === undefined ? undefined : scaled(s, scale, up);
  lo = max(lo, inc(f.minInclusive, true));
  hi = min(hi, inc(f.maxInclusive, false));
  const minEx = inc(f.minExclusive, false);
  const maxEx = inc(f.maxExclusive, true);
  if (minEx !== undefined) lo = max(lo, minEx + 1n);
  if (maxEx !== undefined) hi = min(hi, maxEx - 1n);
  if (f.totalDigits !== undefined) {
    const top = 10n ** BigInt(f.totalDigits) - 1n;
    lo = max(lo, -top);
    hi = min(hi, top);
  }
  return { lo, hi };
}

/** The bounds a type sets, as written. */
const boundsOf = (f: Facets): string[] =>
  [f.minInclusive, f.maxInclusive, f.minExclusive, f.maxExclusive].filter(
    (v): v is string => v !== undefined,
  );

/** Whether a number kind's bounds or digits restrict it. */
const restricts = (f: Facets): boolean =>
  boundsOf(f).length > 0 || f.totalDigits !== undefined || f.fractionDigits !== undefined;

/**
 * A value of `kind` that meets the facets' bounds and digits: `stand` when it does, else the one
 * nearest it (moved by a chosen step, when seeded). Kinds not numbers: `orderedSample`.
 */
export function numericSample(
  kind: ScalarKind,
  f: Facets,
  stand: string,
  choose: Choose,
): string | NoSample {
  if (!isNumberKind(kind)) return orderedSample(kind, f, stand);
  if (!restricts(f)) return stand;
  const unread = boundsOf(f).find((b) => digitsOf(b) === undefined);
  if (unread !== undefined)
    return { none: "unsupported", why: `the bound '${unread}' is not met by samples` };
  const integer = kind in INTEGER_RANGES;
  // Without fractionDigits, one digit past the bounds' own leaves room between any two of them.
  const finest = Math.max(6, ...boundsOf(f).map((b) => fractionOf(b) + 1));
  const most = integer ? 0 : (f.fractionDigits ?? finest);
  const least = integer ? 0 : Math.min(most, f.fractionDigits ?? 2);
  // The fewest fraction digits with a value in the bounds: 1.5 → 2 under fractionDigits="0".
  for (let scale = least; scale <= most; scale++) {
    const { lo, hi } = bounds(kind, f, scale);
    if (lo !== undefined && hi !== undefined && lo > hi) continue;
    const own = scaled(stand, scale, false);
    const fitsOwn =
      own !== undefined &&
      scaled(stand, scale, true) === own &&
      (lo === undefined || own >= lo) &&
      (hi === undefined || own <= hi);
    if (fitsOwn && scale === least) return stand;
    let v = own ?? 1n;
    v += BigInt(choose(5));
    if (lo !== undefined && v < lo) v = lo;
    if (hi !== undefined && v > hi) v = hi;
    return format(v, scale);
  }
  return { none: "contradiction", why: `no ${kind} value lies within the bounds and digits` };
}

/**
 * A value of a kind ordered otherwise than numbers (dates, times, durations, gYear…) within its
 * bounds: an inclusive bound itself, which a valid schema keeps within the others. Exclusive
 * bounds alone, and digits, are not met: said so.
 */
function orderedSample(kind: ScalarKind, f: Facets, stand: string): string | NoSample {
  if (f.totalDigits !== undefined || f.fractionDigits !== undefined)
    return { none: "unsupported", why: `digits facets of a ${kind} value are not met by samples` };
  if (boundsOf(f).length === 0) return stand;
  const inclusive = f.minInclusive ?? f.maxInclusive;
  if (inclusive !== undefined) return inclusive.trim();
  return { none: "unsupported", why: `exclusive bounds of a ${kind} value are not met by samples` };
}

/**
 * `text` (a value of `kind` within the facets) moved by whole units for the `index`th item of a
 * repeated element, so that items differ (an `xs:unique` over them holds): a hundred units a step
 * first (clear of the other kinds' stand-ins), else one; `text` itself when no move stays in
 * bounds.
 */
export function numericVariant(kind: ScalarKind, f: Facets, text: string, index: number): string {
  if (index === 0 || (!(kind in INTEGER_RANGES) && !DECIMALS.has(kind))) return text;
  const scale = (DECIMAL.exec(text)?.[3] ?? "").length;
  const own = scaled(text, scale, false);
  if (own === undefined) return text;
  const { lo, hi } = bounds(kind, f, scale);
  const unit = 10n ** BigInt(scale);
  const i = BigInt(index);
  for (const step of [100n * i, -100n * i, i, -i]) {
    const v = own + step * unit;
    if ((lo === undefined || v >= lo) && (hi === undefined || v <= hi)) return format(v, scale);
  }
  return text;
}
