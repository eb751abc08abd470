/** The plan's names (src/transform/plan-builder.ts): read through accessors that fail loudly. */
import { describe, expect, it } from "vitest";
import { emptyPlan } from "../../src/transform/plan-builder.js";
import type { Service } from "../../src/model/model.js";
import { modelAttribute, modelType } from "../support/schema-factory.js";

const model = {
  kind: "wsdl",
  source: "t.wsdl",
  targetNamespace: "",
  services: [],
  types: [],
  elements: [],
} as const;

describe("the plan's names", () => {
  it("gives what the passes set", () => {
    const plan = emptyPlan(model, new Map());
    const t = modelType("T");
    plan.names.setType(t, { type: "T", input: "TInput", descriptor: "TDesc" });
    const a = modelAttribute("id");
    plan.names.setProp(a, "id");
    expect(plan.names.type(t).input).toBe("TInput");
    expect(plan.names.prop(a)).toBe("id");
    expect([...plan.names.types.keys()]).toEqual([t]);
  });

  it("throws an internal error naming the node whose name is missing", () => {
    const plan = emptyPlan(model, new Map());
    const t = modelType("Order");
    expect(() => plan.names.type(t)).toThrow(
      /^internal error: the plan has no type name for complex \{urn:test\}Order at factory\.xsd:\d+$/,
    );
    expect(() => plan.names.prop(modelAttribute("id"))).toThrow(
      /no property name for attributeField \{\}id at factory\.xsd:\d+/,
    );
    const s = { name: "Api" } as Pick<Service, "name">;
    expect(() => plan.names.method(s as Service, "Get")).toThrow(/no names for service Api/);
    expect(plan.names.typeIfNamed(t)).toBeUndefined();
  });
});
