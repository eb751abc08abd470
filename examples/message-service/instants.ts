/**
 * Exact, sortable UTC keys for xs:dateTime lexical values, computed with integer calendar
 * arithmetic (no JS `Date`, which keeps only milliseconds and misplaces years past 9999).
 *
 * A value without an offset counts as UTC (as the recorded service did); one with an offset is
 * converted. A date alone (`2024-01-05`) means midnight. The key is
 * `YYYY-MM-DDTHH:MM:SS.ffffffffffffZ`: fixed width, so string order is time order. Fraction digits
 * past the twelfth, if any, follow the `Z` with trailing zeros dropped, so nothing is ever rounded
 * and `…00.1234567` < `…00.12345671` still holds.
 */
import { XsdDateTime } from "../../generated-samples/message-service/index.js";

/** Sorts before every key: a range bound earlier than year 0000 (UTC). */
export const KEY_BEFORE_ALL = "-";
/** Sorts after every key: a range bound later than year 9999 (UTC). */
export const KEY_AFTER_ALL = "~";

const LEXICAL =
  /^(-?\d{4,})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})?$/;
const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The inverse of `daysFromCivil`. */
function civilFromDays(days: number): [year: number, month: number, day: number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, doy - Math.floor((153 * mp + 2) / 5) + 1];
}

type Key = { readonly key: string } | { readonly outside: "before" | "after" };

function toKey(lexical: string): Key {
  // One definition of "valid" for the whole service: the runtime's, which also writes the
  // responses.
  try {
    new XsdDateTime(lexical);
  } catch {
    throw new RangeError(`'${lexical}' is not an xs:dateTime value`);
  }
  const m = LEXICAL.exec(lexical);
  if (!m) throw new RangeError(`'${lexical}' is not an xs:dateTime value`);
  const [, y, mo, d, h = "00", mi = "00", s = "00", frac = "", tz] = m;
  // Years of seven or more digits are far outside 0000..9999 whatever the offset; skip the
  // arithmetic.
  if (y!.replace("-", "").length > 6) return { outside: y!.startsWith("-") ? "before" : "after" };
  let offset = 0;
  if (tz && tz !== "Z")
    offset = (tz.startsWith("-") ? -1 : 1) * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(4, 6)));
  // Minutes since the epoch in UTC (24:00:00 carries into the next day by itself).
  const minutes =
    daysFromCivil(Number(y), Number(mo), Number(d)) * 1440 + Number(h) * 60 + Number(mi) - offset;
  const days = Math.floor(minutes / 1440);
  const ofDay = minutes - days * 1440;
  const [year, month, day] = civilFromDays(days);
  if (year < 0) return { outside: "before" };
  if (year > 9999) return { outside: "after" };
  const digits = frac.replace(/0+$/, "");
  const fraction = `${digits.slice(0, 12).padEnd(12, "0")}Z${digits.slice(12)}`;
  return {
    key: `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(Math.floor(ofDay / 60))}:${pad(ofDay % 60)}:${s}.${fraction}`,
  };
}

/**
 * The sortable UTC key of a stored DateArrived. Throws a RangeError for a value that is not an
 * xs:dateTime (or xs:date) lexical value, or whose UTC instant lies outside years 0000..9999.
 */
export function instantKey(lexical: string): string {
  const k = toKey(lexical);
  if ("key" in k) return k.key;
  throw new RangeError(`'${lexical}' lies outside the years 0000 to 9999 (UTC)`);
}

/**
 * The key of a range bound: like `instantKey`, but a bound before year 0000 or after year 9999
 * becomes `KEY_BEFORE_ALL` / `KEY_AFTER_ALL` instead of an error, since every xs:dateTime is a
 * valid bound.
 */
export function boundKey(lexical: string): string {
  const k = toKey(lexical);
  if ("key" in k) return k.key;
  return k.outside === "before" ? KEY_BEFORE_ALL : KEY_AFTER_ALL;
}
