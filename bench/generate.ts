/**
 * Benchmark 3, generation: end-to-end CLI time and peak memory on the three largest corpus WSDLs
 * both tools can process, ours (`bin/wsdl-tsgen.js generate <wsdl> --out <dir>`) against
 * wsdl-tsclient's CLI (`<wsdl> -o <dir>`). Every run is its own process, started through
 * bench/measure-cli.mjs, which reports the process's peak RSS; wall time is measured here, from spawn
 * to exit. Each run must exit 0 and leave non-empty .ts files, so a failing tool is never counted as
 * fast. Then our stages (parse, model, plan, emit, format) are timed in one more process, to show
 * where our time goes and Prettier's share of it.
 *
 * Roots: those listed in ../shared/corpus/README.md, largest first by "bytes (with imports)" (the root
 * and everything it imports), skipping those noted "identical to another root"; a root counts once
 * both tools generate from it in the check run that precedes the timed rounds.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { CORPUS_DIR, listRoots, type CorpusRoot } from "../scripts/corpus.js";
import { STAGES, type StagesReport } from "./protocol.js";
import { fail, fmt, median, mib, ratio, verdict, Worker } from "./util.js";

const TOOLS = {
  ours: {
    label: "wsdl-tsgen",
    script: "bin/wsdl-tsgen.js",
    args: (wsdl: string, out: string) => ["generate", wsdl, "--out", out, "--quiet"],
  },
  peer: {
    label: "wsdl-tsclient",
    script: "node_modules/wsdl-tsclient/dist/src/cli.js",
    args: (wsdl: string, out: string) => [wsdl, "-o", out, "--quiet"],
  },
} as const;
type Tool = keyof typeof TOOLS;

const ROOTS = 3;
const FORMAT = STAGES.indexOf("format");
const RUN_LIMIT_MS = 120_000;

interface Run {
  readonly ok: boolean;
  readonly ms: number;
  readonly maxRssBytes: number;
  readonly files: number;
  readonly bytes: number;
  readonly why: string;
}

/** The .ts files under `dir` (recursively) and their total size; an empty file counts as a failure. */
function tsOutput(dir: string): { files: number; bytes: number; empty: number } {
  let files = 0;
  let bytes = 0;
  let empty = 0;
  if (!existsSync(dir)) return { files, bytes, empty };
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || !e.name.endsWith(".ts")) continue;
    const size = statSync(path.join(e.parentPath, e.name)).size;
    files++;
    bytes += size;
    if (size === 0) empty++;
  }
  return { files, bytes, empty };
}

/** Runs one tool's CLI on one WSDL in a fresh process and output folder. */
function runCli(tool: Tool, wsdl: string): Promise<Run> {
  const out = mkdtempSync(path.join(tmpdir(), `wsdl-tsgen-bench-${tool}-`));
  const t = TOOLS[tool];
  return new Promise<Run>((resolve) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      ["bench/measure-cli.mjs", t.script, ...t.args(wsdl, out)],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-20_000);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_LIMIT_MS);
    child.on("close", (code, signal) => {
      const ms = performance.now() - started;
      clearTimeout(timer);
      const rss = /@@maxrss (\d+)\s*$/.exec(stderr);
      const o = tsOutput(out);
      rmSync(out, { recursive: true, force: true });
      const why =
        code !== 0
          ? `exited with ${code ?? signal}: ${stderr
              .replace(/@@maxrss \d+\s*$/, "")
              .trim()
              .split("\n")
              .slice(-2)
              .join(" / ")
              .slice(0, 300)}`
          : o.files === 0
            ? "wrote no .ts file"
            : o.empty > 0
              ? `wrote ${o.empty} empty .ts file(s)`
              : !rss
                ? "did not report its peak RSS"
                : "";
      resolve({
        ok: why === "",
        ms,
        maxRssBytes: rss ? Number(rss[1]) * 1024 : NaN,
        files: o.files,
        bytes: o.bytes,
        why,
      });
    });
  });
}

