/**
 * The order of the mapping rules (src/model/rules/index.ts): one list, applied in its order, the
 * derivation rules at once and the content rules when the content guard lets them.
 */
import { describe, expect, it } from "vitest";
import type { ComplexType, Mutable } from "../../../src/model/model.js";
import { mappingContext } from "../../../src/model/complex-types.js";
import {
  applyMappingRules,
  MAPPING_RULES,
  type MappingContext,
} from "../../../src/model/rules/index.js";
import type { MappingRule } from "../../../src/model/rules/rule.js";
import {
  attribute,
  complexType,
  derivation,
  modelType,
  q,
  schema,
  schemaSet,
  soapenc,
} from "../../support/schema-factory.js";

/** A rule that only notes in `log` that it was applied. */
const noting = (name: string, step: MappingRule<unknown>["step"], log: string[]) => ({
  name,
  step,
  apply: () => void log.push(name),
});

describe("the mapping rules", () => {
  it("are listed derivation first, then content, each rule once", () => {
    expect(MAPPING_RULES.map((r) => `${r.step}:${r.name}`)).toEqual([
      "derivation:derivation",
      "derivation:restriction",
      "content:content",
      "content:attributes",
      "content:encoded-arrays",
    ]);
  });

  it("are applied in list order, the content rules only when the guard runs them", () => {
    const log: string[] = [];
    const rules = [
      noting("a", "derivation", log),
      noting("b", "derivation", log),
      noting("c", "content", log),
      noting("d", "content", log),
    ];
    let putOff: (() => void) | undefined;
    const target = {
      ct: { ...modelType("T") },
      raw: complexType("T"),
      schema: schema(),
      hint: "T",
    };
    const cx = mappingContext(schemaSet(schema()).set);
    applyMappingRules(target, cx, (content) => (putOff = content), rules);
    expect(log).toEqual(["a", "b"]);
    putOff!();
    expect(log).toEqual(["a", "b", "c", "d"]);
  });

  it("give an encoded array no attributes only because encoded-arrays comes after attributes", () => {
    const raw = complexType("Items", {
      complexContent: derivation("restriction", soapenc("Array"), {
        attributes: [
          attribute(undefined, {
            ref: soapenc("arrayType"),
            arrayType: { item: q("Item"), dims: "[]", text: "tns:Item[]" },
          }),
        ],
      }),
    });
    const mapWith = (rules: readonly MappingRule<MappingContext>[]): ComplexType => {
      const { set } = schemaSet(schema({ complexTypes: [raw] }));
      const ct: Mutable<ComplexType> = { ...modelType("Items") };
      const target = { ct, raw, schema: schema(), hint: "Items" };
      applyMappingRules(target, mappingContext(set), (content) => content(), rules);
      return ct;
    };
    expect(mapWith(MAPPING_RULES).attributes).toEqual([]);
    const swapped = [...MAPPING_RULES];
    const at = swapped.findIndex((r) => r.name === "attributes");
    [swapped[at], swapped[at + 1]] = [swapped[at + 1]!, swapped[at]!];
    expect(mapWith(swapped).attributes.map((a) => a.name.local)).toEqual(["arrayType"]);
  });
});
