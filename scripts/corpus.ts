/**
 * Runs the generator over the WSDL corpus in ../shared/corpus (never committed here) and type-checks
 * what it produces: `npx tsx scripts/corpus.ts [--json out.json] [filter]`.
 *
 * Every root WSDL listed in the corpus README is generated (with a time limit, network access refused,
 * thrown errors caught) and its output compiled with the repository's TypeScript under strict options,
 * `@wsdl-tsgen/runtime` resolving to runtime/dist (run `npm run build` first). Each root ends up
 * as:
 *   ok            generated, and the output compiles
 *   diagnostic    not generated; error diagnostics say why
 *   compile-error generated, but tsc reports errors in the output
 *   crash         generateFiles threw (a bug: the API promises diagnostics, never exceptions)
 *   timeout       generateFiles did not settle within the time limit
 * test/corpus/corpus.test.ts runs the same functions.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import type { Diagnostic } from "../src/diagnostics.js";
import { generateFiles } from "../src/generate.js";
import { withValuesChecked } from "../src/emit/emit.js";
import type { TypeRef, WsdlModel } from "../src/model/model.js";
import { ifSoap } from "../src/model/protocols.js";
import type { LoadedDocuments } from "../src/parse/loader.js";
import { strictly } from "../src/recovery.js";
import { CORPUS_DIR, REPO_ROOT } from "./corpus-dir.js";

export { CORPUS_DIR, REPO_ROOT } from "./corpus-dir.js";
export const RUNTIME_TYPES = path.join(REPO_ROOT, "runtime/dist/index.d.ts");

export type Status = "ok" | "diagnostic" | "compile-error" | "crash" | "timeout";
export const STATUSES: readonly Status[] = [
  "ok",
  "diagnostic",
  "compile-error",
  "crash",
  "timeout",
];

export interface CorpusRoot {
  /** `owner/repo:path`. */
  readonly id: string;
  readonly repository: string;
  /** The path inside the repository, as the README lists it. */
  readonly path: string;
  /** The absolute path of the root WSDL in the corpus. */
  readonly file: string;
  readonly bytes: number;
  readonly notes: string;
}

export interface CompileError {
  /** The generated file, relative to the root's output folder. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly code: number;
  readonly message: string;
  /** The generated source line the error points at (trimmed, shortened). */
  readonly text: string;
}

export interface RootResult {
  readonly root: CorpusRoot;
  status: Status;
  /** Wall time of generateFiles, in milliseconds. */
  readonly generateMs: number;
  readonly outputFiles: number;
  readonly outputBytes: number;
  readonly warnings: number;
  /** The codes of its warnings, each once. */
  readonly warningCodes: readonly string[];
  /** Whether `--strict` refuses it: some warning is an error under strict. */
  readonly refusedByStrict: boolean;
  /** Operations of a port generated `void` although the WSDL's output message has parts. */
  readonly voidWithParts: readonly string[];
  /** Error diagnostics (the first few) and how many there were. */
  readonly errors: readonly Diagnostic[];
  readonly errorCount: number;
  compileErrors: CompileError[];
  compileErrorCount: number;
  readonly crash?: { readonly message: string; readonly stack: string };
  /** The generated files; dropped once type-checked unless `keepFiles`. */
  files?: readonly { readonly path: string; readonly content: string }[];
}

export interface CorpusReport {
  readonly results: RootResult[];
  readonly generateMs: number;
  readonly compileMs: number;
  readonly totalMs: number;
  /** Share of roots (0-100) that generated and compiled. */
  readonly okPercent: number;
}

export interface RunOptions {
  readonly corpusDir?: string;
  /** Substring of `owner/repo:path`; only matching roots run. */
  readonly filter?: string;
  /** Per-root limit for generateFiles, in milliseconds. Default 60 s. */
  readonly timeoutMs?: number;
  /** Most roots type-checked in one TypeScript program. Default 40. */
  readonly batchSize?: number;
  /** Most bytes of generated output type-checked in one program (a larger root gets one alone). Default 4 MB. */
  readonly batchBytes?: number;
  /** How many error diagnostics / compile errors to keep per root. Default 5. */
  readonly maxErrors?: number;
  /** Keep the generated files in the results. */
  readonly keepFiles?: boolean;
  readonly onProgress?: (message: string) => void;
}

