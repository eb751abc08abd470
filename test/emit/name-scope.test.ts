/** NameScope: unique names in one scope, deterministically: the first keeps its name, then `_2`, `_3`. */
import { describe, expect, it } from "vitest";
import { NameScope } from "../../src/names/identifiers.js";

describe("NameScope", () => {
  it("numbers repeats from 2, skipping names taken otherwise (reserved, or claimed as written)", () => {
    const s = new NameScope(["Reserved", "Item_3"]);
    const got = [
      "Item",
      "Item",
      "Reserved",
      "Item",
      "Item_2",
      "Item",
      "Item_5",
      "Item",
      "Other",
    ].map((w) => s.claim(w));
    expect(got).toEqual([
      "Item",
      "Item_2",
      "Reserved_2",
      "Item_4",
      "Item_2_2",
      "Item_5",
      "Item_5_2",
      "Item_6",
      "Other",
    ]);
    expect(s.has("Item_3")).toBe(true);
    expect(s.has("Item_7")).toBe(false);
  });

  it("gives thousands of claims of one name their numbers in order", () => {
    const s = new NameScope();
    const names = Array.from({ length: 20_000 }, () => s.claim("Result"));
    expect(names[0]).toBe("Result");
    expect(names[19_999]).toBe("Result_20000");
    expect(new Set(names).size).toBe(20_000);
  });
});
