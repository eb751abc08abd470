/**
 * Benchmark 5, scaffolding: that `generate` pays nothing for `scaffold`, and what `scaffold` costs.
 * Each run is its own process started as bin/wsdl-tsgen.js is (through bench/measure-cli.mjs, for
 * the peak RSS), with a resolve hook that logs the modules it loads (bench/module-log.mjs):
 *   A  `generate`, as users run it;
 *   B  the same, with Handlebars and ts-morph loaded first: what `generate` would pay if it loaded
 *      the scaffold's dependencies (the peer of A, alternating with it in the same run);
 *   then `scaffold`, `scaffold --mock` and `scaffold --update` (nothing to change), as ratios of A.
 * The WSDL is the Message Retrieval Service's: at its size start-up dominates, where a module load
 * would show most.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fail, fmt, median, mib, ratio, verdict } from "./util.js";

const WSDL = path.resolve("fixtures/message-service/api.wsdl");
const LIMIT_MS = 120_000;

interface Run {
  readonly ms: number;
  readonly rss: number;
  /** The module URLs the process resolved. */
  readonly modules: readonly string[];
}

function runCli(args: readonly string[], cwd: string, preload: boolean): Promise<Run> {
  const log = path.join(mkdtempSync(path.join(tmpdir(), "wsdl-tsgen-modules-")), "log");
  writeFileSync(log, "");
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        path.resolve("bench/module-log.mjs"),
        path.resolve("bench/measure-cli.mjs"),
        path.resolve("bin/wsdl-tsgen.js"),
        ...args,
      ],
      {
        cwd,
        env: { ...process.env, BENCH_MODULE_LOG: log, BENCH_PRELOAD: preload ? "1" : "0" },
        timeout: LIMIT_MS,
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => {
      const ms = performance.now() - started;
      const rss = /@@maxrss (\d+)\s*$/.exec(stderr);
      if (code !== 0 || !rss) fail(`wsdl-tsgen ${args.join(" ")} failed (${code}): ${stderr}`);
      const modules = readFileSync(log, "utf8").split("\n").filter(Boolean);
      rmSync(path.dirname(log), { recursive: true, force: true });
      resolve({ ms, rss: Number(rss[1]) * 1024, modules });
    });
  });
}

const SCAFFOLD_MODULES = /\/dist\/scaffold\/|\/handlebars\/|\/ts-morph\/|\/@ts-morph\//;

const line = (label: string, runs: readonly Run[]) =>
  `     ${label.padEnd(34)} ${fmt(median(runs.map((r) => r.ms)), 0).padStart(5)} ms [${runs.map((r) => fmt(r.ms, 0)).join(" ")}]   peak RSS ${fmt(mib(median(runs.map((r) => r.rss)))).padStart(6)} MiB`;

export async function scaffoldBench(options: { rounds: number }): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "wsdl-tsgen-bench-scaffold-"));
  try {
    console.log(
      `\n5. Scaffolding (${path.relative(process.cwd(), WSDL)}, ${options.rounds} rounds)`,
    );
    const plain: Run[] = [];
    const eager: Run[] = [];
    const scaffolds: Run[] = [];
    const mocks: Run[] = [];
    const updates: Run[] = [];
    const gen = ["generate", WSDL, "--out", path.join(dir, "sdk"), "--quiet"];
    for (let i = 0; i < options.rounds; i++) {
      for (const preload of i % 2 ? [true, false] : [false, true])
        (preload ? eager : plain).push(await runCli(gen, dir, preload));
      scaffolds.push(await runCli(["scaffold", WSDL, "--out", `s${i}`], dir, false));
      mocks.push(await runCli(["scaffold", WSDL, "--out", `m${i}`, "--mock"], dir, false));
      updates.push(await runCli(["scaffold", "--update"], path.join(dir, `s${i}`), false));
    }
    const of = (runs: readonly Run[]) =>
      new Set(runs.flatMap((r) => r.modules).filter((m) => SCAFFOLD_MODULES.test(m)));
    const loaded = of(plain);
    const ms = (runs: readonly Run[]) => median(runs.map((r) => r.ms));
    const rss = (runs: readonly Run[]) => median(runs.map((r) => r.rss));
    console.log(line("A  generate", plain));
    console.log(line("B  generate, Handlebars + ts-morph", eager));
    console.log(
      `     A loads ${loaded.size} module(s) of dist/scaffold/, Handlebars or ts-morph (${verdict(loaded.size === 0)}: none; B loads ${of(eager).size}); B / A: time ${ratio(ms(eager), ms(plain))}, peak RSS ${ratio(rss(eager), rss(plain))} (+${fmt(mib(rss(eager) - rss(plain)))} MiB): what generate would pay if it loaded them`,
    );
    console.log(line("scaffold", scaffolds));
    console.log(line("scaffold --mock", mocks));
    console.log(line("scaffold --update (up to date)", updates));
    console.log(
      `     / A: scaffold ${ratio(ms(scaffolds), ms(plain))}, --mock ${ratio(ms(mocks), ms(plain))}, --update ${ratio(ms(updates), ms(plain))} (it loads ts-morph: ${updates[0]!.modules.some((m) => /ts-morph/.test(m)) ? "yes" : "no"})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
