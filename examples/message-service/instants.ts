/**
 * Exact, sortable instants for xs:dateTime lexical values. A value without an offset counts as UTC
 * (as the recorded service did); one with an offset is converted. All fraction digits are kept, so
 * `…00.1234567` and `…00.12345671` order correctly; JS `Date` would truncate to milliseconds.
 */
const LEXICAL = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})?$/;

/** `YYYY-MM-DDTHH:MM:SS.fffffffffffZ` in UTC: fixed width, so string order is time order. */
export function instantKey(lexical: string): string {
  const m = LEXICAL.exec(lexical.trim());
  if (!m) throw new RangeError(`'${lexical}' is not an xs:dateTime value`);
  const [, y, mo, d, h = "00", mi = "00", s = "00", frac = "", tz] = m;
  let offsetMinutes = 0;
  if (tz && tz !== "Z") offsetMinutes = (tz.startsWith("-") ? -1 : 1) * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(4, 6)));
  const t = new Date(0);
  t.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  t.setUTCHours(Number(h), Number(mi) - offsetMinutes, Number(s), 0);
  const fraction = frac.padEnd(12, "0").slice(0, 12);
  return `${t.toISOString().slice(0, 19)}.${fraction}Z`;
}
