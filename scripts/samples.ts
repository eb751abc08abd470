/**
 * Regenerates generated-samples/ from fixtures/ (`npm run samples`), or checks that it is fresh
 * (`npm run samples:check`, run by CI): any difference fails with the command that fixes it.
 * Each sample is a fixture WSDL and the folder its output goes to; config.schema.json is kept here too.
 * The corpus goldens (scripts/corpus-goldens.ts) are generated from ../shared/corpus without the
 * embedded WSDL or copied documentation; without the corpus they are skipped with one line.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { configJsonSchema } from "../src/config/options.js";
import { formatDiagnostic } from "../src/diagnostics.js";
import { generate } from "../src/generate.js";
import {
  CORPUS_GOLDENS,
  GOLDEN_OPTIONS,
  SKIP_LINE,
  corpusPresent,
  goldenOut,
  goldenRoot,
} from "./corpus-goldens.js";

export const SAMPLES: readonly { readonly wsdl: string; readonly out: string }[] = [
  { wsdl: "fixtures/message-service/api.wsdl", out: "generated-samples/message-service" },
  { wsdl: "fixtures/xsd-features/features.wsdl", out: "generated-samples/xsd-features" },
  { wsdl: "fixtures/multipart/multipart.wsdl", out: "generated-samples/multipart" },
  { wsdl: "fixtures/encoded-arrays/encoded-arrays.wsdl", out: "generated-samples/encoded-arrays" },
  { wsdl: "fixtures/choices/choices.wsdl", out: "generated-samples/choices" },
  { wsdl: "fixtures/documents/documents.wsdl", out: "generated-samples/documents" },
  { wsdl: "fixtures/swa/scans.wsdl", out: "generated-samples/swa" },
];

const check = process.argv.includes("--check");
const verbose = process.argv.includes("--verbose");
let failed = false;
const corpus = corpusPresent();
if (!corpus) console.log(SKIP_LINE);
const all = [
  ...SAMPLES.map((s) => ({ ...s, options: { runtimeImport: "@wsdl-tsgen/runtime" } })),
  ...(corpus
    ? CORPUS_GOLDENS.map((g) => ({
        wsdl: goldenRoot(g),
        out: goldenOut(g),
        options: GOLDEN_OPTIONS,
      }))
    : []),
];
for (const s of all) {
  const r = await generate(s.wsdl, { out: s.out, check, ...s.options });
  // Errors in full; warnings (known, listed in docs/coverage.md for the corpus goldens) counted by code unless --verbose.
  for (const d of r.diagnostics)
    if (d.severity === "error" || verbose)
      console.error(
        formatDiagnostic(
          path.isAbsolute(d.file) ? { ...d, file: path.relative(process.cwd(), d.file) } : d,
        ),
      );
  const warnings = new Map<string, number>();
  for (const d of r.diagnostics)
    if (d.severity === "warning") warnings.set(d.code, (warnings.get(d.code) ?? 0) + 1);
  if (warnings.size > 0 && !verbose)
    console.log(
      `${s.out}: warnings ${[...warnings].map(([c, n]) => `${c} ×${n}`).join(", ")} (--verbose lists them)`,
    );
  if (!r.ok) {
    failed = true;
    continue;
  }
  const stale = [
    ...r.changed.map((f) => `changed: ${s.out}/${f}`),
    ...r.removed.map((f) => `removed: ${s.out}/${f}`),
  ];
  if (check && stale.length > 0) {
    failed = true;
    console.error(`generated-samples is stale:\n${stale.map((x) => `  ${x}`).join("\n")}`);
  } else if (!check) {
    console.log(
      `${s.out}: ${r.changed.length} written, ${r.files.length - r.changed.length} unchanged`,
    );
  }
}
// config.schema.json is derived from the options table too.
const schema = `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
const current = (() => {
  try {
    return readFileSync("config.schema.json", "utf8");
  } catch {
    return undefined;
  }
})();
if (current !== schema) {
  if (check) {
    failed = true;
    console.error("config.schema.json is stale");
  } else writeFileSync("config.schema.json", schema);
}
if (failed && check) console.error("Run `npm run samples` and commit the result.");
process.exitCode = failed ? 1 : 0;
