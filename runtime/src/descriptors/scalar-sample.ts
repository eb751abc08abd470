/**
 * The lexical sample of a scalar type: a value of its XSD built-in type (`ScalarDesc.xsd`, else
 * `s`) that meets its facets (pattern, lengths, bounds, digits), one of its enumerated values, or
 * one of its union members'. Deterministic unless given a seeded `Choose`. When no value meets the
 * facets, it says why instead (`NoSample`): the generator reports that as a located diagnostic.
 */
import type { Facets, ScalarDesc } from "./types.js";
import { generate, lengths, parsePattern, patternMatches, type Choose } from "./xsd-regex.js";
import { numericSample, numericVariant, type NoSample } from "./numeric-sample.js";
import { parseScalar, type ScalarKind } from "../scalars/scalars.js";

export type { NoSample };

export const always0: Choose = () => 0;

/** Stand-ins of the built-in types converted as strings, by their XSD name. */
const STRING_STAND_INS: Readonly<Record<string, readonly [string, string]>> = {
  language: ["en", "fr"],
  Name: ["Name", "Name2"],
  NCName: ["NCName", "NCName2"],
  NMTOKEN: ["NMTOKEN", "NMTOKEN2"],
  NMTOKENS: ["NMTOKENS", "NMTOKENS2"],
  ID: ["ID", "ID2"],
  IDREF: ["IDREF", "IDREF2"],
  IDREFS: ["IDREFS", "IDREFS2"],
  ENTITY: ["ENTITY", "ENTITY2"],
  ENTITIES: ["ENTITIES", "ENTITIES2"],
  NOTATION: ["NOTATION", "NOTATION2"],
  QName: ["QName", "QName2"],
  anyURI: ["http://example.com/", "http://example.com/optional"],
  duration: ["P1D", "P2D"],
  gYear: ["2001", "2002"],
  gYearMonth: ["2001-01", "2001-02"],
  gMonth: ["--01", "--02"],
  gMonthDay: ["--01-01", "--01-02"],
  gDay: ["---01", "---02"],
};

/** The types whose value may hold spaces: a stand-in there may say it is optional. */
const SPACED = new Set(["string", "normalizedString", "token", "anySimpleType", "anyType"]);

/** The name of the lexical space a scalar's values are in. */
export const lexicalType = (d: ScalarDesc): string => d.xsd ?? d.s;

/** The unrestricted stand-in of a kind (sample-values.ts), required or optional. */
export type PlainOf = (kind: ScalarKind, optional: boolean) => string;

/**
 * A sample's text for one scalar (one item of a list): `choose` picks among values that fit, and
 * items past the first of a repeated element (`index`) differ from it where the type has room, so
 * that an `xs:unique` over them holds.
 */
export function scalarText(
  d: ScalarDesc,
  plainOf: PlainOf,
  optional: boolean,
  choose: Choose,
  index = 0,
): string | NoSample {
  if (d.values && d.values.length > 0)
    return d.values[(choose(d.values.length) + index) % d.values.length]!;
  if (d.union && d.union.length > 0) return unionText(d.union, plainOf, optional, choose, index);
  const plain = plainOf(d.s, optional);
  const type = lexicalType(d);
  const stand = STRING_STAND_INS[type]?.[optional ? 1 : 0] ?? plain;
  const f = d.facets;
  if (!f) return variant(d, stand, index);
  const contradiction = contradictionOf(f);
  if (contradiction) return { none: "contradiction", why: contradiction };
  if (f.pattern && f.pattern.length > 0) return patternText(d, f, stand, choose, index);
  if (d.s !== "string" && d.s !== "anyType" && d.s !== "hexBinary" && d.s !== "base64Binary") {
    const t = numericSample(d.s, f, stand, choose);
    return typeof t === "string" ? numericVariant(d.s, f, t, index) : t;
  }
  return suffixed(type, f, lengthText(type, f, stand, SPACED.has(type)), index);
}

/** The types a suffix keeps valid (a name, a token, a URI): an item's number is added to them. */
const SUFFIXED = new Set([
  ...SPACED,
  ...["Name", "NCName", "NMTOKEN", "NMTOKENS", "ID", "IDREF", "IDREFS", "ENTITY", "ENTITIES"],
  ...["QName", "anyURI"],
]);

/** The `index`th item's value of a type without facets: `text` moved by its number. */
function variant(d: ScalarDesc, text: string, index: number): string {
  if (index === 0) return text;
  if (d.s === "date" || d.s === "dateTime") return dayMoved(text, index);
  const number = numericVariant(d.s, {}, text, index);
  if (number !== text) return number;
  const suffix = suffixed(lexicalType(d), {}, text, index);
  return typeof suffix === "string" ? suffix : text;
}

/** A date's text `index` days on (within its month's first 28). */
const dayMoved = (text: string, index: number): string =>
  text.replace(/^(\d{4}-\d\d-)(\d\d)/, (_, ym: string, day: string) => {
    const d = ((Number(day) - 1 + index) % 28) + 1;
    return ym + String(d).padStart(2, "0");
  });

/**
 * `text` with the item's number at its end (`string 2`, `NCName2`) within the length facets, or
 * in place of its last characters; `text` itself for the first item or another type.
 */
function suffixed(type: string, f: Facets, text: string | NoSample, index: number) {
  if (index === 0 || typeof text !== "string" || !SUFFIXED.has(type)) return text;
  const [lo, hi] = lengthBounds(f);
  const number = String(index + 1);
  const spaced = SPACED.has(type) ? ` ${number}` : number;
  const chars = [...text];
  const s =
    chars.length + spaced.length <= hi
      ? text + spaced
      : chars.slice(0, Math.max(0, hi - number.length)).join("") + number;
  const n = [...s].length;
  return n >= lo && n <= hi ? s : text;
}

