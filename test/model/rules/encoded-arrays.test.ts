/**
 * SOAP-encoded arrays (src/model/rules/encoded-arrays.ts): a restriction of soapenc:Array as a
 * typed array.
 */
import { describe, expect, it } from "vitest";
import type { RawAttribute, RawParticle } from "../../../src/parse/xsd.js";
import {
  attribute,
  complexType,
  derivation,
  element,
  mapped,
  q,
  schema,
  schemaSet,
  sequence,
  soapenc,
  TNS,
  xs,
} from "../../support/schema-factory.js";

/** `<attribute ref="soapenc:arrayType" wsdl:arrayType="tns:Item<dims>"/>`. */
const arrayTypeOf = (item: string, dims: string): RawAttribute =>
  attribute(undefined, {
    ref: soapenc("arrayType"),
    arrayType: { item: q(item), dims, text: `tns:${item}${dims}` },
  });

/** A schema of Item and the encoded array Items, restricting soapenc:Array with `content`. */
const arraySet = (content: { attributes?: RawAttribute[]; particle?: RawParticle }) =>
  schemaSet(
    schema({
      complexTypes: [
        complexType("Item", { particle: sequence([element("id", xs("int"))]) }),
        complexType("Items", {
          complexContent: derivation("restriction", soapenc("Array"), content),
        }),
      ],
    }),
  );

describe("SOAP-encoded arrays", () => {
  it("maps an array of tns:Item[] to one repeated, nillable item of type Item, with no attributes", () => {
    const { set, diagnostics } = arraySet({ attributes: [arrayTypeOf("Item", "[]")] });
    const items = mapped(set, "Items");
    expect(items.encodedArray).toEqual({ itemType: { ns: TNS, local: "Item" } });
    expect(items.fields).toHaveLength(1);
    const [item] = items.fields;
    expect(item!.type).toBe(mapped(set, "Item"));
    expect([item!.minOccurs, item!.maxOccurs, item!.nillable]).toEqual([0, Infinity, true]);
    expect([items.attributes, items.anyAttributes, items.anyElements]).toEqual([[], false, false]);
    expect(items.restricts).toBeUndefined();
    expect(diagnostics.items).toEqual([]);
  });

  it("refuses a two-dimensional array, saying where, and keeps its content raw", () => {
    const declared = arrayTypeOf("Item", "[,]");
    const { set, diagnostics } = arraySet({ attributes: [declared] });
    const items = mapped(set, "Items");
    expect(items.encodedArray).toBeUndefined();
    expect([items.fields, items.anyElements, items.anyAttributes]).toEqual([[], true, true]);
    expect(diagnostics.items).toMatchObject([
      { code: "XSD_ENCODED_ARRAY_DIMENSIONS", severity: "warning", line: declared.loc.line },
    ]);
    expect(diagnostics.items[0]!.message).toContain("is declared tns:Item[,]");
  });

  it("takes the item type from the one repeated element when no wsdl:arrayType says it", () => {
    const { set } = arraySet({
      particle: sequence([element("entry", q("Item"), { min: 0, max: Infinity })]),
    });
    const items = mapped(set, "Items");
    expect(items.encodedArray).toEqual({ itemType: q("Item") });
    expect(items.fields.map((f) => f.name.local)).toEqual(["entry"]);
  });

  it("reads an array that names no item type as an array of xs:anyType", () => {
    const { set } = arraySet({});
    const items = mapped(set, "Items");
    expect(items.encodedArray).toEqual({ itemType: xs("anyType") });
    expect(items.fields.map((f) => [f.name.local, f.type.name])).toEqual([["item", xs("anyType")]]);
  });
});
