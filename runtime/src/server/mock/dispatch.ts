/**
 * Which response file answers a request, as SoapUI's mocks choose: the files whose `match` the
 * request's input fields satisfy first (the most fields wins, ties by file name), then among the
 * files with no match, in turn (cycling) or by a seeded random pick; none, and the caller answers
 * a sample.
 */
import { jsonReplacer } from "../../support/json.js";
import { REDACTED, type DispatchStyle, type MockResponse } from "./types.js";

/** The files of one operation, and the state of its sequence or random picks. */
export class OperationDispatch {
  private readonly matching: readonly MockResponse[];
  private readonly rest: readonly MockResponse[];
  private next = 0;
  private readonly random: () => number;

  constructor(
    responses: readonly MockResponse[],
    private readonly style: DispatchStyle,
    seed: number,
    operation: string,
  ) {
    const specificity = (r: MockResponse) =>
      Object.values(r.match).filter((v) => v !== REDACTED).length;
    this.matching = responses
      .filter((r) => Object.keys(r.match).length > 0)
      .sort((a, b) => specificity(b) - specificity(a) || (a.file < b.file ? -1 : 1));
    this.rest = responses.filter((r) => Object.keys(r.match).length === 0);
    this.random = mulberry32((seed ^ hash32(operation)) >>> 0);
  }

  /** The file that answers `input`, or undefined (none matches, and none is without a match). */
  choose(input: unknown): MockResponse | undefined {
    const matched = this.matching.find((r) => matches(r.match, input));
    if (matched || this.rest.length === 0) return matched;
    const i = this.style === "random" ? Math.floor(this.random() * this.rest.length) : this.next++;
    return this.rest[i % this.rest.length];
  }
}

/** Whether every path of `match` has its value in `input` (the placeholder REDACTED: any value). */
export function matches(match: Readonly<Record<string, unknown>>, input: unknown): boolean {
  for (const [key, expected] of Object.entries(match)) {
    if (expected === REDACTED) continue;
    const actual = jsonForm(at(input, key));
    if (!same(actual, expected)) return false;
  }
  return true;
}

/** The value at a dotted path (`range.from`, `items.0.id` or `items[0].id`). */
function at(value: unknown, key: string): unknown {
  let v = value;
  for (const segment of key.replace(/\[(\d+)\]/g, ".$1").split(".")) {
    if (v === null || typeof v !== "object" || !Object.hasOwn(v, segment)) return undefined;
    v = (v as Record<string, unknown>)[segment];
  }
  return v;
}

/** A value as JSON reads it back: dates as their lexical form, big integers as strings. */
export function jsonForm(v: unknown): unknown {
  if (v === undefined) return undefined;
  return JSON.parse(JSON.stringify(v, jsonReplacer)) as unknown;
}

/** Deep equality of JSON values; a scalar also equals its text (`5` and `"5"`). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (typeof a !== "object" || typeof b !== "object")
    return typeof a !== "object" && typeof b !== "object" && String(a) === String(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** A small seeded generator (mulberry32): the same picks for the same seed, on every platform. */
function mulberry32(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a name: each operation's picks differ under one seed. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
