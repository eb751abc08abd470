/**
 * Content flattening (src/model/rules/flatten.ts): nested particles and groups into ordered
 * fields.
 */
import { describe, expect, it } from "vitest";
import type { ComplexType } from "../../../src/model/model.js";
import {
  any,
  complexType,
  element,
  group,
  groupRef,
  mapped,
  q,
  schema,
  schemaSet,
  sequence,
  TNS,
  xs,
} from "../../support/schema-factory.js";

/** Each field as name, minOccurs and maxOccurs, in order. */
const occurrences = (t: ComplexType) =>
  t.fields.map((f) => [f.name.local, f.minOccurs, f.maxOccurs]);

describe("content flattening", () => {
  it("gives the elements of nested sequences and groups in document order, with the occurrence around them", () => {
    const { set, diagnostics } = schemaSet(
      schema({
        groups: [
          group("G", sequence([element("d", xs("int")), element("e", xs("int"), { min: 0 })])),
        ],
        complexTypes: [
          complexType("T", {
            particle: sequence([
              element("a", xs("string")),
              sequence([element("b", xs("string")), element("c", xs("string"))], { min: 0 }),
              groupRef(q("G"), { min: 0, max: Infinity }),
              sequence([element("never", xs("string"), { max: 0 })], { max: 3 }),
            ]),
          }),
        ],
      }),
    );
    expect(occurrences(mapped(set, "T"))).toEqual([
      ["a", 1, 1],
      ["b", 0, 1],
      ["c", 0, 1],
      ["d", 0, Infinity],
      ["e", 0, Infinity],
      // An element that may not occur stays so in a repeated sequence.
      ["never", 1, 0],
    ]);
    expect(diagnostics.items).toEqual([]);
  });

  it("names fields as the schema qualifies them: qualified locals and refs in their namespace", () => {
    const { set } = schemaSet(
      schema({
        elementFormDefault: "unqualified",
        complexTypes: [
          complexType("T", {
            particle: sequence([
              element("plain", xs("string")),
              element("forced", xs("string"), { form: "qualified" }),
            ]),
          }),
        ],
      }),
    );
    expect(mapped(set, "T").fields.map((f) => f.name)).toEqual([
      { ns: "", local: "plain" },
      q("forced"),
    ]);
  });

  it("keeps the place of the first xs:any when a field follows it, and only then", () => {
    const { set } = schemaSet(
      schema({
        complexTypes: [
          complexType("Middle", {
            particle: sequence([element("a", xs("int")), any(), element("b", xs("int")), any()]),
          }),
          complexType("End", { particle: sequence([element("a", xs("int")), any()]) }),
        ],
      }),
    );
    const middle = mapped(set, "Middle");
    expect([middle.anyElements, middle.anyPosition]).toEqual([true, 1]);
    const end = mapped(set, "End");
    expect([end.anyElements, end.anyPosition]).toEqual([true, undefined]);
  });

  it("fills a required strict wildcard with a declared element whose empty content is valid", () => {
    const { set } = schemaSet(
      schema({
        elements: [
          element("typed", xs("int")),
          element("fixed", xs("string"), { fixed: "x" }),
          element("note", xs("string")),
        ],
        complexTypes: [
          complexType("Strict", { particle: sequence([any()]) }),
          complexType("Lax", { particle: sequence([{ ...any(), processContents: "lax" }]) }),
          complexType("Other", { particle: sequence([{ ...any(), namespace: "##other" }]) }),
          complexType("Optional", { particle: sequence([any({ min: 0 })]) }),
        ],
      }),
    );
    const sample = (local: string) => {
      const t = mapped(set, local);
      return [t.anyRequired, t.anyElement];
    };
    expect(sample("Strict")).toEqual([TNS, "note"]);
    // Lax content, or a strict wildcard no declared element meets: an undeclared element.
    expect(sample("Lax")).toEqual(["urn:wsdl-tsgen:sample", undefined]);
    expect(sample("Other")).toEqual(["urn:wsdl-tsgen:sample", undefined]);
    expect(sample("Optional")).toEqual([undefined, undefined]);
  });

  it("leaves a group out of itself, saying where, and keeps the rest of it", () => {
    const selfRef = groupRef(q("Loop"));
    const { set, diagnostics } = schemaSet(
      schema({
        groups: [group("Loop", sequence([element("x", xs("int")), selfRef]))],
        complexTypes: [complexType("T", { particle: groupRef(q("Loop")) })],
      }),
    );
    expect(occurrences(mapped(set, "T"))).toEqual([["x", 1, 1]]);
    expect(diagnostics.items).toMatchObject([
      { code: "XSD_CIRCULAR", line: selfRef.loc.line, severity: "warning" },
    ]);
    expect(diagnostics.items[0]!.message).toContain("the group {urn:test}Loop contains itself");
  });

  it("keeps the content of a group declared nowhere raw, where it stood", () => {
    const { set, diagnostics } = schemaSet(
      schema({
        complexTypes: [
          complexType("T", {
            particle: sequence([groupRef(q("Missing")), element("after", xs("int"))]),
          }),
        ],
      }),
    );
    const t = mapped(set, "T");
    expect([t.anyElements, t.anyPosition, t.fields.length]).toEqual([true, 0, 1]);
    expect(diagnostics.items.map((d) => d.code)).toEqual(["XSD_UNRESOLVED"]);
  });
});
