/**
 * Benchmark 3, generation: end-to-end CLI time and peak memory on the three largest corpus WSDLs
 * both tools can process, and on a synthetic WSDL of about 2, 8 and 32 MiB
 * (bench/synthetic-wsdl.ts: a corpus service repeated under new names, so growth with size shows),
 * ours (`bin/wsdl-tsgen.js generate <wsdl> --out <dir>`) against wsdl-tsclient's CLI (`<wsdl> -o
 * <dir>`). Every run is its own process, started through bench/measure-cli.mjs, which reports the
 * process's peak RSS; wall time is measured here, from spawn to exit. Each run must exit 0 and
 * leave non-empty .ts files, so a failing tool is never counted as fast. Then our stages (parse,
 * model, plan, emit, write) are timed in one more process, to show where our time goes. No
 * formatter runs: the printer lays the code out as the emitters build it, inside "emit".
 *
 * Roots: those listed in ../shared/corpus/README.md, largest first by "bytes (with imports)" (the
 * root and everything it imports), skipping those noted "identical to another root"; a root counts
 * once both tools generate from it in the check run that precedes the timed rounds.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { CORPUS_DIR, listRoots } from "../scripts/corpus.js";
import { syntheticWsdl } from "./synthetic-wsdl.js";
import { STAGES, type StagesReport } from "./protocol.js";
import { fail, fmt, median, mib, ratio, verdict, Worker } from "./util.js";

export const TOOLS = {
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
export type Tool = keyof typeof TOOLS;

const ROOTS = 3;
const SYNTHETIC_MIB = [2, 8, 32];
const RUN_LIMIT_MS = 300_000;

interface Run {
  readonly ok: boolean;
  readonly ms: number;
  readonly maxRssBytes: number;
  readonly files: number;
  readonly bytes: number;
  readonly why: string;
}

/**
 * The .ts files under `dir` (recursively) and their total size; an empty file counts as a failure.
 */
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

interface Input {
  readonly id: string;
  readonly file: string;
  readonly bytes: number;
}

interface Measured {
  readonly ms: Record<Tool, number>;
  readonly rss: Record<Tool, number>;
}

/** Times both tools on one input, alternating, and prints the figures and our stages. */
async function measure(input: Input, check: Record<Tool, Run>, rounds: number): Promise<Measured> {
  const runs: Record<Tool, Run[]> = { ours: [], peer: [] };
  for (let i = 0; i < rounds; i++) {
    for (const tool of (i % 2 ? ["peer", "ours"] : ["ours", "peer"]) as Tool[]) {
      const r = await runCli(tool, input.file);
      if (!r.ok) fail(`${TOOLS[tool].label} on ${input.id}: ${r.why}`);
      if (r.files !== check[tool].files || r.bytes !== check[tool].bytes)
        fail(
          `${TOOLS[tool].label} on ${input.id} wrote ${r.files} files / ${r.bytes} bytes, the check run ${check[tool].files} / ${check[tool].bytes}`,
        );
      runs[tool].push(r);
    }
  }
  const ms = (t: Tool) => median(runs[t].map((r) => r.ms));
  const rss = (t: Tool) => median(runs[t].map((r) => r.maxRssBytes));
  console.log(`\n   ${input.id} (${fmt(mib(input.bytes), 2)} MiB with imports)`);
  for (const t of ["ours", "peer"] as Tool[]) {
    const c = check[t];
    console.log(
      `     ${TOOLS[t].label.padEnd(14)} ${fmt(ms(t), 0).padStart(6)} ms [${runs[t].map((r) => fmt(r.ms, 0)).join(" ")}]   peak RSS ${fmt(mib(rss(t))).padStart(6)} MiB   ${c.files} .ts files, ${fmt(c.bytes / 1024, 0)} KiB`,
    );
  }
  console.log(
    `     ours / wsdl-tsclient: time ${ratio(ms("ours"), ms("peer"))} (wsdl-tsclient takes ${ratio(ms("peer"), ms("ours"))} as long), peak RSS ${ratio(rss("ours"), rss("peer"))}`,
  );
  await stages(input.file, rounds);
  return {
    ms: { ours: ms("ours"), peer: ms("peer") },
    rss: { ours: rss("ours"), peer: rss("peer") },
  };
}

/**
 * Where our time goes: the stages in one process, one line each, round 1 cold as in the CLI, then
 * warm (the median of the other rounds), with each stage's share of the cold total.
 */
async function stages(file: string, rounds: number): Promise<void> {
  const w = new Worker("bench/generate-stages.ts", [file, String(rounds)]);
  const s = await w.next<StagesReport>(RUN_LIMIT_MS);
  await w.stop();
  const cold = STAGES.map((st) => s.times[st][0]!);
  const total = cold.reduce((a, b) => a + b, 0);
  const after = rounds > 1 ? "; warm: the median of the rounds after the first" : "";
  console.log(`     our stages, in one process (cold: ${fmt(total, 0)} ms in all${after}):`);
  STAGES.forEach((st, i) => {
    const warm = rounds > 1 ? `, warm ${fmt(median(s.times[st].slice(1)), 0).padStart(5)} ms` : "";
    const share = `${fmt((100 * cold[i]!) / total, 0).padStart(3)}%`;
    console.log(
      `       ${st.padEnd(10)} cold ${fmt(cold[i]!, 0).padStart(5)} ms (${share})${warm}`,
    );
  });
  const formatter = "none in these stages (`--format prettier` runs the user's own, after)";
  console.log(`       ${"formatting".padEnd(10)} ${formatter}`);
}

