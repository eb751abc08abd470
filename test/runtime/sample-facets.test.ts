/**
 * The samples of scalar types (descriptors/scalar-sample.ts, numeric-sample.ts, xsd-regex.ts): a
 * value of every XSD built-in's lexical space, meeting every facet (patterns, lengths, bounds,
 * digits), an enumerated value, a union member's; none, said why, where the facets contradict.
 * The values are checked here by rule; samples-schema-valid.test.ts checks whole messages with a
 * real validator.
 */
import { describe, expect, it } from "vitest";
import { scalar, xs, type ScalarDesc } from "../../runtime/src/index.js";
import { always0, scalarText } from "../../runtime/src/descriptors/scalar-sample.js";
import {
  generate,
  parsePattern,
  patternMatches,
  type Choose,
} from "../../runtime/src/descriptors/xsd-regex.js";
import { complex, field, UNBOUNDED } from "../../runtime/src/descriptors/builders.js";
import { elementSample } from "../../runtime/src/descriptors/sample-values.js";

/** Stand-ins as sample-values.ts's, by kind: `string`, `7.5`, `7`. */
const plainOf = (kind: string) =>
  kind === "string" ? "string" : kind === "decimal" || kind === "double" ? "7.5" : "7";
const text = (d: ScalarDesc, optional = false, choose: Choose = always0) =>
  scalarText(d, plainOf, optional, choose);

/** A seeded-like source that walks through the choices in turn. */
const counting = (): Choose => {
  let i = 0;
  return (n) => i++ % n;
};

describe("the pattern generator", () => {
  const cases: [string, RegExp | undefined][] = [
    ["[A-Z]{2}\\d{3}", /^[A-Z]{2}\d{3}$/],
    [
      "\\{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\}",
      undefined,
    ],
    ["(ab|cd)+x?", /^(ab|cd)+x?$/],
    ["[^\\s]{3,5}", /^\S{3,5}$/],
    ["\\i\\c*", undefined],
    ["\\p{Lu}\\p{Ll}+", /^\p{Lu}\p{Ll}+$/u],
    ["[a-z-[aeiou]]{4}", /^[bcdfghj-np-tv-z]{4}$/],
    ["\\d+(\\.\\d{1,2})?", /^\d+(\.\d{1,2})?$/],
    ["[\\-+]?[0-9]*", /^[-+]?[0-9]*$/],
    ["\\p{IsBasicLatin}{2}", /^[\x00-\x7f]{2}$/],
    ["\\p{IsThai}+", /^[\u0e00-\u0e7f]+$/],
    ["[\\p{IsHiragana}\\p{IsKatakana}]{3}", /^[\u3040-\u30ff]{3}$/],
    ["\\P{IsGreek}\\p{IsSpecials}", /^[^\u0370-\u03ff][\ufeff\ufff0-\ufffd]$/u],
    ["\\p{IsPrivateUse}\\p{IsCJKUnifiedIdeographsExtensionB}", /^\p{Co}[\u{20000}-\u{2a6d6}]$/u],
    ["((a|b)c){2,3}|z", /^((a|b)c){2,3}$|^z$/],
    ["^$", /^\^\$$/],
  ];
  for (const [pattern, js] of cases)
    it(`'${pattern}': strings it matches, at several lengths and choices`, () => {
      const node = parsePattern(pattern)!;
      expect(node).toBeDefined();
      for (const target of [0, 1, 3, 6, 20])
        for (const choose of [always0, counting()]) {
          const s = generate(node, target, choose)!;
          expect(patternMatches(node, s), `${s} of ${pattern}`).toBe(true);
          if (js) expect(s).toMatch(js);
        }
    });

  it("the matcher refuses what a pattern does not match", () => {
    const node = parsePattern("[A-Z]{2}\\d{3}")!;
    expect(patternMatches(node, "AB12")).toBe(false);
    expect(patternMatches(node, "ab123")).toBe(false);
    expect(patternMatches(parsePattern("a*")!, "")).toBe(true);
  });

  it("a pattern it cannot read is undefined, not a throw", () => {
    expect(parsePattern("[a-")).toBeUndefined();
    expect(parsePattern("\\p{IsNoSuchBlock}")).toBeUndefined();
    expect(parsePattern("a{3,1}")).toBeUndefined();
    expect(parsePattern("(a")).toBeUndefined();
  });

  it("repetition is capped where a pattern leaves it open", () => {
    expect([...generate(parsePattern("a+")!, 1000, always0)!].length).toBeLessThanOrEqual(17);
  });
});

