/** docs/coverage.md carries the table of corpus roots that do not generate, exactly as expected-failures.ts lists them. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFECT_COUNT, EXPECTED_FAILURES, expectedFailuresMarkdown } from "./expected-failures.js";

const coverage = readFileSync(new URL("../../docs/coverage.md", import.meta.url), "utf8");

describe("expected corpus failures", () => {
  it("docs/coverage.md holds the table generated from expected-failures.ts", () => {
    const table = expectedFailuresMarkdown();
    expect(coverage.includes(table), `docs/coverage.md, "The corpus", should hold:\n${table}`).toBe(
      true,
    );
  });

  it("every entry has a code, a category and a one-sentence reason", () => {
    for (const [id, f] of Object.entries(EXPECTED_FAILURES)) {
      expect(id, id).toMatch(/^[\w.-]+\/[\w.-]+:\S+$/);
      expect(f.code, id).toMatch(/^[A-Z]+(_[A-Z]+)+$/);
      expect(f.reason, id).toMatch(/^[A-Za-z].*\.$/);
    }
    expect(coverage).toContain(
      `${DEFECT_COUNT} of the ${Object.keys(EXPECTED_FAILURES).length} that do not are defects`,
    );
  });
});
