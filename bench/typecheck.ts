/**
 * Benchmark 7, type-check cost: what a generated SDK costs its user's `tsc` (strict,
 * exactOptionalPropertyTypes, skipLibCheck), as tsc's own "Check time" and "Memory used"
 * (--extendedDiagnostics): the whole SDK (index.ts), its types.ts alone (the floor: the types
 * themselves), and wsdl-tsclient's output for the same WSDL (the peer, whose types say less). On
 * the Message Retrieval Service, the three largest corpus roots both tools process (as benchmark
 * 3 picks them) and a synthetic WSDL of 2 and 8 MiB (growth per MiB). The target (#33): the whole
 * SDK at most 1.5× its types.ts. Each with TypeScript 5 (`typescript`) and 7 (`typescript-7`), as
 * users compile with either. Every run is its own tsc process, the three alternating; the fastest
 * round counts (others only ever add time), and the largest memory (the cautious figure).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { CORPUS_DIR, listRoots } from "../scripts/corpus.js";
import { TOOLS, type Tool } from "./generate.js";
import { syntheticWsdl } from "./synthetic-wsdl.js";
import { fmt, mib, ratio, verdict } from "./util.js";

const ROOTS = 3;
const SYNTHETIC_MIB = [2, 8];
const TARGET = 1.5;
const REPO = path.resolve(".");
/** The compilers measured: tsc 5.x and 7 (an npm alias, see docs/architecture.md). */
const COMPILERS = {
  "TS 5": "node_modules/typescript/bin/tsc",
  "TS 7": "node_modules/typescript-7/bin/tsc",
};
type Compiler = keyof typeof COMPILERS;

interface Check {
  readonly seconds: number;
  readonly memoryKiB: number;
  /** tsc's errors (wsdl-tsclient's output has some on a few WSDLs; ours must have none). */
  readonly errors: number;
}

/** Generates `wsdl` with one tool into a new folder; undefined when it fails. */
function generate(tool: Tool, wsdl: string, root: string): string | undefined {
  const out = mkdtempSync(path.join(root, `${tool}-`));
  const t = TOOLS[tool];
  const r = spawnSync(process.execPath, [t.script, ...t.args(wsdl, out)], {
    stdio: "ignore",
    timeout: 300_000,
  });
  return r.status === 0 && tsFiles(out).length > 0 ? out : undefined;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => path.join(e.parentPath, e.name));
}

/**
 * tsc's check time and memory on `files`: ours as an app compiles it (NodeNext, the runtime's
 * built types), wsdl-tsclient's as it is written (extensionless imports: bundler resolution).
 */