describe("scalar samples", () => {
  it("every built-in converted as a string gets a value of its own lexical space", () => {
    const expected: Record<string, RegExp> = {
      duration: /^P\d+D$/,
      gYear: /^\d{4}$/,
      gYearMonth: /^\d{4}-\d{2}$/,
      gMonth: /^--\d{2}$/,
      gMonthDay: /^--\d{2}-\d{2}$/,
      gDay: /^---\d{2}$/,
      language: /^[a-z]{2}$/,
      NMTOKEN: /^[\w.:-]+$/,
      NMTOKENS: /^[\w.:-]+( [\w.:-]+)*$/,
      Name: /^[A-Za-z_:][\w.:-]*$/,
      NCName: /^[A-Za-z_][\w.-]*$/,
      ID: /^[A-Za-z_][\w.-]*$/,
      QName: /^[A-Za-z_][\w.-]*$/,
      anyURI: /^http:\/\/example\.com\//,
      token: /^\S+( \S+)*$/,
    };
    for (const [name, re] of Object.entries(expected))
      for (const optional of [false, true]) {
        const d = (xs as Record<string, ScalarDesc>)[name]!;
        expect(d.xsd ?? d.s).toBe(name === "token" ? "token" : name);
        expect(text(d, optional), `${name} ${optional}`).toMatch(re);
      }
  });

  it("lengths: a value as long as length, minLength and maxLength ask, in characters or octets", () => {
    expect(text(scalar("string", { maxLength: 3 }))).toBe("str");
    expect(text(scalar("string", { length: 18 }))).toHaveLength(18);
    expect(text(scalar("string", { minLength: 10 }), true)).toMatch(/^[a-z]{10}$/);
    expect(text(scalar("string", { xsd: "token", maxLength: 4 }), true)).toBe("stri");
    expect(text(scalar("hexBinary", { length: 4 }))).toBe("01010101");
    expect(atob(text(scalar("base64Binary", { minLength: 5 })) as string)).toHaveLength(5);
  });

  it("a pattern and lengths together (Salesforce ids: 18 characters of [a-zA-Z0-9])", () => {
    const id = text(scalar("string", { length: 18, pattern: ["[a-zA-Z0-9]{15}|[a-zA-Z0-9]{18}"] }));
    expect(id).toMatch(/^[a-zA-Z0-9]{18}$/);
    // Patterns of two derivation steps are both met.
    const both = text(scalar("string", { pattern: ["[a-z0-9]{2,8}", "\\d.*"] }));
    expect(both).toMatch(/^\d[a-z0-9]{1,7}$/);
  });

  it("bounds and digits: ranges, exclusive bounds, totalDigits, fractionDigits 0 an integer", () => {
    expect(text(scalar("decimal", { fractionDigits: 0 }))).toBe("7");
    expect(text(scalar("decimal", { fractionDigits: 0, minInclusive: "32.5" }))).toBe("33");
    expect(text(scalar("decimal", { totalDigits: 2, fractionDigits: 1 }))).toBe("7.5");
    expect(text(scalar("decimal", { minExclusive: "100" }))).toBe("100.01");
    expect(text(scalar("int", { minInclusive: "10", maxInclusive: "20" }))).toBe("10");
    expect(text(scalar("int", { maxExclusive: "0" }))).toBe("-1");
    expect(text(scalar("long", { totalDigits: 1, minInclusive: "3" }))).toBe("7");
    expect(text(scalar("long", { totalDigits: 1, minInclusive: "8" }))).toBe("8");
    expect(Number(text(scalar("double", { maxInclusive: "0.005" })))).toBeLessThanOrEqual(0.005);
    expect(text(scalar("double", { minExclusive: "0", maxExclusive: "0.01" }))).toMatch(
      /^0\.00[1-9]$/,
    );
    expect(text(scalar("unsignedByte", { minExclusive: "254" }))).toBe("255");
  });

  it("a pattern on a number kind gives a number of the pattern", () => {
    expect(text(scalar("int", { pattern: ["[1-9]\\d{4}"] }))).toMatch(/^[1-9]\d{4}$/);
  });

  it("enumerations, unions and lists: an enumerated value (chosen when seeded), a member's, items", () => {
    const e = scalar("string", { values: ["ERROR", "NOTE", "SUCCESS"] });
    expect(text(e)).toBe("ERROR");
    const seen = new Set([0, 1, 2].map((i) => text(e, false, () => i)));
    expect(seen).toEqual(new Set(["ERROR", "NOTE", "SUCCESS"]));
    const u = scalar("string", { union: [scalar("string", { values: ["a"] }), xs.int] });
    expect(text(u)).toBe("a");
    expect(text(u, false, counting())).toBe("a");
    expect(text(scalar("string", { union: [scalar("int", { minInclusive: "5" })] }))).toBe("7");
  });

  it("facets no value meets: none, said why", () => {
    expect(text(scalar("string", { minLength: 5, maxLength: 2 }))).toEqual({
      none: "contradiction",
      why: "minLength 5 is above maxLength 2",
    });
    expect(text(scalar("int", { minInclusive: "9", maxInclusive: "3" }))).toMatchObject({
      none: "contradiction",
    });
    expect(text(scalar("decimal", { totalDigits: 2, fractionDigits: 3 }))).toMatchObject({
      none: "contradiction",
    });
    expect(text(scalar("string", { pattern: ["[a-z]{5}"], maxLength: 3 }))).toMatchObject({
      none: "pattern",
    });
    expect(text(scalar("string", { pattern: ["\\p{IsNoSuchBlock}"] }))).toMatchObject({
      none: "pattern",
    });
  });
});

