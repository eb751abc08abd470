/**
 * `scaffold --mock` on every root of the WSDL corpus (../shared/corpus, never committed here) that
 * generates: each project is written, type-checked as its own `tsc` would, and its own test run,
 * the lot in one TypeScript program per batch and one Vitest run, to keep it cheap.
 * `npx tsx scripts/corpus-scaffold.ts [filter]` prints N of M; test/corpus/scaffold.test.ts runs
 * it.
 * The projects use the repository's packages (runtime/dist: `npm run build` first).
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { DiagnosticError, formatDiagnostic } from "../src/diagnostics.js";
import { scaffold } from "../src/scaffold/scaffold.js";
import { CORPUS_DIR, REPO_ROOT } from "./corpus-dir.js";
import { listRoots, type CorpusRoot } from "./corpus.js";

/**
 * What became of a root: `ok` (its project compiles and its test passes), `not-generated` (the
 * generator refuses the WSDL: the corpus test says why), `no-service` (types only: nothing to
 * serve), or the step that failed.
 */
export type ScaffoldStatus =
  "ok" | "not-generated" | "no-service" | "scaffold-failed" | "compile-error" | "test-failed";

export interface ScaffoldRootResult {
  readonly root: CorpusRoot;
  status: ScaffoldStatus;
  /** The first problem, for the report. */
  detail: string;
  readonly project: string;
}

export interface ScaffoldReport {
  readonly results: readonly ScaffoldRootResult[];
  /** Roots that generate (M), and those whose project compiles and passes its test (N). */
  readonly generated: number;
  readonly passed: number;
  readonly ms: { readonly scaffold: number; readonly compile: number; readonly test: number };
}

/** A fetch that refuses: the corpus run never goes to the network. */
const offlineFetch = (async () => {
  throw new Error("network access is disabled for the corpus run");
}) as typeof fetch;

/**
 * The node_modules the run's projects link to, in the run's folder: the repository's packages, and
 * the generator itself as `wsdl-tsgen`, a mock project's dev dependency (`npm run record` imports
 * its network flags).
 */
function projectModules(runDir: string): string {
  const dir = path.join(runDir, "node_modules");
  mkdirSync(dir);
  const repo = path.join(REPO_ROOT, "node_modules");
  for (const name of readdirSync(repo)) symlinkSync(path.join(repo, name), path.join(dir, name));
  symlinkSync(REPO_ROOT, path.join(dir, "wsdl-tsgen"));
  return dir;
}

async function scaffoldRoot(
  root: CorpusRoot,
  project: string,
  modules: string,
): Promise<ScaffoldRootResult> {
  const result: ScaffoldRootResult = { root, status: "ok", detail: "", project };
  try {
    await scaffold({ wsdl: root.file, out: project, mock: true, fetch: offlineFetch });
    symlinkSync(modules, path.join(project, "node_modules"));
  } catch (e) {
    if (!(e instanceof DiagnosticError)) {
      result.status = "scaffold-failed";
      result.detail = e instanceof Error ? (e.stack ?? e.message) : String(e);
      return result;
    }
    const noService = e.diagnostics.find((d) => d.code === "SCAFFOLD_NO_SERVICE");
    result.status = noService ? "no-service" : "not-generated";
    result.detail = formatDiagnostic(noService ?? e.diagnostics[0]!);
  }
  return result;
}

/** The options of a scaffolded project's tsconfig.json, read from the template's output. */
function projectOptions(project: string): ts.CompilerOptions {
  const file = path.join(project, "tsconfig.json");
  const config = ts.readConfigFile(file, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config.config, ts.sys, project).options;
}

