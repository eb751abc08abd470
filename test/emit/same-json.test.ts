/** sameJson: the equality of two code trees' JSON text, without writing it. */
import { describe, expect, it } from "vitest";
import { array, arrow, block, call, cat, object, sameJson, union } from "../../src/emit/code.js";

describe("sameJson", () => {
  it("agrees with comparing JSON.stringify's text on code trees, members and edge values", () => {
    const trees: unknown[] = [
      "a",
      "b",
      cat("a", "b"),
      cat("a", "b"),
      cat("ab"),
      call("f", "x"),
      call("f", "y"),
      array(["1", "2"]),
      array(["1"]),
      object([["k", "v"]]),
      union(["A", "B"]),
      union(["B", "A"]),
      arrow("()", "x"),
      block("interface X", [{ code: "a: A;" }]),
      block("interface X", [{ code: "a: A;", doc: "d" }]),
      { code: "a;" },
      { code: "a;", doc: undefined },
      { doc: undefined, code: "a;" },
      { code: "a;", gap: true },
      { gap: true, code: "a;" },
      { w: Infinity },
      { w: NaN },
      { w: 1 },
      [],
      {},
      null,
      0,
      "0",
    ];
    for (const a of trees)
      for (const b of trees) expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
  });
});
