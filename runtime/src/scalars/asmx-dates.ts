/**
 * The date forms ASMX-era clients send in HTTP GET/POST parameters. Every xs:dateTime and xs:date
 * lexical form is accepted, and so are the invariant-culture forms .NET's `DateTime.Parse` reads
 * (`1/5/2024`, `1/5/2024 10:00:00 AM`, RFC 1123, `Jan 5 2024 10:00`), month first as ASMX does.
 * The result is an xs:dateTime lexical value.
 */
import { isTemporalLexical } from "./temporal.js";

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const pad = (n: number, w = 2): string => String(n).padStart(w, "0");

function monthIndex(word: string): number | undefined {
  const i = MONTHS.indexOf(word.slice(0, 3).toLowerCase());
  if (i === -1) return undefined;
  const full = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
  ][i]!;
  const w = word.toLowerCase().replace(/\.$/, "");
  return w === full || w === full.slice(0, 3) || (i === 8 && w === "sept") ? i + 1 : undefined;
}

/** Parses `H:MM[:SS[.fff]] [AM|PM]`; returns `HH:MM:SS[.f]`. */
function timeOf(text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === "") return "00:00:00";
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2})(\.\d{1,7})?)?\s*(AM|PM|am|pm)?$/.exec(text.trim());
  if (!m) return undefined;
  let h = Number(m[1]);
  const ampm = m[5]?.toUpperCase();
  if (ampm) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (ampm === "PM" ? 12 : 0);
  }
  return `${pad(h)}:${m[2]}:${m[3] ?? "00"}${m[4] ?? ""}`;
}

function build(
  y: number,
  mo: number,
  d: number,
  time: string | undefined,
  tz = "",
): string | undefined {
  if (time === undefined) return undefined;
  const lexical = `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${time}${tz}`;
  return isTemporalLexical("dateTime", lexical) ? lexical : undefined;
}

/**
 * The xs:dateTime lexical value of an ASMX-style date parameter, or undefined when it is not a
 * date.
 */
export function parseAsmxDateTime(input: string): string | undefined {
  const s = input.trim().replace(/\s+/g, " ");
  if (s === "") return undefined;
  if (isTemporalLexical("dateTime", s)) return s;
  if (isTemporalLexical("date", s)) {
    const m = /^(-?\d{4,}-\d{2}-\d{2})(.*)$/.exec(s)!;
    return `${m[1]}T00:00:00${m[2]}`;
  }
  let m =
    /^(\d{4})-(\d{2})-(\d{2})[T ](\d{1,2}:\d{2}(?::\d{2}(?:\.\d{1,7})?)?)(Z|[+-]\d{2}:\d{2})?$/.exec(
      s,
    );
  if (m) return build(Number(m[1]), Number(m[2]), Number(m[3]), timeOf(m[4]), m[5] ?? "");
  // M/d/yyyy [time]
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: (.+))?$/.exec(s);
  if (m) return build(Number(m[3]), Number(m[1]), Number(m[2]), timeOf(m[4]));
  // RFC 1123: Fri, 05 Jan 2024 10:00:00 GMT
  m =
    /^(?:[A-Za-z]{3,9},? )?(\d{1,2}) ([A-Za-z]{3,9}\.?) (\d{4}) (\d{1,2}:\d{2}(?::\d{2})?) (GMT|UTC|Z)$/.exec(
      s,
    );
  if (m) {
    const mo = monthIndex(m[2]!);
    return mo ? build(Number(m[3]), mo, Number(m[1]), timeOf(m[4]), "Z") : undefined;
  }
  // Jan 5 2024 [time], January 5, 2024 [time]
  m = /^([A-Za-z]{3,9}\.?) (\d{1,2}),? (\d{4})(?: (.+))?$/.exec(s);
  if (m) {
    const mo = monthIndex(m[1]!);
    return mo ? build(Number(m[3]), mo, Number(m[2]), timeOf(m[4])) : undefined;
  }
  // 5 Jan 2024 [time]
  m = /^(\d{1,2}) ([A-Za-z]{3,9}\.?) (\d{4})(?: (.+))?$/.exec(s);
  if (m) {
    const mo = monthIndex(m[2]!);
    return mo ? build(Number(m[3]), mo, Number(m[1]), timeOf(m[4])) : undefined;
  }
  return undefined;
}
