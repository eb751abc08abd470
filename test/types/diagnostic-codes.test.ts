import { describe, expect, it } from "vitest";
import { ERRORS, WARNINGS } from "../../src/diagnostic-codes.js";
import { LIMITATIONS, RECOVERIES } from "../../src/recovery.js";

// Diagnostic.code is the union of these tables' keys; a code in two of them would have two meanings
// (and --strict would refuse a warning of WARNINGS that is also a recovery).
describe("diagnostic code tables", () => {
  it("give every code one meaning, in one table", () => {
    const tables = [RECOVERIES, LIMITATIONS, ERRORS, WARNINGS].map((t) => Object.keys(t));
    const all = tables.flat();
    expect(new Set(all).size).toBe(all.length);
    for (const meaning of [ERRORS, WARNINGS].flatMap((t) => Object.values(t)))
      expect(meaning.length).toBeGreaterThan(0);
  });
});