/** Type-checks the projects in batches (one program each), marking those with errors. */
function compile(results: readonly ScaffoldRootResult[], batch = 20): void {
  for (let i = 0; i < results.length; i += batch) {
    const some = results.slice(i, i + batch);
    const files = some.flatMap((r) =>
      ["src/service.ts", "src/main.ts", "test/service.test.ts"].map((f) => path.join(r.project, f)),
    );
    // One project's options for all: rootDir is each project's own, and nothing is written.
    const { rootDir: _rootDir, outDir: _outDir, ...own } = projectOptions(some[0]!.project);
    const options = { ...own, noEmit: true };
    const program = ts.createProgram(files, options);
    for (const d of ts.getPreEmitDiagnostics(program)) {
      const file = d.file?.fileName ?? "";
      const r = some.find((x) => file.startsWith(`${x.project}/`));
      if (!r || r.status !== "ok") continue;
      r.status = "compile-error";
      r.detail = `${path.relative(r.project, file)}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    }
  }
}

interface VitestJson {
  testResults: { name: string; status: string; message?: string }[];
}

/** Runs every project's test in one Vitest run, marking the projects whose test failed. */
function test(dir: string, results: readonly ScaffoldRootResult[]): void {
  const config = path.join(dir, "vitest.config.mjs");
  const include = results.map((r) => `${path.basename(r.project)}/test/service.test.ts`);
  writeFileSync(
    config,
    `export default { test: { include: ${JSON.stringify(include)}, pool: "forks", testTimeout: 60000 } };\n`,
  );
  const report = path.join(dir, "vitest.json");
  spawnSync(
    path.join(REPO_ROOT, "node_modules/.bin/vitest"),
    ["run", "--root", dir, "--config", config, "--reporter=json", `--outputFile=${report}`],
    { cwd: dir, encoding: "utf8", stdio: "ignore", timeout: 1_200_000 },
  );
  const json = JSON.parse(readFileSync(report, "utf8")) as VitestJson;
  for (const r of results) {
    const file = json.testResults.find((t) => t.name.startsWith(`${r.project}/`));
    if (file?.status === "passed") continue;
    r.status = "test-failed";
    const failed = (
      file as { assertionResults?: { failureMessages?: string[] }[] } | undefined
    )?.assertionResults?.flatMap((a) => a.failureMessages ?? [])[0];
    r.detail = file
      ? (file.message || failed || file.status).slice(0, 500)
      : "the test did not run";
  }
}

export async function scaffoldCorpus(
  options: { filter?: string; onProgress?: (m: string) => void } = {},
): Promise<ScaffoldReport> {
  const roots = listRoots().filter((r) => !options.filter || r.id.includes(options.filter));
  const dir = mkdtempSync(path.join(tmpdir(), "wsdl-tsgen-corpus-scaffold-"));
  try {
    let started = performance.now();
    const results: ScaffoldRootResult[] = [];
    const modules = projectModules(dir);
    for (const [i, root] of roots.entries())
      results.push(await scaffoldRoot(root, path.join(dir, `p${i}`), modules));
    const scaffoldMs = performance.now() - started;
    const ok = () => results.filter((r) => r.status === "ok");
    options.onProgress?.(`scaffolded ${ok().length} of ${roots.length} roots`);
    started = performance.now();
    compile(ok());
    const compileMs = performance.now() - started;
    options.onProgress?.(`${ok().length} compile`);
    started = performance.now();
    if (ok().length > 0) test(dir, ok());
    const testMs = performance.now() - started;
    return {
      results,
      generated: results.filter((r) => r.status !== "not-generated").length,
      passed: ok().length,
      ms: { scaffold: scaffoldMs, compile: compileMs, test: testMs },
    };
  } finally {
    if (process.env["KEEP_SCAFFOLDS"]) options.onProgress?.(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/** One line of figures, then a line per root that was not scaffolded. */
export function formatScaffoldReport(report: ScaffoldReport): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const lines = [
    `scaffold --mock: ${report.passed} of ${report.generated} roots that generate scaffold, compile and pass their own test (scaffold ${s(report.ms.scaffold)}, tsc ${s(report.ms.compile)}, vitest ${s(report.ms.test)})`,
  ];
  for (const r of report.results)
    if (r.status !== "ok" && r.status !== "not-generated")
      lines.push(`  ${r.status} ${r.root.id}: ${r.detail.split("\n")[0]}`);
  return lines.join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (!existsSync(CORPUS_DIR)) console.log(`no corpus at ${CORPUS_DIR}`);
  else {
    const report = await scaffoldCorpus({
      ...(process.argv[2] ? { filter: process.argv[2] } : {}),
      onProgress: (m) => console.error(m),
    });
    console.log(formatScaffoldReport(report));
    const failed = report.results.filter((r) => !/^(ok|not-generated|no-service)$/.test(r.status));
    process.exitCode = failed.length > 0 ? 1 : 0;
  }
}