/** Both tools' check run on an input; undefined, saying why, when either fails. */
async function checked(input: Input): Promise<Record<Tool, Run> | undefined> {
  const ours = await runCli("ours", input.file);
  const peer = ours.ok ? await runCli("peer", input.file) : undefined;
  if (ours.ok && peer?.ok) return { ours, peer };
  console.log(
    `   not counted: ${input.id} (${fmt(mib(input.bytes), 2)} MiB): ${ours.ok ? `wsdl-tsclient ${peer!.why}` : `wsdl-tsgen ${ours.why}`}`,
  );
  return undefined;
}

/** `synthetic`: the sizes of the synthetic WSDLs, in MiB (the type-check benchmark's, with it). */
export async function generateBench(opts: {
  rounds: number;
  synthetic?: readonly number[];
}): Promise<void> {
  const sizes = opts.synthetic ?? SYNTHETIC_MIB;
  console.log(
    `\n3. Generation: end-to-end CLI on the ${ROOTS} largest corpus WSDLs both tools process and a synthetic WSDL of ${sizes.join(", ")} MiB, ours vs wsdl-tsclient`,
  );
  if (!existsSync(path.join(CORPUS_DIR, "README.md"))) {
    console.log(`   skipped: the corpus is not at ${CORPUS_DIR}`);
    return;
  }
  if (!existsSync(TOOLS.peer.script))
    fail(`${TOOLS.peer.script} is missing: run \`npm ci\` (wsdl-tsclient is a devDependency)`);
  console.log(
    `   each run its own process (Node ${process.version}), wall time from spawn to exit, peak RSS of that process; median of ${opts.rounds} rounds after a check run, the two tools alternating`,
  );
  const candidates = listRoots()
    .filter((r) => !/identical to another root/.test(r.notes))
    .sort((a, b) => b.bytes - a.bytes || a.id.localeCompare(b.id));
  const inputs: { input: Input; check: Record<Tool, Run> }[] = [];
  for (const root of candidates) {
    if (inputs.length === ROOTS) break;
    const input = { id: root.id, file: root.file, bytes: root.bytes };
    const check = await checked(input);
    if (check) inputs.push({ input, check });
  }
  if (inputs.length < ROOTS) fail(`only ${inputs.length} corpus roots generate with both tools`);
  const dir = mkdtempSync(path.join(tmpdir(), "wsdl-tsgen-synthetic-"));
  try {
    for (const size of sizes) {
      const s = syntheticWsdl(dir, size * 2 ** 20);
      const input = { id: `synthetic ${size} MiB (FedEx rate ×${s.copies})`, ...s };
      const check = await checked(input);
      if (!check) fail(`the synthetic ${size} MiB WSDL does not generate with both tools`);
      inputs.push({ input, check });
    }
    const results: { input: Input; m: Measured }[] = [];
    for (const { input, check } of inputs)
      results.push({ input, m: await measure(input, check, opts.rounds) });
    summary(results, sizes);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function summary(
  results: readonly { input: Input; m: Measured }[],
  sizes: readonly number[],
): void {
  const speedup = (m: Measured) => m.ms.peer / m.ms.ours;
  const rssRatio = (m: Measured) => m.rss.ours / m.rss.peer;
  console.log(
    `\n   wsdl-tsclient / ours time: ${results.map((r) => `${fmt(speedup(r.m), 2)}×`).join(", ")}; ours / wsdl-tsclient peak RSS: ${results.map((r) => `${fmt(rssRatio(r.m), 2)}×`).join(", ")}`,
  );
  const large = results.filter((r) => r.input.bytes >= 2 * 2 ** 20);
  console.log(
    `   on the ${large.length} inputs of 2 MiB or more: ≥ 10× faster on each: ${verdict(large.every((r) => speedup(r.m) >= 10))} (worst ${fmt(Math.min(...large.map((r) => speedup(r.m))), 2)}×); lower peak RSS on each: ${verdict(large.every((r) => rssRatio(r.m) < 1))}`,
  );
  const synthetic = (mibs: number) =>
    results.find((r) => r.input.id.startsWith(`synthetic ${mibs} MiB`))!;
  // The two largest: their sizes' ratio bounds the time's, with an eighth to spare.
  const [a, b] = [...sizes].sort((x, y) => x - y).slice(-2) as [number, number];
  const [lesser, greater] = [synthetic(a), synthetic(b)];
  const growth = greater.m.ms.ours / lesser.m.ms.ours;
  const larger = greater.input.bytes / lesser.input.bytes;
  const bound = (b / a) * 1.125;
  console.log(
    `   growth: ours on ${b} MiB takes ${fmt(growth, 2)}× its time on ${a} MiB (input ${fmt(larger, 2)}× larger): ≤ ${fmt(bound, 2)}×: ${verdict(growth <= bound)}`,
  );
}
