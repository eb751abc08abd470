// Two builds of the CLI bundle run alternately on one input, as `bin/wsdl-tsgen.js generate` runs
// them: a change worth a few percent shows here, where runs a minute apart differ by more.
// Each run puts its bundle at dist/cli/bundle.js (its relative paths hold only there); the one
// found there is put back at the end.
// Usage: cp dist/cli/bundle.js /tmp/before.js; (change the code); npm run build;
//        node bench/cli-ab.mjs /tmp/before.js dist/cli/bundle.js <wsdl> [pairs, default 10]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const [a, b, wsdl, pairs = "10"] = process.argv.slice(2);
if (!a || !b || !wsdl) {
  console.error("usage: node bench/cli-ab.mjs <bundle A> <bundle B> <wsdl> [pairs]");
  process.exit(2);
}
const BUNDLE = "dist/cli/bundle.js";
const builds = { A: readFileSync(a), B: readFileSync(b) };
const original = readFileSync(BUNDLE);
const out = mkdtempSync(path.join(tmpdir(), "wsdl-tsgen-cli-ab-"));
const times = { A: [], B: [] };
try {
  for (let i = 0; i < Number(pairs); i++) {
    for (const k of i % 2 ? ["B", "A"] : ["A", "B"]) {
      writeFileSync(BUNDLE, builds[k]);
      const started = performance.now();
      const r = spawnSync(process.execPath, ["bin/wsdl-tsgen.js", "generate", wsdl, "--out", out]);
      if (r.status !== 0) throw new Error(`${k} failed: ${r.stderr}`);
      times[k].push(performance.now() - started);
    }
  }
} finally {
  writeFileSync(BUNDLE, original);
  rmSync(out, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
const [ma, mb] = [median(times.A), median(times.B)];
const medians = `A ${ma.toFixed(0)} ms, B ${mb.toFixed(0)} ms (medians of ${pairs})`;
console.log(`${medians}; B / A = ${(mb / ma).toFixed(3)}`);
