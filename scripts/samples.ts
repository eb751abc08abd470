/**
 * Regenerates generated-samples/ from fixtures/ (`npm run samples`), or checks that it is fresh
 * (`npm run samples:check`, run by CI): any difference fails with the command that fixes it.
 * Each sample is a fixture WSDL and the folder its output goes to.
 */
import { generate } from "../src/generate.js";
import { formatDiagnostic } from "../src/diagnostics.js";

export const SAMPLES: readonly { readonly wsdl: string; readonly out: string }[] = [
  { wsdl: "fixtures/message-service/api.wsdl", out: "generated-samples/message-service" },
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
if (failed && check) console.error("Run `npm run samples` and commit the result.");
process.exitCode = failed ? 1 : 0;
