/**
 * The "nothing vanishes" property (issue 18): a valid message changed in one of three ways, at a
 * position chosen at random (seeded, so a failure repeats): an element the schema does not declare
 * inserted, a leaf element repeated, a number padded with a non-breaking space. A receiver that
 * reports success must show the change: a different value, or (client) the element kept by
 * `undescribedOf`.
 */
import { undescribedOf } from "../../runtime/src/index.js";

export type MutantKind = "undeclared element" | "leaf repeated" | "number padded";
export interface Mutant {
  readonly kind: MutantKind;
  readonly at: number;
  readonly xml: string;
}

const UNDECLARED = `<Undeclared xmlns="urn:wsdl-tsgen:undeclared">1</Undeclared>`;
const LEAF = /<([\w.-]+:)?[\w.-]+(\s[^<>]*)?(\/>|>[^<]*<\/([\w.-]+:)?[\w.-]+>)/g;
const NUMBER_LEAF = />(-?\d+(\.\d+)?([eE][+-]?\d+)?)</g;

function rng(seedText: string): (n: number) => number {
  let seed = [...seedText].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 7) & 0x7fffffff;
  return (n) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return Math.floor((seed / 0x80000000) * n);
  };
}

/** Where the operation's element (the Body's first child, or the document element) has content. */
function contentSpan(xml: string): [number, number] | undefined {
  const body = /<([\w.-]+:)?Body(\s[^>]*)?>/.exec(xml);
  const from = body ? body.index + body[0].length : xml.indexOf("<", xml.indexOf("?>") + 1);
  const open = /<[\w.:-]+(\s[^<>]*)?>/g;
  open.lastIndex = from;
  const wrapper = open.exec(xml);
  if (!wrapper || wrapper[0].endsWith("/>")) return undefined;
  const end = body
    ? xml.lastIndexOf("</", xml.search(/<\/([\w.-]+:)?Body>/) - 1)
    : xml.lastIndexOf("</");
  return [wrapper.index + wrapper[0].length, end];
}

/** Up to `per` mutants of each kind, at seeded random positions inside the operation's element. */
export function mutants(xml: string, seedText: string, per = 2): Mutant[] {
  const span = contentSpan(xml);
  if (!span) return [];
  const [from, to] = span;
  const rand = rng(seedText);
  const inside = (i: number) => i >= from && i <= to;
  const tagEnds = [...xml.matchAll(/>/g)].map((m) => m.index + 1).filter(inside);
  const leaves = [...xml.matchAll(LEAF)].filter((m) => inside(m.index));
  const numbers = [...xml.matchAll(NUMBER_LEAF)].filter((m) => inside(m.index));
  const out: Mutant[] = [];
  const take = <T>(xs: T[], f: (x: T) => Mutant) => {
    for (let k = 0; k < per && xs.length > 0; k++) out.push(f(xs.splice(rand(xs.length), 1)[0]!));
  };
  const splice = (at: number, text: string) => xml.slice(0, at) + text + xml.slice(at);
  take([from, ...tagEnds], (at) => ({
    kind: "undeclared element",
    at,
    xml: splice(at, UNDECLARED),
  }));
  take(leaves, (m) => ({ kind: "leaf repeated", at: m.index, xml: splice(m.index, m[0]) }));
  take(numbers, (m) => ({
    kind: "number padded",
    at: m.index,
    xml: splice(m.index + 1, "\u00A0"),
  }));
  return out;
}

/** Whether a decoded value, anywhere inside, holds an element kept as undescribed. */
export function keptAnywhere(value: unknown, seen = new Set<unknown>()): boolean {
  if (typeof value !== "object" || value === null || seen.has(value)) return false;
  seen.add(value);
  if (undescribedOf(value).length > 0) return true;
  return Object.values(value).some((v) => keptAnywhere(v, seen));
}
