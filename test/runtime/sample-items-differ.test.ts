/**
 * The items of a repeated element differ from each other, deterministically and without a seed,
 * so that an `xs:unique` over them holds (issue #45): each scalar varies by the item's place where
 * its type and facets leave room, and the first item is the value a lone element gets.
 */
import { describe, expect, it } from "vitest";
import { scalar, type ScalarDesc } from "../../runtime/src/index.js";
import { always0, scalarText } from "../../runtime/src/descriptors/scalar-sample.js";
import { attribute, complex, field, xs } from "../../runtime/src/descriptors/builders.js";
import { elementSample } from "../../runtime/src/descriptors/sample-values.js";

const plainOf = (kind: string) =>
  kind === "string" ? "string" : kind === "decimal" ? "7.5" : kind === "date" ? "2001-01-01" : "7";
/** The texts of items 0 to `n - 1` of the scalar `d`. */
const items = (d: ScalarDesc, n = 3) =>
  Array.from({ length: n }, (_, i) => scalarText(d, plainOf, false, always0, i));

describe("the items of a repeated element", () => {
  it("are numbers a hundred apart, or one apart where the bounds are near", () => {
    expect(items(scalar("int"))).toEqual(["7", "107", "207"]);
    expect(items(scalar("decimal"))).toEqual(["7.5", "107.5", "207.5"]);
    expect(items(scalar("byte", { maxInclusive: "20" }))).toEqual(["7", "-93", "9"]);
    expect(items(scalar("int", { minInclusive: "1", maxInclusive: "9" }))).toEqual(["7", "8", "9"]);
  });

  it("are strings numbered within their length, dates days apart, enumerations in turn", () => {
    expect(items(scalar("string"))).toEqual(["string", "string 2", "string 3"]);
    expect(items(scalar("string", { maxLength: 6 }))).toEqual(["string", "strin2", "strin3"]);
    expect(items(scalar("date"))).toEqual(["2001-01-01", "2001-01-02", "2001-01-03"]);
    expect(items(scalar("string", { values: ["A", "B"] }))).toEqual(["A", "B", "A"]);
    const code = items(scalar("string", { pattern: ["[A-Z]{2}[0-9]"] }));
    expect(new Set(code).size).toBe(3);
    for (const c of code) expect(c).toMatch(/^[A-Z]{2}[0-9]$/);
  });

  it("stay the same where the type has one value only", () => {
    expect(items(scalar("string", { values: ["only"] }))).toEqual(["only", "only", "only"]);
    expect(items(scalar("string", { length: 0 }))).toEqual(["", "", ""]);
  });

  it("differ in their attributes too, unseeded and seeded (an xs:unique over @id)", () => {
    const Item = complex("Item", () => [], {
      attrs: [attribute("id", "", scalar("integer"), { required: true })],
    });
    const Order = complex("Order", () => [field("item", "urn:o", Item, { min: 0, max: 3 })]);
    for (const options of [undefined, { seed: 3 }]) {
      const v = elementSample(field("Order", "urn:o", Order), options) as {
        item: { id: bigint }[];
      };
      expect(new Set(v.item.map((i) => i.id)).size).toBe(v.item.length);
    }
  });

  it("give every xs:ID of a message its own value, wherever it stands (cvc-id.2)", () => {
    const Part = complex("Part", () => [], {
      attrs: [attribute("Id", "", xs.ID, { required: true })],
    });
    const Doc = complex("Doc", () => [field("rq", "urn:o", Part), field("rs", "urn:o", Part)], {
      attrs: [attribute("Id", "", xs.ID), attribute("Ref", "", xs.ID, { required: true })],
    });
    for (const options of [undefined, { seed: 3 }]) {
      const v = elementSample(field("Doc", "urn:o", Doc), options) as {
        Id: string;
        Ref: string;
        rq: { Id: string };
        rs: { Id: string };
      };
      const ids = [v.Id, v.Ref, v.rq.Id, v.rs.Id];
      expect(new Set(ids).size, ids.join(" ")).toBe(4);
      for (const id of ids) expect(id).toMatch(/^[A-Za-z_][\w.-]*$/);
    }
  });
});
