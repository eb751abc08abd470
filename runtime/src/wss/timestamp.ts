/**
 * The Timestamp check: present, created no later than now (give or take the skew), not expired
 * and no older than the time-to-live. Gives when the message expires, for the replay cache.
 */
import { SecurityRefusal } from "../soap/message-security.js";
import { WSU_NS } from "../soap/ws-security.js";
import type { VerifyChecks } from "./checks.js";
import { childrenNamed } from "./parts.js";
import { textOf, type SigElement } from "./tree.js";

/** xsd:dateTime with a zone, as the Timestamp's values must be (BSP R3217, R3213). */
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

export function checkTimestamp(
  ts: SigElement | undefined,
  now: Date,
  skewMs: number,
  defaultSeconds: number,
  checks: VerifyChecks,
): number {
  const t = now.getTime();
  if (!ts) {
    if (checks.timestamp)
      throw new SecurityRefusal("the message has no Timestamp", "missing-timestamp");
    return t + defaultSeconds * 1000;
  }
  const created = instant(ts, "Created");
  const expires = instant(ts, "Expires") ?? (created ?? t) + defaultSeconds * 1000;
  if (!checks.timestamp) return expires;
  if (created === undefined)
    throw new SecurityRefusal("the Timestamp has no valid Created", "malformed");
  if (created > t + skewMs)
    throw new SecurityRefusal("the Timestamp was created in the future", "future-timestamp");
  if (expires < t - skewMs)
    throw new SecurityRefusal("the Timestamp has expired", "expired-timestamp");
  // WSS4J's time-to-live: however far Expires lies, a message older than this is refused, so the
  // replay cache need keep a signature no longer.
  const latest = created + defaultSeconds * 1000 + skewMs;
  if (t > latest) throw new SecurityRefusal("the Timestamp has expired", "expired-timestamp");
  return Math.min(expires, latest);
}

/** The one wsu:Created or wsu:Expires of the Timestamp, in milliseconds. */
function instant(ts: SigElement, local: string): number | undefined {
  const all = childrenNamed(ts, WSU_NS, local);
  if (all.length > 1)
    throw new SecurityRefusal(`the Timestamp has more than one ${local}`, "malformed");
  if (all.length === 0) return undefined;
  const text = textOf(all[0]!).trim();
  const ms = DATE_TIME.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms))
    throw new SecurityRefusal(`the Timestamp's ${local} is not a time`, "malformed");
  return ms;
}
