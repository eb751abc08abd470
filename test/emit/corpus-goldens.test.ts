/**
 * The corpus goldens (scripts/corpus-goldens.ts): each representative root of ../shared/corpus is
 * regenerated in memory and every file compared with its checked-in copy under
 * generated-samples/corpus/. tsconfig.json includes generated-samples/, so `npm run typecheck`
 * compiles the goldens with the strict flags. Skipped, saying so, when the corpus is absent.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CORPUS_GOLDENS,
  GOLDEN_OPTIONS,
  SKIP_LINE,
  corpusPresent,
  goldenOut,
  goldenRoot,
} from "../../scripts/corpus-goldens.js";
import { generateFiles } from "../../src/generate.js";

const present = corpusPresent();
if (!present) console.log(SKIP_LINE);

describe.skipIf(!present)("corpus goldens", () => {
  for (const g of CORPUS_GOLDENS) {
    it(`${g.name} matches generated-samples/corpus/${g.name}`, async () => {
      const { files, diagnostics, model } = await generateFiles(goldenRoot(g), GOLDEN_OPTIONS);
      expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      expect(model).toBeDefined();
      // No embedded WSDL: the server takes the text from its options.
      expect(files.map((f) => f.path)).toEqual([
        "client.ts",
        "descriptors.ts",
        "faults.ts",
        "index.ts",
        "server.ts",
        "types.ts",
      ]);
      expect(readdirSync(goldenOut(g)).sort()).toEqual(files.map((f) => f.path));
      for (const f of files)
        await expect(f.content).toMatchFileSnapshot(`../../${goldenOut(g)}/${f.path}`);
    }, 60_000);
  }
});