function check(files: readonly string[], tool: Tool, compiler: Compiler): Check {
  const dir = mkdtempSync(path.join(tmpdir(), "wsdl-tsgen-tsc-"));
  const resolution =
    tool === "ours"
      ? { module: "NodeNext", moduleResolution: "NodeNext" }
      : { module: "ESNext", moduleResolution: "Bundler" };
  const compilerOptions = {
    target: "ES2022",
    lib: ["ES2023"],
    ...resolution,
    strict: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
    typeRoots: [path.join(REPO, "node_modules/@types")],
    paths: {
      "@wsdl-tsgen/runtime": [path.join(REPO, "runtime/dist/index.d.ts")],
      soap: [path.join(REPO, "node_modules/soap/lib/soap.d.ts")],
    },
  };
  try {
    const config = path.join(dir, "tsconfig.json");
    writeFileSync(config, JSON.stringify({ compilerOptions, files }));
    const tsc = path.join(REPO, COMPILERS[compiler]);
    const r = spawnSync(process.execPath, [tsc, "-p", config, "--extendedDiagnostics"], {
      encoding: "utf8",
      timeout: 300_000,
    });
    const seconds = /^Check time:\s+([\d.]+)s/m.exec(r.stdout);
    const memory = /^Memory used:\s+(\d+)K/m.exec(r.stdout);
    const errors = r.stdout.split("\n").filter((l) => / error TS\d+/.test(l));
    if ((tool === "ours" && errors.length) || !seconds || !memory)
      throw new Error(`tsc on ${files[0]}: ${errors.slice(0, 3).join(" / ") || r.stderr}`);
    return { seconds: Number(seconds[1]), memoryKiB: Number(memory[1]), errors: errors.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Input {
  readonly id: string;
  readonly file: string;
  readonly bytes: number;
}

interface Row {
  readonly input: Input;
  readonly compiler: Compiler;
  readonly sdk: Check;
  readonly types: Check;
  readonly peer: Check | undefined;
}

const best = (runs: readonly Check[]): Check => ({
  seconds: Math.min(...runs.map((r) => r.seconds)),
  memoryKiB: Math.max(...runs.map((r) => r.memoryKiB)),
  errors: runs[0]!.errors,
});

/** The three checks of one input with one compiler, alternating over the rounds. */
function measure(
  input: Input,
  ours: string,
  peer: string | undefined,
  rounds: number,
  compiler: Compiler,
): Row {
  const runs = { sdk: [] as Check[], types: [] as Check[], peer: [] as Check[] };
  for (let i = 0; i < rounds; i++) {
    runs.sdk.push(check([path.join(ours, "index.ts")], "ours", compiler));
    runs.types.push(check([path.join(ours, "types.ts")], "ours", compiler));
    if (peer) runs.peer.push(check(tsFiles(peer), "peer", compiler));
  }
  const row = {
    input,
    compiler,
    sdk: best(runs.sdk),
    types: best(runs.types),
    peer: peer ? best(runs.peer) : undefined,
  };
  print(row);
  return row;
}

const figure = (c: Check) =>
  `${fmt(c.seconds, 2).padStart(5)} s, ${fmt(c.memoryKiB / 1024, 0).padStart(4)} MiB`;

function print(r: Row): void {
  const over = r.sdk.seconds / r.types.seconds;
  const peer = r.peer
    ? `wsdl-tsclient ${figure(r.peer)} (ours ${ratio(r.sdk.seconds, r.peer.seconds)} its time)${r.peer.errors ? `; its output has ${r.peer.errors} tsc error(s)` : ""}`
    : "wsdl-tsclient: does not generate";
  if (r.compiler === "TS 5") console.log(`\n   ${r.input.id} (${fmt(mib(r.input.bytes), 2)} MiB)`);
  console.log(
    `     ${r.compiler}: whole SDK ${figure(r.sdk)}   types.ts alone ${figure(r.types)}   whole / types ${fmt(over, 2)}× (≤ ${TARGET}×: ${verdict(over <= TARGET)}), memory ${ratio(r.sdk.memoryKiB, r.types.memoryKiB)}`,
  );
  console.log(`     ${peer}`);
}

/** The inputs: the Message Retrieval Service, the largest corpus roots, synthetic WSDLs. */
function* inputs(dir: string): Generator<Input> {
  const fixture = "fixtures/message-service/api.wsdl";
  yield { id: "Message Retrieval Service", file: fixture, bytes: statSync(fixture).size };
  const roots = listRoots()
    .filter((r) => !/identical to another root/.test(r.notes))
    .sort((a, b) => b.bytes - a.bytes || a.id.localeCompare(b.id));
  for (const r of roots) yield { id: r.id, file: r.file, bytes: r.bytes };
  for (const size of SYNTHETIC_MIB) {
    const s = syntheticWsdl(dir, size * 2 ** 20);
    yield { id: `synthetic ${size} MiB (FedEx rate ×${s.copies})`, ...s };
  }
}

export function typecheckBench(opts: { rounds: number }): void {
  console.log(
    `\n7. Type-check cost: tsc --extendedDiagnostics (strict, exactOptionalPropertyTypes, skipLibCheck) on the whole SDK, its types.ts alone and wsdl-tsclient's output; best of ${opts.rounds} rounds`,
  );
  if (!listRootsPresent()) {
    console.log(`   skipped: the corpus is not at ${CORPUS_DIR}`);
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), "wsdl-tsgen-typecheck-"));
  const rows: Row[] = [];
  let corpus = 0;
  try {
    for (const input of inputs(dir)) {
      const isRoot = !input.id.startsWith("synthetic") && input.id !== "Message Retrieval Service";
      if (isRoot && corpus === ROOTS) continue;
      const ours = generate("ours", input.file, dir);
      const peer = ours ? generate("peer", input.file, dir) : undefined;
      // A root counts as benchmark 3 counts it: once both tools generate from it.
      if (isRoot && (!ours || !peer)) continue;
      if (!ours) throw new Error(`wsdl-tsgen does not generate ${input.id}`);
      if (isRoot) corpus++;
      for (const compiler of Object.keys(COMPILERS) as Compiler[])
        rows.push(measure(input, ours, peer, opts.rounds, compiler));
    }
    summary(rows);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function listRootsPresent(): boolean {
  try {
    return listRoots().length > 0;
  } catch {
    return false;
  }
}

/**
 * The targets, judged on TS 5 (#33's compiler); TS 7's times (a tenth of them on the small inputs,
 * where 10 ms of rounding is a large ratio) are shown beside them.
 */
function summary(all: readonly Row[]): void {
  const ratios = (rows: readonly Row[]) =>
    rows.map((r) => `${fmt(r.sdk.seconds / r.types.seconds, 2)}×`).join(", ");
  console.log(
    `\n   TS 7: whole SDK / types.ts: ${ratios(all.filter((r) => r.compiler === "TS 7"))}`,
  );
  const rows = all.filter((r) => r.compiler === "TS 5");
  const over = rows.map((r) => r.sdk.seconds / r.types.seconds);
  console.log(
    `   TS 5: whole SDK / types.ts: ${over.map((o) => `${fmt(o, 2)}×`).join(", ")}; ≤ ${TARGET}× on every input: ${verdict(over.every((o) => o <= TARGET))}`,
  );
  const synthetic = rows.filter((r) => r.input.id.startsWith("synthetic"));
  const perMib = synthetic.map((r) => r.sdk.seconds / mib(r.input.bytes));
  const memPerMib = synthetic.map((r) => r.sdk.memoryKiB / 1024 / mib(r.input.bytes));
  console.log(
    `   growth: whole SDK check per MiB of WSDL ${synthetic.map((r, i) => `${fmt(perMib[i]!, 3)} s (${fmt(mib(r.input.bytes), 0)} MiB)`).join(", ")}; memory per MiB ${memPerMib.map((m) => `${fmt(m, 1)} MiB`).join(", ")}; the larger per MiB within 1.25× the smaller: ${verdict(perMib.length === 2 && perMib[1]! <= 1.25 * perMib[0]!)}`,
  );
}