export async function generateBench(opts: { rounds: number }): Promise<void> {
  console.log(
    `\n3. Generation: end-to-end CLI on the ${ROOTS} largest corpus WSDLs both tools process, ours vs wsdl-tsclient`,
  );
  if (!existsSync(path.join(CORPUS_DIR, "README.md"))) {
    console.log(`   skipped: the corpus is not at ${CORPUS_DIR}`);
    return;
  }
  if (!existsSync(TOOLS.peer.script))
    fail(`${TOOLS.peer.script} is missing: run \`npm ci\` (wsdl-tsclient is a devDependency)`);
  const candidates = listRoots()
    .filter((r) => !/identical to another root/.test(r.notes))
    .sort((a, b) => b.bytes - a.bytes || a.id.localeCompare(b.id));
  console.log(
    `   each run its own process (Node ${process.version}), wall time from spawn to exit, peak RSS of that process; median of ${opts.rounds} rounds after a check run, the two tools alternating`,
  );

  const picked: { root: CorpusRoot; check: Record<Tool, Run> }[] = [];
  for (const root of candidates) {
    if (picked.length === ROOTS) break;
    const ours = await runCli("ours", root.file);
    const peer = ours.ok ? await runCli("peer", root.file) : undefined;
    if (ours.ok && peer?.ok) picked.push({ root, check: { ours, peer } });
    else
      console.log(
        `   not counted: ${root.id} (${fmt(root.bytes / 1024, 0)} KiB): ${ours.ok ? `wsdl-tsclient ${peer!.why}` : `wsdl-tsgen ${ours.why}`}`,
      );
  }
  if (picked.length < ROOTS) fail(`only ${picked.length} corpus roots generate with both tools`);

  const speedups: number[] = [];
  const rssRatios: number[] = [];
  for (const { root, check } of picked) {
    const runs: Record<Tool, Run[]> = { ours: [], peer: [] };
    for (let i = 0; i < opts.rounds; i++) {
      for (const tool of (i % 2 ? ["peer", "ours"] : ["ours", "peer"]) as Tool[]) {
        const r = await runCli(tool, root.file);
        if (!r.ok) fail(`${TOOLS[tool].label} on ${root.id}: ${r.why}`);
        if (r.files !== check[tool].files || r.bytes !== check[tool].bytes)
          fail(
            `${TOOLS[tool].label} on ${root.id} wrote ${r.files} files / ${r.bytes} bytes, the check run ${check[tool].files} / ${check[tool].bytes}`,
          );
        runs[tool].push(r);
      }
    }
    const ms = (t: Tool) => median(runs[t].map((r) => r.ms));
    const rss = (t: Tool) => median(runs[t].map((r) => r.maxRssBytes));
    console.log(`\n   ${root.id} (${fmt(root.bytes / 1024, 0)} KiB with imports)`);
    for (const t of ["ours", "peer"] as Tool[]) {
      const c = check[t];
      console.log(
        `     ${TOOLS[t].label.padEnd(14)} ${fmt(ms(t), 0).padStart(6)} ms [${runs[t].map((r) => fmt(r.ms, 0)).join(" ")}]   peak RSS ${fmt(mib(rss(t))).padStart(5)} MiB   ${c.files} .ts files, ${fmt(c.bytes / 1024, 0)} KiB`,
      );
    }
    speedups.push(ms("peer") / ms("ours"));
    rssRatios.push(rss("ours") / rss("peer"));
    console.log(
      `     ours / wsdl-tsclient: time ${ratio(ms("ours"), ms("peer"))} (wsdl-tsclient takes ${ratio(ms("peer"), ms("ours"))} as long), peak RSS ${ratio(rss("ours"), rss("peer"))}`,
    );

    // Where our time goes: the stages, in one process (round 1 cold as in the CLI, then warm).
    const w = new Worker("bench/generate-stages.ts", [root.file, String(Math.min(opts.rounds, 3))]);
    const s = await w.next<StagesReport>(180_000);
    await w.stop();
    const cold = STAGES.map((st) => s.times[st][0]!);
    const total = cold.reduce((a, b) => a + b, 0);
    const warm = STAGES.map((st) => (s.times[st].length > 1 ? median(s.times[st].slice(1)) : NaN));
    const warmTotal = warm.reduce((a, b) => a + b, 0);
    console.log(
      `     our stages, cold: ${STAGES.map((st, i) => `${st} ${fmt(cold[i]!, 0)}`).join(", ")} ms; format (Prettier) ${fmt((100 * cold[FORMAT]!) / total, 0)}% of ${fmt(total, 0)} ms`,
    );
    if (!Number.isNaN(warmTotal))
      console.log(
        `                 warm: ${STAGES.map((st, i) => `${st} ${fmt(warm[i]!, 0)}`).join(", ")} ms; format ${fmt((100 * warm[FORMAT]!) / warmTotal, 0)}% of ${fmt(warmTotal, 0)} ms`,
      );
  }
  const worstSpeedup = Math.min(...speedups);
  const worstRss = Math.max(...rssRatios);
  console.log(
    `\n   over the ${ROOTS} roots: wsdl-tsclient / ours time ${speedups.map((x) => `${fmt(x, 2)}×`).join(", ")}; ours / wsdl-tsclient peak RSS ${rssRatios.map((x) => `${fmt(x, 2)}×`).join(", ")}`,
  );
  console.log(
    `   target ≥ 10× faster on each: ${verdict(worstSpeedup >= 10)};  lower peak RSS on each: ${verdict(worstRss < 1)}`,
  );
}