describe("element samples", () => {
  const Item = complex("Item", () => [field("Code", "", scalar("string", { pattern: ["X\\d"] }))]);
  const Order = complex("Order", () => [
    field("Three", "", xs.int, { min: 3, max: UNBOUNDED }),
    field("Two", "", xs.int, { min: 0, max: 5 }),
    field("Item", "", Item, { min: 1, max: 2 }),
    field(
      "Nil",
      "",
      complex("Abstractless", () => []),
      { nillable: true },
    ),
  ]);
  const el = field("Order", "urn:o", Order);

  it("minOccurs is met, maxOccurs kept, patterns met deep down", () => {
    const v = elementSample(el) as Record<string, unknown[]>;
    expect(v["Three"]).toHaveLength(3);
    expect(v["Two"]).toHaveLength(2);
    expect(v["Item"]).toEqual([{ Code: "X0" }, { Code: "X1" }]);
  });

  it("deterministic without a seed; the same seed, the same sample; items cycle enumerations", () => {
    const E = scalar("string", { values: ["A", "B", "C", "D", "E", "F", "G", "H"] });
    const list = field(
      "L",
      "",
      complex("L", () => [field("V", "", E, { min: 8, max: 8 })]),
    );
    expect(elementSample(list)).toEqual(elementSample(list));
    expect(elementSample(list, { seed: 5 })).toEqual(elementSample(list, { seed: 5 }));
    const values = (elementSample(list, { seed: 5 }) as { V: string[] }).V;
    const fixed = (elementSample(list) as { V: string[] }).V;
    // Each item its own value unseeded, from the first on; seeded, chosen ones moved by the index.
    expect(fixed).toEqual(["A", "B", "C", "D", "E", "F", "G", "H"]);
    expect(new Set(values).size).toBeGreaterThan(1);
    expect(values).not.toEqual(fixed);
  });

  it("a required wildcard gets a harmless element in a namespace it admits", () => {
    const W = complex("W", () => [], { any: true, anyRequired: "" });
    expect(elementSample(field("W", "urn:w", W))).toEqual({
      $any: [{ ns: "", local: "sample", attrs: {}, children: [] }],
    });
    // A strict one: the declared element the generator found there.
    const S = complex("S", () => [], { any: true, anyRequired: "urn:s", anyElement: "note" });
    expect(elementSample(field("S", "urn:w", S))).toEqual({
      $any: [{ ns: "urn:s", local: "note", attrs: {}, children: [] }],
    });
  });
});

describe("facets the builder once skipped: met, or said unmet", () => {
  it("bounds of a date or a gYear: an inclusive bound itself; exclusive ones alone said", () => {
    const date = text(scalar("date", { minInclusive: "2020-01-01" }));
    expect(date).toBe("2020-01-01");
    const year = scalar("string", { xsd: "gYear", minInclusive: "2010", maxExclusive: "2020" });
    expect(text(year)).toBe("2010");
    expect(text(scalar("dateTime", { minExclusive: "2020-01-01T00:00:00Z" }))).toMatchObject({
      none: "unsupported",
    });
    expect(text(scalar("date", { totalDigits: 3 }))).toMatchObject({ none: "unsupported" });
  });

  it("float and double bounds written with an exponent are read as numbers", () => {
    const t = text(scalar("double", { maxInclusive: "1E2", minInclusive: "2.5e1" }));
    expect(Number(t)).toBeGreaterThanOrEqual(25);
    expect(Number(t)).toBeLessThanOrEqual(100);
    const small = text(scalar("float", { minExclusive: "0", maxExclusive: "1e-3" }));
    expect(Number(small)).toBeGreaterThan(0);
    expect(Number(small)).toBeLessThan(0.001);
    expect(text(scalar("double", { maxInclusive: "INF" }))).toMatchObject({ none: "unsupported" });
  });

  it("a union's restriction: its patterns met by a member's value, other facets said", () => {
    const members = [xs.int, scalar("string", { values: ["none"] })];
    expect(text(scalar("string", { union: members, pattern: ["n.*"] }))).toBe("none");
    expect(text(scalar("string", { union: members, pattern: ["\\d{3}"] }))).toMatch(/^\d{3}$/);
    expect(text(scalar("string", { union: members, maxLength: 2 }))).toMatchObject({
      none: "unsupported",
    });
  });

  it("exclusive bounds compared exactly, and fraction digits taken from the bounds", () => {
    const long = { minExclusive: "9223372036854775806", maxExclusive: "9223372036854775808" };
    expect(text(scalar("long", long))).toBe("9223372036854775807");
    expect(text(scalar("integer", long))).toBe("9223372036854775807");
    const tiny = text(scalar("decimal", { minExclusive: "0", maxExclusive: "0.0000001" }));
    expect(tiny).toMatch(/^0\.0000000[1-9]$/);
    expect(text(scalar("int", { minExclusive: "5", maxExclusive: "6" }))).toMatchObject({
      none: "contradiction",
    });
  });
});