/** The first member (from a chosen one on) that has a sample. */
function unionText(
  members: readonly ScalarDesc[],
  plainOf: PlainOf,
  optional: boolean,
  choose: Choose,
  index: number,
): string | NoSample {
  const start = choose(members.length);
  let last: NoSample = { none: "contradiction", why: "no member type of the union has a value" };
  for (let i = 0; i < members.length; i++) {
    const m = members[(start + i) % members.length]!;
    const t = scalarText(m, plainOf, optional, choose, index);
    if (typeof t === "string") return t;
    last = t;
  }
  return last;
}

/** The length a value of `f` must have at least and at most (characters, or octets of binary). */
function lengthBounds(f: Facets): readonly [number, number] {
  return [f.length ?? f.minLength ?? 0, f.length ?? f.maxLength ?? Infinity];
}

/** Facets no value meets, said in words; undefined when some value may. */
export function contradictionOf(f: Facets): string | undefined {
  const [lo, hi] = lengthBounds(f);
  if (f.length !== undefined && f.minLength !== undefined && f.minLength > f.length)
    return `minLength ${f.minLength} is above length ${f.length}`;
  if (f.length !== undefined && f.maxLength !== undefined && f.maxLength < f.length)
    return `maxLength ${f.maxLength} is below length ${f.length}`;
  if (lo > hi) return `minLength ${lo} is above maxLength ${hi}`;
  const min = f.minInclusive ?? f.minExclusive;
  const max = f.maxInclusive ?? f.maxExclusive;
  if (min !== undefined && max !== undefined && isNumber(min) && isNumber(max)) {
    const [a, b] = [Number(min), Number(max)];
    const open = f.minInclusive === undefined || f.maxInclusive === undefined;
    if (a > b || (open && a === b))
      return `the lower bound ${min} is not below the upper bound ${max}`;
  }
  if (
    f.totalDigits !== undefined &&
    f.fractionDigits !== undefined &&
    f.fractionDigits > f.totalDigits
  )
    return `fractionDigits ${f.fractionDigits} is above totalDigits ${f.totalDigits}`;
  return undefined;
}

const isNumber = (s: string): boolean => /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(s);

/** `stand` made as long as the length facets ask, keeping to the characters of its type. */
function lengthText(type: string, f: Facets, stand: string, spaced: boolean): string | NoSample {
  const [lo, hi] = lengthBounds(f);
  if (type === "hexBinary") return "01".repeat(Math.max(lo, Math.min(hi, 1)));
  if (type === "base64Binary") return base64Of(Math.max(lo, Math.min(hi, 1)));
  const chars = [...stand];
  if (chars.length >= lo && chars.length <= hi) return stand;
  // Letters only, so that a cut or a padding never leaves a space at an end.
  const letters = spaced ? chars.filter((c) => /[A-Za-z0-9]/.test(c)) : chars;
  const base = letters.length > 0 ? letters : ["x"];
  const out = [...base];
  while (out.length < lo) out.push(base[out.length % base.length]!);
  return out.slice(0, Math.max(lo, Math.min(hi, out.length))).join("");
}

const base64Of = (octets: number): string =>
  btoa(String.fromCharCode(...Array.from({ length: octets }, (_, i) => (i % 250) + 1)));

/**
 * A string of the pattern(s) whose length is in the facets' bounds and that is a value of the
 * type: each pattern tried at a few lengths, each result kept when every pattern matches it.
 */
function patternText(
  d: ScalarDesc,
  f: Facets,
  stand: string,
  choose: Choose,
  index = 0,
): string | NoSample {
  const nodes = f.pattern!.map(parsePattern);
  const unknown = f.pattern!.findIndex((_, i) => nodes[i] === undefined);
  if (unknown >= 0)
    return { none: "pattern", why: `the pattern '${f.pattern![unknown]}' is not read` };
  const [lo, hi] = lengthBounds(f);
  const fits = (s: string): boolean => {
    const n = [...s].length;
    if (n < lo || n > hi || !nodes.every((node) => patternMatches(node!, s))) return false;
    if (d.s === "string" || d.s === "anyType") return true;
    try {
      parseScalar(d.s, s);
    } catch {
      return false;
    }
    return numericSample(d.s, f, s, () => 0) === s;
  };
  if (index > 0) {
    // A later item: the stand-in numbered, else the pattern's choices each moved by the index.
    const numbered = suffixed(lexicalType(d), f, stand, index);
    if (typeof numbered === "string" && numbered !== stand && fits(numbered)) return numbered;
    const moved: Choose = (n) => (choose(n) + index) % n;
    const first = patternText(d, f, stand, choose);
    for (const node of nodes) {
      const [pl, ph] = lengths(node!);
      const from = Math.max(lo, pl);
      for (const target of [from, Math.min(hi, ph, from + 4)]) {
        const s = generate(node!, target, moved);
        if (s !== undefined && s !== first && fits(s)) return s;
      }
    }
    return first;
  }
  if (fits(stand)) return stand;
  for (const node of nodes) {
    const [pl, ph] = lengths(node!);
    const from = Math.max(lo, pl);
    const to = Math.min(hi, ph);
    const targets = [from, Math.min(to, from + 4), to, Math.min(to, [...stand].length)];
    for (const target of targets) {
      for (const c of [choose, always0]) {
        const s = generate(node!, target, c);
        if (s !== undefined && fits(s)) return s;
      }
    }
  }
  return {
    none: "pattern",
    why: `no value found that matches ${f.pattern!.map((p) => `'${p}'`).join(" and ")} within the other facets`,
  };
}
