/**
 * Substitution groups (src/model/rules/substitution-groups.ts): which elements may stand where a
 * head is referenced.
 */
import { describe, expect, it } from "vitest";
import type { ComplexType, ElementField } from "../../../src/model/model.js";
import type { RawElement } from "../../../src/parse/xsd.js";
import {
  attribute,
  complexType,
  derivation,
  element,
  elementRef,
  mapped,
  q,
  schema,
  schemaSet,
  sequence,
  xs,
} from "../../support/schema-factory.js";

const member = (name: string, type: string, head: string, more: Partial<RawElement> = {}) =>
  element(name, q(type), { substitutionGroup: q(head), ...more });

/** An extension of the abstract ExprType with `content`. */
const expression = (name: string, content: Parameters<typeof derivation>[2]) =>
  complexType(name, { complexContent: derivation("extension", q("ExprType"), content) });

/** The names of the members listed on `field`. */
const members = (field: ElementField | undefined) =>
  field?.substitutes?.members.map((m) => m.name.local);

const onlyField = (t: ComplexType): ElementField => {
  expect(t.fields).toHaveLength(1);
  return t.fields[0]!;
};

describe("substitution groups", () => {
  // Exchange Web Services' search restrictions: Not and And hold the abstract head they stand for.
  const recursive = schema({
    complexTypes: [
      complexType("ExprType", { abstract: true }),
      expression("EqType", { attributes: [attribute("field")] }),
      expression("NotType", { particle: sequence([elementRef(q("Expr"))]) }),
      expression("AndType", { particle: sequence([elementRef(q("Expr"), { max: Infinity })]) }),
      complexType("Query", { particle: sequence([elementRef(q("Expr"))]) }),
    ],
    elements: [
      element("Expr", q("ExprType"), { abstract: true }),
      member("Eq", "EqType", "Expr"),
      member("Not", "NotType", "Expr"),
      member("And", "AndType", "Expr"),
    ],
  });

  it("lists every member of a recursive group at every depth, each with its complex type", () => {
    const { set, diagnostics } = schemaSet(recursive);
    const top = onlyField(mapped(set, "Query"));
    expect(members(top)).toEqual(["Eq", "Not", "And"]);
    const [, not, and] = top.substitutes!.members;
    expect([not!.type.kind, and!.type.kind]).toEqual(["complex", "complex"]);
    // Inside Not and And, and inside the Not within And: the same members, not just the leaf Eq.
    const inNot = onlyField(not!.type as ComplexType);
    const inAnd = onlyField(and!.type as ComplexType);
    expect([members(inNot), members(inAnd)]).toEqual([
      ["Eq", "Not", "And"],
      ["Eq", "Not", "And"],
    ]);
    expect(inAnd.maxOccurs).toBe(Infinity);
    const notInAnd = inAnd.substitutes!.members[1]!;
    expect(members(onlyField(notInAnd.type as ComplexType))).toEqual(["Eq", "Not", "And"]);
    expect(diagnostics.items).toEqual([]);
  });

  it("finds the members of a head once, whichever member's type is mapped first", () => {
    const { set } = schemaSet(recursive);
    const inAnd = onlyField(mapped(set, "AndType"));
    const top = onlyField(mapped(set, "Query"));
    expect(members(inAnd)).toEqual(["Eq", "Not", "And"]);
    expect(top.substitutes!.members).toBe(inAnd.substitutes!.members);
  });

  it("reaches members through abstract ones, and leaves simple ones out with a located warning", () => {
    const plain = member("Plain", "Base", "Head", { type: xs("string") });
    const { set, diagnostics } = schemaSet(
      schema({
        complexTypes: [
          complexType("Base", { particle: sequence([element("id", xs("int"))]) }),
          complexType("Holder", { particle: sequence([elementRef(q("Head"))]) }),
        ],
        elements: [
          element("Head", q("Base")),
          member("First", "Base", "Head"),
          // No type: the head's.
          element("Second", undefined, { substitutionGroup: q("First") }),
          plain,
          member("Hidden", "Base", "Head", { abstract: true }),
          member("UnderHidden", "Base", "Hidden"),
        ],
      }),
    );
    const field = onlyField(mapped(set, "Holder"));
    expect(field.substitutes?.head.name.local).toBe("Head");
    expect(members(field)).toEqual(["First", "Second", "UnderHidden"]);
    expect(diagnostics.items).toMatchObject([
      { code: "XSD_SUBSTITUTE_SKIPPED", severity: "warning", line: plain.loc.line },
    ]);
  });

  it("lists nothing for a reference to an element no group is headed by", () => {
    const { set } = schemaSet(
      schema({
        complexTypes: [complexType("Holder", { particle: sequence([elementRef(q("Lone"))]) })],
        elements: [element("Lone", xs("int"))],
      }),
    );
    expect(onlyField(mapped(set, "Holder")).substitutes).toBeUndefined();
  });
});
