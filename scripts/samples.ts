/**
 * Regenerates generated-samples/ from fixtures/ (`npm run samples`), or checks that it is fresh
 * (`npm run samples:check`, run by CI): any difference fails with the command that fixes it.
 * Each sample is a fixture WSDL and the folder its output goes to; config.schema.json is kept here too.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { configJsonSchema } from "../src/cli/options.js";
import { formatDiagnostic } from "../src/diagnostics.js";
import { generate } from "../src/generate.js";

export const SAMPLES: readonly { readonly wsdl: string; readonly out: string }[] = [
  { wsdl: "fixtures/message-service/api.wsdl", out: "generated-samples/message-service" },
  { wsdl: "fixtures/xsd-features/features.wsdl", out: "generated-samples/xsd-features" },
];

const check = process.argv.includes("--check");
let failed = false;
for (const s of SAMPLES) {
  const r = await generate(s.wsdl, { out: s.out, check, runtimeImport: "wsdl-tsgen/runtime" });
  for (const d of r.diagnostics) console.error(formatDiagnostic(d));
  if (!r.ok) {
    failed = true;
    continue;
  }
  const stale = [...r.changed.map((f) => `changed: ${s.out}/${f}`), ...r.removed.map((f) => `removed: ${s.out}/${f}`)];
  if (check && stale.length > 0) {
    failed = true;
    console.error(`generated-samples is stale:\n${stale.map((x) => `  ${x}`).join("\n")}`);
  } else if (!check) {
    console.log(`${s.out}: ${r.changed.length} written, ${r.files.length - r.changed.length} unchanged`);
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
