/**
 * Restriction (src/model/rules/restrictions.ts): attributes inherited through a restriction, less
 * the prohibited ones.
 */
import { describe, expect, it } from "vitest";
import { qnameKey } from "../../../src/parse/qname.js";
import {
  completeRestrictions,
  prohibitedAttributes,
} from "../../../src/model/rules/restrictions.js";
import type { ComplexType } from "../../../src/model/model.js";
import {
  attribute,
  complexType,
  derivation,
  element,
  mapped,
  modelAttribute,
  modelType,
  q,
  schema,
  schemaSet,
  sequence,
  TNS,
  xs,
} from "../../support/schema-factory.js";

const names = (t: ComplexType) => t.attributes.map((a) => a.name.local);

describe("restriction", () => {
  it("inherits the base's attributes, and its bases', after its own, less those restated or prohibited", () => {
    const root = modelType("Root", { attributes: [modelAttribute("fromRoot")] });
    const base = modelType("Base", {
      base: root,
      attributes: ["a", "b", "c"].map((n) => modelAttribute(n)),
    });
    const restricted = modelType("R", { restricts: base, attributes: [modelAttribute("b")] });
    completeRestrictions(new Map([[restricted, new Set([qnameKey({ ns: "", local: "c" })])]]));
    expect(names(restricted)).toEqual(["b", "a", "fromRoot"]);
    // Its own `b`, not the base's.
    expect(restricted.attributes[0]).not.toBe(base.attributes[1]);
  });

  it("completes a restricted base first, whichever order the restrictions come in", () => {
    const base = modelType("Base", { attributes: [modelAttribute("a"), modelAttribute("b")] });
    const r1 = modelType("R1", { restricts: base });
    const r2 = modelType("R2", { restricts: r1 });
    const none = new Set<string>();
    completeRestrictions(
      new Map([
        [r2, none],
        [r1, new Set([qnameKey({ ns: "", local: "b" })])],
      ]),
    );
    expect([names(r1), names(r2)]).toEqual([["a"], ["a"]]);
  });

  it("keys the prohibited attributes by their names as qualified, or by reference", () => {
    const keys = prohibitedAttributes(
      [
        attribute("local", { use: "prohibited" }),
        attribute("kept"),
        attribute("qualified", { use: "prohibited", form: "qualified" }),
        attribute(undefined, { ref: q("global"), use: "prohibited" }),
      ],
      schema(),
    );
    expect([...keys]).toEqual(
      [{ ns: "", local: "local" }, q("qualified"), q("global")].map(qnameKey),
    );
  });

  it("maps a restriction of a declared type with its own fields and the attributes it does not prohibit", () => {
    const { set, diagnostics } = schemaSet(
      schema({
        complexTypes: [
          complexType("Base", {
            particle: sequence([element("x", xs("int")), element("y", xs("int"), { min: 0 })]),
            attributes: [attribute("keep"), attribute("drop"), attribute("restate")],
          }),
          complexType("R", {
            complexContent: derivation("restriction", q("Base"), {
              particle: sequence([element("x", xs("int"))]),
              attributes: [
                attribute("drop", { use: "prohibited" }),
                attribute("restate", { use: "required" }),
              ],
            }),
          }),
        ],
      }),
    );
    const r = mapped(set, "R");
    completeRestrictions(set.restrictions);
    expect(r.restricts?.name).toEqual({ ns: TNS, local: "Base" });
    expect(r.fields.map((f) => f.name.local)).toEqual(["x"]);
    expect(r.attributes.map((a) => [a.name.local, a.required])).toEqual([
      ["restate", true],
      ["keep", false],
    ]);
    expect(diagnostics.items).toEqual([]);
  });
});
