/**
 * The lexical sample of a scalar type: a value of its XSD built-in type (`ScalarDesc.xsd`, else
 * `s`) that meets its facets (pattern, lengths, bounds, digits), one of its enumerated values, or
 * one of its union members'. Deterministic unless given a seeded `Choose`. When no value meets the
 * facets, it says why instead (`NoSample`): the generator reports that as a located diagnostic.
 */
import type { Facets, ScalarDesc } from "./types.js";
import { generate, lengths, parsePattern, patternMatches, type Choose } from "./xsd-regex.js";
import { isNumberKind, numericSample, numericVariant, type NoSample } from "./numeric-sample.js";
import { parseScalar, type ScalarKind } from "../scalars/scalars.js";

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
type PlainOf = (kind: ScalarKind, optional: boolean) => string;

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
  if (d.union && d.union.length > 0)
    return unionText(d.union, d.facets, plainOf, optional, choose, index);
  const plain = plainOf(d.s, optional);
  const type = lexicalType(d);
  const stand = STRING_STAND_INS[type]?.[optional ? 1 : 0] ?? plain;
  const f = d.facets;
  if (!f) return variant(d, stand, index);
  const contradiction = contradictionOf(f);
  if (contradiction) return { none: "contradiction", why: contradiction };
  // A kind ordered otherwise than numbers starts from its inclusive bound, when it has bounds.
  const own = isNumberKind(d.s) ? stand : numericSample(d.s, f, stand, choose);
  if (typeof own !== "string") return own;
  if (f.pattern && f.pattern.length > 0) return patternText(d, f, own, choose, index);
  if (isNumberKind(d.s)) {
    const t = numericSample(d.s, f, own, choose);
    return typeof t === "string" ? numericVariant(d.s, f, t, index) : t;
  }
  if (d.s !== "string" && d.s !== "anyType" && d.s !== "hexBinary" && d.s !== "base64Binary")
    return own;
  return suffixed(type, f, lengthText(type, f, own, SPACED.has(type)), index);
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

/**
 * The first member (from a chosen one on) that has a sample meeting the union's own facets: only
 * patterns restrict a union (each member tried with them added); any other facet is said unmet.
 */
function unionText(
  members: readonly ScalarDesc[],
  f: Facets | undefined,
  plainOf: PlainOf,
  optional: boolean,
  choose: Choose,
  index: number,
): string | NoSample {
  const other = Object.keys(f ?? {}).find((k) => k !== "pattern");
  if (other !== undefined)
    return { none: "unsupported", why: `the ${other} facet of a union is not met by samples` };
  const patterns = f?.pattern ?? [];
  const nodes = patterns.map(parsePattern);
  const unread = patterns.findIndex((_, i) => nodes[i] === undefined);
  if (unread >= 0) return { none: "pattern", why: `the pattern '${patterns[unread]}' is not read` };
  const start = choose(members.length);
  let last: NoSample = { none: "contradiction", why: "no member type of the union has a value" };
  for (let i = 0; i < members.length; i++) {
    const m = withPatterns(members[(start + i) % members.length]!, patterns);
    const t = scalarText(m, plainOf, optional, choose, index);
    if (typeof t === "string" && nodes.every((n) => patternMatches(n!, t))) return t;
    last =
      typeof t === "string"
        ? { none: "pattern", why: `no member's value matches the union's patterns` }
        : t;
  }
  return last;
}

/** A union member with the union's patterns added to its own. */
function withPatterns(m: ScalarDesc, patterns: readonly string[]): ScalarDesc {
  if (patterns.length === 0) return m;
  const pattern = [...(m.facets?.pattern ?? []), ...patterns];
  return { ...m, facets: { ...m.facets, pattern } };
}

/** The length a value of `f` must have at least and at most (characters, or octets of binary). */
function lengthBounds(f: Facets): readonly [number, number] {
  return [f.length ?? f.minLength ?? 0, f.length ?? f.maxLength ?? Infinity];
}

/**
 * Length and digits facets no value meets, said in words; undefined when some value may. Bounds
 * are left to numericSample, which compares them exactly.
 */
function contradictionOf(f: Facets): string | undefined {
  const [lo, hi] = lengthBounds(f);
  if (f.length !== undefined && f.minLength !== undefined && f.minLength > f.length)
    return `minLength ${f.minLength} is above length ${f.length}`;
  if (f.length !== undefined && f.maxLength !== undefined && f.maxLength < f.length)
    return `maxLength ${f.maxLength} is below length ${f.length}`;
  if (lo > hi) return `minLength ${lo} is above maxLength ${hi}`;
  if (
    f.totalDigits !== undefined &&
    f.fractionDigits !== undefined &&
    f.fractionDigits > f.totalDigits
  )
    return `fractionDigits ${f.fractionDigits} is above totalDigits ${f.totalDigits}`;
  return undefined;
}

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
    if (d.s !== "string" && d.s !== "anyType") {
      try {
        parseScalar(d.s, s);
      } catch {
        return false;
      }
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
