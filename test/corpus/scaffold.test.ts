/**
 * `scaffold --mock` on every root of the development corpus (../shared/corpus, kept out of this
 * repository) that generates: each project compiles as its own tsc would and its own test passes
 * (scripts/corpus-scaffold.ts). Without the corpus the suite is skipped with a one-line note.
 * Needs dist/ (`npm run build`): the projects run against the built runtime.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CORPUS_DIR } from "../../scripts/corpus-dir.js";
import { formatScaffoldReport, scaffoldCorpus } from "../../scripts/corpus-scaffold.js";

const exists = existsSync(CORPUS_DIR);
if (!exists) console.log(`corpus scaffold tests skipped: no corpus at ${CORPUS_DIR}`);

describe.skipIf(!exists)("scaffold --mock over the WSDL corpus", () => {
  it(
    "every root that generates and has a service scaffolds a project that compiles and passes its own test",
    { timeout: 900_000 },
    async () => {
      const report = await scaffoldCorpus();
      console.log(formatScaffoldReport(report));
      const failed = report.results
        .filter((r) => !["ok", "not-generated", "no-service"].includes(r.status))
        .map((r) => `${r.status} ${r.root.id}: ${r.detail}`);
      expect(failed).toEqual([]);
      const noService = report.results.filter((r) => r.status === "no-service").length;
      expect(report.passed).toBe(report.generated - noService);
      // The corpus has well over a hundred servable roots: a run that scaffolds few is broken.
      expect(report.passed).toBeGreaterThan(150);
    },
  );
});