/** Reads the "Root WSDLs" table of the corpus README: its repository and path columns. */
export function listRoots(corpusDir: string = CORPUS_DIR): CorpusRoot[] {
  const lines = readFileSync(path.join(corpusDir, "README.md"), "utf8").split(/\r?\n/);
  const start = lines.findIndex((l) => /^##\s+Root WSDLs\s*$/.test(l));
  if (start < 0) throw new Error(`${corpusDir}/README.md has no "## Root WSDLs" section`);
  let header: string[] | undefined;
  const roots: CorpusRoot[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^##\s/.test(line)) break;
    if (!line.startsWith("|")) {
      if (header && roots.length > 0) break;
      continue;
    }
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    if (!header) {
      header = cells.map((c) => c.toLowerCase());
      continue;
    }
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
    const col = (name: string): string => {
      const i = header!.indexOf(name);
      if (i < 0) throw new Error(`the Root WSDLs table has no "${name}" column`);
      return cells[i] ?? "";
    };
    const repository = col("repository");
    const rootPath = col("path").replace(/^`|`$/g, "");
    const [owner, repo] = repository.split("/");
    if (!owner || !repo || !rootPath) throw new Error(`cannot read the Root WSDLs row: ${line}`);
    roots.push({
      id: `${repository}:${rootPath}`,
      repository,
      path: rootPath,
      file: path.join(corpusDir, `${owner}__${repo}`, rootPath),
      bytes: Number(header.includes("bytes (with imports)") ? col("bytes (with imports)") : 0) || 0,
      notes: header.includes("notes") ? col("notes") : "",
    });
  }
  if (roots.length === 0) throw new Error(`${corpusDir}/README.md lists no root WSDLs`);
  return roots;
}

/** A fetch that refuses: the corpus run never goes to the network, so remote imports fail alike everywhere. */
const offlineFetch = (async (input: string | URL | Request) => {
  throw new Error(
    `network access is disabled for the corpus run (${String(input instanceof Request ? input.url : input)})`,
  );
}) as typeof fetch;

/** Whether a type has no content at all: no element, attribute, wildcard, text or base. */
function holdsNothing(t: TypeRef): boolean {
  return (
    t.kind === "complex" &&
    t.fields.length === 0 &&
    t.attributes.length === 0 &&
    !t.anyElements &&
    !t.anyAttributes &&
    t.simpleContent === undefined &&
    t.base === undefined
  );
}

/**
 * The operations of a port whose result is `void` although every output message of that name in
 * the WSDL has parts: data a response carries would be dropped.
 */
export function voidWithParts(model: WsdlModel, docs: LoadedDocuments): string[] {
  const parts = new Map<string, number>();
  for (const d of docs.definitions)
    for (const m of d.messages) parts.set(m.name, Math.max(parts.get(m.name) ?? 0, m.parts.length));
  const outputs = new Map<string, number[]>();
  for (const d of docs.definitions)
    for (const pt of d.portTypes)
      for (const o of pt.operations)
        if (o.output)
          outputs.set(o.name, [
            ...(outputs.get(o.name) ?? []),
            parts.get(o.output.message.local) ?? 0,
          ]);
  const out: string[] = [];
  for (const s of model.services)
    for (const p of s.ports)
      for (const bo of p.binding.operations) {
        const counts = outputs.get(bo.operation.name) ?? [];
        if (!bo.hasOutput || counts.length === 0 || counts.includes(0)) continue;
        const soap = ifSoap(bo);
        const body = soap?.soapOutput;
        // A response element that can hold nothing (an empty wrapper) is rightly void.
        const empty = body?.kind === "element" && holdsNothing(body.element.type);
        const dropped = soap
          ? body?.kind === "empty" || (bo.operation.result.kind === "void" && !empty)
          : bo.outputEncoding.kind === "none";
        if (dropped) out.push(`${s.name}/${p.name}/${bo.operation.name}`);
      }
  return out;
}

/** Runs generateFiles on one root, with a time limit; a thrown error is recorded as a crash. */
export async function generateRoot(
  root: CorpusRoot,
  options: Pick<RunOptions, "timeoutMs" | "maxErrors"> = {},
): Promise<RootResult> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxErrors = options.maxErrors ?? 5;
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  const base = {
    root,
    outputFiles: 0,
    outputBytes: 0,
    warnings: 0,
    warningCodes: [],
    refusedByStrict: false,
    voidWithParts: [],
    errors: [],
    errorCount: 0,
    compileErrors: [],
    compileErrorCount: 0,
  };
  try {
    const r = await Promise.race([generateFiles(root.file, { fetch: offlineFetch }), timeout]);
    const generateMs = performance.now() - started;
    if (r === "timeout") return { ...base, status: "timeout", generateMs };
    const errors = r.diagnostics.filter((d) => d.severity === "error");
    const warnings = r.diagnostics.length - errors.length;
    if (r.files.length === 0 || errors.length > 0) {
      return {
        ...base,
        status: "diagnostic",
        generateMs,
        warnings,
        errors: errors.slice(0, maxErrors),
        errorCount: errors.length,
      };
    }
    const outputBytes = r.files.reduce((n, f) => n + Buffer.byteLength(f.content), 0);
    const warned = r.diagnostics.filter((d) => d.severity === "warning");
    return {
      ...base,
      status: "ok",
      generateMs,
      warnings,
      warningCodes: [...new Set(warned.map((d) => d.code))].sort(),
      refusedByStrict: strictly(warned).some((d) => d.severity === "error"),
      // Output with no model or documents behind it would be a bug of generateFiles: let it throw.
      voidWithParts: voidWithParts(r.model!, r.documents!),
      outputFiles: r.files.length,
      outputBytes,
      files: r.files,
    };
  } catch (e) {
    const generateMs = performance.now() - started;
    const err = e instanceof Error ? e : new Error(String(e));
    return {
      ...base,
      status: "crash",
      generateMs,
      crash: { message: `${err.name}: ${err.message}`, stack: err.stack ?? String(e) },
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The compiler options generated code must compile under (the strictest a user is likely to have). */
export function compilerOptions(runtimeTypes: string = RUNTIME_TYPES): ts.CompilerOptions {
  return {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2023.d.ts"],
    types: ["node"],
    typeRoots: [path.join(REPO_ROOT, "node_modules/@types")],
    skipLibCheck: true,
    noEmit: true,
    paths: { "@wsdl-tsgen/runtime": [runtimeTypes] },
  };
}

/**
 * Source files outside the generated output (lib, @types/node, runtime/dist), parsed once for all
 * programs.
 */
const sharedSourceFiles = new Map<string, ts.SourceFile | undefined>();

/**
 * Type-checks the generated files of `results` (those with status ok) in one program: each root's
 * files go into their own folder under `workDir`, so every error is attributed to its root. Roots with
 * errors get status compile-error.
 */
export function typeCheckBatch(
  results: readonly RootResult[],
  workDir: string,
  maxErrors = 5,
): void {
  const options = compilerOptions();
  const dirs = new Map<string, RootResult>();
  const rootNames: string[] = [];
  for (const r of results) {
    if (!r.files) continue;
    const dir = path.join(workDir, String(dirs.size));
    mkdirSync(dir, { recursive: true });
    dirs.set(dir + path.sep, r);
    for (const f of r.files) {
      const p = path.join(dir, f.path);
      mkdirSync(path.dirname(p), { recursive: true });
      // The values of descriptors.ts too, which a user's tsc skips.
      writeFileSync(p, withValuesChecked(f.content));
      if (/\.(m|c)?tsx?$/.test(p)) rootNames.push(p);
    }
  }
  if (rootNames.length === 0) return;
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (fileName.startsWith(workDir))
      return getSourceFile(fileName, languageVersion, onError, shouldCreate);
    if (!sharedSourceFiles.has(fileName))
      sharedSourceFiles.set(
        fileName,
        getSourceFile(fileName, languageVersion, onError, shouldCreate),
      );
    return sharedSourceFiles.get(fileName);
  };
  const program = ts.createProgram({ rootNames, options, host });
  const owner = (fileName: string): RootResult | undefined => {
    for (const [dir, r] of dirs) if (fileName.startsWith(dir)) return r;
    return undefined;
  };
  const record = (d: ts.Diagnostic, fallback: readonly RootResult[]) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    let err: CompileError;
    let targets: readonly RootResult[] = fallback;
    if (d.file && d.start !== undefined) {
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      const r = owner(d.file.fileName);
      if (r) targets = [r];
      const dir = r ? [...dirs].find(([, v]) => v === r)![0] : "";
      const text = d.file.text.split("\n")[line]?.trim() ?? "";
      err = {
        file: r ? d.file.fileName.slice(dir.length) : d.file.fileName,
        line: line + 1,
        column: character + 1,
        code: d.code,
        message,
        text: text.length > 160 ? `${text.slice(0, 157)}...` : text,
      };
    } else {
      err = { file: d.file?.fileName ?? "", line: 0, column: 0, code: d.code, message, text: "" };
    }
    for (const r of targets) {
      r.status = "compile-error";
      r.compileErrorCount++;
      if (r.compileErrors.length < maxErrors) r.compileErrors.push(err);
    }
  };
  const all = [...dirs.values()];
  for (const d of [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()])
    if (d.category === ts.DiagnosticCategory.Error) record(d, all);
  for (const sf of program.getSourceFiles()) {
    if (!sf.fileName.startsWith(workDir)) continue;
    for (const d of [
      ...program.getSyntacticDiagnostics(sf),
      ...program.getSemanticDiagnostics(sf),
    ]) {
      if (d.category === ts.DiagnosticCategory.Error) record(d, all);
    }
  }
}

/** Generates every (matching) root, then type-checks the output in batches. */
export async function runCorpus(options: RunOptions = {}): Promise<CorpusReport> {
  const corpusDir = options.corpusDir ?? CORPUS_DIR;
  if (!existsSync(RUNTIME_TYPES))
    throw new Error(`${RUNTIME_TYPES} is missing; run \`npm run build\` first`);
  const progress = options.onProgress ?? (() => {});
  const roots = listRoots(corpusDir).filter(
    (r) => !options.filter || r.id.includes(options.filter),
  );
  const started = performance.now();
  const results: RootResult[] = [];
  for (const [i, root] of roots.entries()) {
    const r = await generateRoot(root, options);
    progress(
      `[${i + 1}/${roots.length}] ${r.status.padEnd(10)} ${(r.generateMs / 1000).toFixed(2).padStart(6)}s ${root.id}`,
    );
    results.push(r);
  }
  const generated = performance.now();

  const workDir = mkdtempSync(path.join(tmpdir(), "wsdl-tsgen-corpus-"));
  try {
    writeFileSync(
      path.join(workDir, "package.json"),
      `${JSON.stringify({ type: "module", private: true })}\n`,
    );
    const batchSize = options.batchSize ?? 40;
    const batchBytes = options.batchBytes ?? 4_000_000;
    let batch: RootResult[] = [];
    let bytes = 0;
    let n = 0;
    const flush = () => {
      if (batch.length === 0) return;
      const t = performance.now();
      typeCheckBatch(batch, path.join(workDir, `b${n++}`), options.maxErrors ?? 5);
      progress(
        `type-checked ${batch.length} root(s) in ${((performance.now() - t) / 1000).toFixed(1)}s`,
      );
      if (!options.keepFiles) for (const r of batch) delete r.files;
      batch = [];
      bytes = 0;
    };
    for (const r of results) {
      if (r.status !== "ok") continue;
      if (batch.length >= batchSize || (batch.length > 0 && bytes + r.outputBytes > batchBytes))
        flush();
      batch.push(r);
      bytes += r.outputBytes;
    }
    flush();
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  const done = performance.now();
  const ok = results.filter((r) => r.status === "ok").length;
  return {
    results,
    generateMs: generated - started,
    compileMs: done - generated,
    totalMs: done - started,
    okPercent: results.length ? (100 * ok) / results.length : 0,
  };
}

/** Whether a diagnostic names a place in an input file and says something (never a stack trace). */
export function isLocated(d: Diagnostic): boolean {
  return d.file !== "" && d.line > 0 && d.message.trim() !== "" && !/\n\s+at\s/.test(d.message);
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows
    .map((r) =>
      r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  "),
    )
    .join("\n");
}

const rel = (file: string, corpusDir: string) =>
  file.startsWith(corpusDir) ? path.relative(corpusDir, file) : file;

/** One line saying why a root failed. */
export function firstProblem(r: RootResult, corpusDir: string = CORPUS_DIR): string {
  switch (r.status) {
    case "diagnostic": {
      const d = r.errors[0];
      return d
        ? `${rel(d.file, corpusDir)}:${d.line}:${d.column} ${d.code}: ${d.message}`
        : "no files and no error diagnostic";
    }
    case "compile-error": {
      const e = r.compileErrors[0]!;
      return `${e.file}:${e.line}:${e.column} TS${e.code}: ${e.message.split("\n")[0]}`;
    }
    case "crash":
      return r.crash!.message;
    case "timeout":
      return `no result after ${(r.generateMs / 1000).toFixed(0)}s`;
    default:
      return "";
  }
}

/** The summary: counts by status, by repository, the ok share, the failures one line each, and time. */
export function formatSummary(report: CorpusReport, corpusDir: string = CORPUS_DIR): string {
  const { results } = report;
  const count = (rs: readonly RootResult[], s: Status) => rs.filter((r) => r.status === s).length;
  const out: string[] = [];
  out.push(
    table([
      ["status", "roots"],
      ...STATUSES.map((s) => [s, String(count(results, s))]),
      ["total", String(results.length)],
    ]),
  );
  out.push("");
  const repos = [...new Set(results.map((r) => r.root.repository))].sort((a, b) =>
    a.localeCompare(b),
  );
  out.push(
    table([
      ["repository", ...STATUSES, "total"],
      ...repos.map((repo) => {
        const rs = results.filter((r) => r.root.repository === repo);
        return [repo, ...STATUSES.map((s) => String(count(rs, s))), String(rs.length)];
      }),
    ]),
  );
  out.push("");
  const failures = results.filter((r) => r.status !== "ok");
  if (failures.length) {
    out.push("failures:");
    for (const r of failures)
      out.push(
        `  ${r.status.padEnd(13)} ${r.root.id}\n                ${firstProblem(r, corpusDir)}`,
      );
    out.push("");
  }
  const ok = count(results, "ok");
  out.push(`generate+compile: ${ok}/${results.length} = ${report.okPercent.toFixed(1)}%`);
  out.push(
    `time: ${(report.totalMs / 1000).toFixed(1)}s total (generate ${(report.generateMs / 1000).toFixed(1)}s, type-check ${(report.compileMs / 1000).toFixed(1)}s)`,
  );
  return out.join("\n");
}

async function main(argv: readonly string[]): Promise<number> {
  let json: string | undefined;
  let filter: string | undefined;
  let maxErrors = 5;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--json") json = argv[++i];
    else if (a === "--max-errors") maxErrors = Number(argv[++i]);
    else if (a.startsWith("--")) {
      console.error(
        `unknown option ${a}\nusage: npx tsx scripts/corpus.ts [--json out.json] [--max-errors N] [filter]`,
      );
      return 2;
    } else filter = a;
  }
  if (!existsSync(CORPUS_DIR)) {
    console.log(`corpus not found at ${CORPUS_DIR}; nothing to run`);
    return 0;
  }
  const report = await runCorpus({
    ...(filter !== undefined ? { filter } : {}),
    maxErrors,
    onProgress: (m) => console.error(m),
  });
  console.log(formatSummary(report));
  if (json) {
    const details = {
      okPercent: report.okPercent,
      generateMs: Math.round(report.generateMs),
      compileMs: Math.round(report.compileMs),
      totalMs: Math.round(report.totalMs),
      results: report.results.map(({ files: _files, ...r }) => ({
        ...r,
        generateMs: Math.round(r.generateMs),
      })),
    };
    writeFileSync(json, `${JSON.stringify(details, null, 2)}\n`);
    console.log(`details written to ${json}`);
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
