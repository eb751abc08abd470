/**
 * Generation benchmark helper, in its own process: times the stages of generating one WSDL with the
 * built generator (dist/), as the CLI runs them: parse (read + XML + raw documents), model, plan
 * (transform passes), emit (emitters and the printer) and write. Round 1 is cold, as in a CLI run
 * (with the CLI's engine flags); the others show the same work warming up. Sends a StagesReport and
 * exits. Usage (from bench/generate.ts): generate-stages.ts <wsdl> <rounds>
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { setFlagsFromString } from "node:v8";
import { CLI_ENGINE_FLAGS } from "../dist/cli/main.js";
import { emitFiles } from "../dist/emit/emit.js";
import { embeddedWsdl, sourceLabel } from "../dist/generate.js";
import { buildModel } from "../dist/model/build.js";
import { loadDocuments } from "../dist/parse/loader.js";
import { plan } from "../dist/transform/passes.js";
import { STAGES, type Stage, type StagesReport } from "./protocol.js";
import { reply } from "./util.js";

setFlagsFromString(CLI_ENGINE_FLAGS);
const [wsdl, roundsArg] = process.argv.slice(2);
const rounds = Math.max(1, Number(roundsArg) || 1);
const times = Object.fromEntries(STAGES.map((s) => [s, [] as number[]])) as Record<Stage, number[]>;
for (let i = 0; i < rounds; i++) {
  let t = performance.now();
  const lap = (stage: Stage) => {
    const now = performance.now();
    times[stage].push(now - t);
    t = now;
  };
  const docs = await loadDocuments(wsdl!, {});
  lap("parse");
  const built = buildModel(docs, sourceLabel(wsdl!));
  lap("model");
  const p = plan(built.model, built.nameHints, new Map());
  lap("plan");
  const files = emitFiles(p, {
    runtimeImport: "@wsdl-tsgen/runtime",
    sourceLabel: sourceLabel(wsdl!),
    wsdl: embeddedWsdl(docs),
  });
  lap("emit");
  const out = mkdtempSync(path.join(tmpdir(), "wsdl-tsgen-stages-"));
  for (const f of files) writeFileSync(path.join(out, f.path), f.content);
  lap("write");
  rmSync(out, { recursive: true, force: true });
}
const report: StagesReport = { times };
await reply(report);
process.exit(0);
