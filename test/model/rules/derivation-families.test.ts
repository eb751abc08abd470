/**
 * Derivation families (src/model/rules/derivation-families.ts): the types derived from a type, and
 * circles cut.
 */
import { describe, expect, it } from "vitest";
import {
  complexType,
  derivation,
  element,
  mapped,
  q,
  schema,
  schemaSet,
  sequence,
  xs,
} from "../../support/schema-factory.js";

const extending = (name: string, base: string) =>
  complexType(name, {
    complexContent: derivation("extension", q(base), {
      particle: sequence([element(`${name}Field`, xs("int"))]),
    }),
  });
const restricting = (name: string, base: string) =>
  complexType(name, { complexContent: derivation("restriction", q(base)) });

describe("derivation families", () => {
  it("lists the types that extend or restrict a type directly, in schema order, and records them", () => {
    const { set, diagnostics } = schemaSet(
      schema({
        complexTypes: [
          complexType("Animal", { abstract: true }),
          extending("Dog", "Animal"),
          extending("Puppy", "Dog"),
          restricting("Thing", "Animal"),
          extending("Cat", "Animal"),
          extending("Unrelated", "Other"),
          complexType("Other"),
        ],
      }),
    );
    const animal = mapped(set, "Animal");
    // Nothing refers to the derived types: they are reached through their base.
    expect(animal.derived).toEqual([]);
    const derived = set.derivedOf(animal);
    expect(derived.map((t) => t.name?.local)).toEqual(["Dog", "Thing", "Cat"]);
    expect(animal.derived).toBe(derived);
    expect(derived[0]!.base).toBe(animal);
    expect(derived[1]!.restricts).toBe(animal);
    expect(set.derivedOf(derived[0]!).map((t) => t.name?.local)).toEqual(["Puppy"]);
    expect(diagnostics.items).toEqual([]);
  });

  it("leaves out the derivation that closes a circle, saying so, and lists no type on it as derived", () => {
    const a = extending("A", "B");
    const { set, diagnostics } = schemaSet(schema({ complexTypes: [a, extending("B", "A")] }));
    const mappedA = mapped(set, "A");
    // A is mapped first and B inside it, as its base: B extends A, and A's own derivation, which
    // would close the circle, is left out.
    expect(mappedA.base).toBeUndefined();
    const mappedB = mapped(set, "B");
    expect(mappedB.base).toBe(mappedA);
    expect(set.derivedOf(mappedA)).toEqual([mappedB]);
    expect(set.derivedOf(mappedB)).toEqual([]);
    expect(diagnostics.items).toMatchObject([
      { code: "XSD_CIRCULAR", line: a.complexContent!.loc.line },
    ]);
    expect(diagnostics.items[0]!.message).toContain(
      "the type {urn:test}A derives from itself ({urn:test}A → {urn:test}B → {urn:test}A)",
    );
  });
});
