/**
 * Attributes (src/model/rules/attributes.ts): groups expanded in place, refs followed, defects
 * recovered.
 */
import { describe, expect, it } from "vitest";
import { NS } from "../../../src/parse/namespaces.js";
import {
  attribute,
  attributeGroup,
  attributeGroupRef,
  complexType,
  mapped,
  q,
  schema,
  schemaSet,
  xs,
} from "../../support/schema-factory.js";

const groupRef = (local: string) => attributeGroupRef(q(local));

describe("attributes", () => {
  it("expands groups in place, follows refs to their type with the use's settings first, and leaves prohibited uses out", () => {
    const { set, diagnostics } = schemaSet(
      schema({
        attributeFormDefault: "qualified",
        attributes: [attribute("global", { type: xs("int"), default: "1", fixed: "1" })],
        attributeGroups: [
          attributeGroup("G", [attribute("g1"), attribute("g2", { use: "required" })]),
        ],
        complexTypes: [
          complexType("T", {
            attributes: [
              attribute("first", { form: "unqualified" }),
              groupRef("G"),
              attribute(undefined, { ref: q("global"), default: "2" }),
              attribute("gone", { use: "prohibited" }),
              attribute(undefined, { ref: { ns: NS.xml, local: "lang" } }),
            ],
          }),
        ],
      }),
    );
    const t = mapped(set, "T");
    expect(
      t.attributes.map((a) => [a.name.local, a.name.ns, a.type.name?.local, a.required, a.default]),
    ).toEqual([
      ["first", "", "string", false, undefined],
      ["g1", "urn:test", "string", false, undefined],
      ["g2", "urn:test", "string", true, undefined],
      ["global", "urn:test", "int", false, "2"],
      ["lang", NS.xml, "string", false, undefined],
    ]);
    expect(t.attributes[3]!.fixed).toBe("1");
    expect(diagnostics.items).toEqual([]);
  });

  it("reads an attribute declared nowhere as a string, and a group declared nowhere opens the type", () => {
    const { set, diagnostics } = schemaSet(
      schema({
        complexTypes: [
          complexType("T", {
            attributes: [attribute(undefined, { ref: q("nowhere") }), groupRef("NoGroup")],
          }),
        ],
      }),
    );
    const t = mapped(set, "T");
    expect(t.attributes.map((a) => [a.name.local, a.type.name?.local])).toEqual([
      ["nowhere", "string"],
    ]);
    expect(t.anyAttributes).toBe(true);
    expect(diagnostics.items.map((d) => [d.code, d.message.split(";")[0]])).toEqual([
      ["XSD_UNRESOLVED", expect.stringContaining("attribute {urn:test}nowhere")],
      ["XSD_UNRESOLVED", expect.stringContaining("attribute group {urn:test}NoGroup")],
    ]);
  });

  it("leaves a group out of itself, saying where", () => {
    const loop = groupRef("Loop");
    const { set, diagnostics } = schemaSet(
      schema({
        attributeGroups: [attributeGroup("Loop", [attribute("x"), loop])],
        complexTypes: [complexType("T", { attributes: [groupRef("Loop")] })],
      }),
    );
    expect(mapped(set, "T").attributes.map((a) => a.name.local)).toEqual(["x"]);
    expect(diagnostics.items).toMatchObject([{ code: "XSD_CIRCULAR", line: loop.loc.line }]);
  });
});
