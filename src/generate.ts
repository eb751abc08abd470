/**
 * The programmatic API: `loadWsdl` reads a WSDL into the model, `generate` writes (or checks) the
 * generated files. Problems come back as diagnostics, never as stack traces.
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { diagnostic, DiagnosticError, type Diagnostic } from "./diagnostics.js";
import { emitFiles, type OutputFile } from "./emit/emit.js";
import { isIdentifier } from "./names/identifiers.js";
import { formatFiles, type Formatter } from "./format.js";
import { buildModel } from "./model/build.js";
import { strictly } from "./recovery.js";
import type { WsdlModel } from "./model/model.js";
import { loadDocuments, type LoadedDocuments, type LoadOptions } from "./parse/loader.js";
import { withoutUserinfo } from "./parse/credentials.js";
import { relocatedTexts } from "./parse/relocate.js";
import { EMBEDDED_DOCUMENT, type EmbeddedWsdl } from "@wsdl-tsgen/runtime/internal";
import { DESCRIPTORS_OWN_NAMES } from "./transform/names.js";
import { plan } from "./transform/passes.js";
import type { EmitPlan } from "./transform/plan.js";

export interface LoadResult {
  readonly model: WsdlModel | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * How generated files name their input: a URL as is, a path relative to `base` (the working
 * directory unless a scaffolded project's folder is given).
 */
export function sourceLabel(location: string, base = process.cwd()): string {
  if (/^https?:\/\//i.test(location)) return withoutUserinfo(location);
  const rel = path.relative(base, path.resolve(location));
  return (rel.startsWith("..") || path.isAbsolute(rel) ? path.basename(location) : rel)
    .split(path.sep)
    .join("/");
}

/** What generating from `location` needs; with `strict`, recoveries and limitations are errors. */
async function load(
  location: string,
  options: LoadOptions & StrictOption & LabelOption & OperationsOption,
) {
  const docs = await loadDocuments(location, options);
  const built = buildModel(docs, sourceLabel(location, options.labelBase), options.operations);
  const diagnostics = options.strict ? strictly(built.diagnostics.items) : built.diagnostics.items;
  return { docs, built, diagnostics, failed: diagnostics.some((d) => d.severity === "error") };
}

export interface OperationsOption {
  /**
   * Generate only these operations (WSDL operation names) and the types they reach. Default: all.
   */
  readonly operations?: readonly string[];
}

export interface StrictOption {
  /**
   * Refuse defective or not fully supported input: every recovery (an unresolved reference read as
   * xs:anyType, an import that cannot be read, …) and every limitation (SOAP encoding, a binding
   * left out, …; see RECOVERIES and LIMITATIONS in recovery.ts) is an error instead of a warning.
   * Default: false.
   */
  readonly strict?: boolean;
}

/**
 * The diagnostics an exception of the pipeline stands for, if it is a failure of the input: a
 * DiagnosticError's, or the stack overflowing on types nested thousands deep (model building puts
 * deep content off, but later stages walk the types recursively).
 */
function inputFailure(e: unknown, given: string): readonly Diagnostic[] | undefined {
  if (e instanceof DiagnosticError) return e.diagnostics;
  const location = withoutUserinfo(given);
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return [
      diagnostic(
        "XSD_TOO_DEEP",
        "the schema's types nest too deeply to generate (a chain of types each holding the next, thousands long); expected at most about 2,000 types one inside another",
        { file: location, line: 0, column: 0 },
      ),
    ];
  }
  return undefined;
}

/** Reads a WSDL and everything it imports into the model. */
export async function loadWsdl(
  location: string,
  options: LoadOptions & StrictOption & OperationsOption = {},
): Promise<LoadResult> {
  try {
    const { built, diagnostics, failed } = await load(location, options);
    return { model: failed ? undefined : built.model, diagnostics };
  } catch (e) {
    const failure = inputFailure(e, location);
    if (failure) return { model: undefined, diagnostics: failure };
    throw e;
  }
}

export interface LabelOption {
  /** The folder the generated files' header names the WSDL relative to. Default: the cwd. */
  readonly labelBase?: string;
}

export interface GenerateOptions extends LoadOptions, StrictOption, LabelOption, OperationsOption {
  /** The output folder. */
  readonly out: string;
  /** Module specifier generated code imports the runtime from. Default: `@wsdl-tsgen/runtime`. */
  readonly runtimeImport?: string;
  /** Pinned constant names of namespaces in descriptors.ts, by namespace URI. */
  readonly namespaceNames?: Readonly<Record<string, string>>;
  /** Copy documentation from the WSDL and its schemas into JSDoc comments. Default: true. */
  readonly docs?: boolean;
  /** Embed the root WSDL's text in wsdl.ts for `?WSDL`. Default: true. */
  readonly embedWsdl?: boolean;
  /** Declare a `const` object of each enumeration's values beside its type. Default: false. */
  readonly enumConstants?: boolean;
  /** Write nothing; report which files would change. */
  readonly check?: boolean;
  /** Reformat the files with the project's Prettier before writing or checking. Default: none. */
  readonly format?: Formatter;
}

export interface GenerateResult {
  readonly ok: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly files: readonly OutputFile[];
  /** Files written (or, with `check`, that would be written) because they are new or differ. */
  readonly changed: readonly string[];
  /** Generated files in the output folder that this run would not produce (stale). */
  readonly removed: readonly string[];
  readonly model: WsdlModel | undefined;
  /** The names and decisions the files were emitted with (for `scaffold`). */
  readonly plan?: EmitPlan | undefined;
  /** The local files read (the WSDL and what it imports; URLs aside), for `--watch`. */
  readonly read?: readonly string[];
}

/**
 * Writes what a run of `generate` found: its changed files, and its stale ones removed. Apart, so
 * that `scaffold --update` can check everything before it writes anything.
 */
export async function writeGenerated(
  out: string,
  result: Pick<GenerateResult, "files" | "changed" | "removed">,
): Promise<void> {
  await mkdir(out, { recursive: true });
  for (const f of result.files)
    if (result.changed.includes(f.path)) await writeFile(path.join(out, f.path), f.content);
  for (const r of result.removed) await rm(path.join(out, r));
}

/** Generates the files for one WSDL, in memory. */
export async function generateFiles(
  location: string,
  options: Omit<GenerateOptions, "out" | "check" | "format"> & {
    readonly namespaceNames?: Readonly<Record<string, string>>;
  } = {},
): Promise<{
  files: OutputFile[];
  diagnostics: readonly Diagnostic[];
  model: WsdlModel | undefined;
  /** The documents read, once the WSDL has been read. */
  documents?: LoadedDocuments;
  /** The names and decisions the files were emitted with (for `scaffold`). */
  plan?: EmitPlan;
}> {
  let loaded;
  try {
    loaded = await load(location, options);
  } catch (e) {
    const failure = inputFailure(e, location);
    if (failure) return { files: [], diagnostics: failure, model: undefined };
    throw e;
  }
  const { docs, built, diagnostics, failed } = loaded;
  if (failed) return { files: [], diagnostics, model: undefined };
  for (const [ns, name] of Object.entries(options.namespaceNames ?? {})) {
    const why = !isIdentifier(name)
      ? "is not an identifier generated code can declare (a reserved word or global is not)"
      : DESCRIPTORS_OWN_NAMES.includes(name)
        ? `is a name descriptors.ts uses itself (${DESCRIPTORS_OWN_NAMES.join(", ")}); choose another`
        : undefined;
    if (why === undefined) continue;
    const message = `namespaceNames: "${name}" (for ${ns}) ${why}`;
    const at = { file: withoutUserinfo(location), line: 0, column: 0 };
    return {
      files: [],
      diagnostics: [{ code: "OPTION_INVALID", severity: "error", message, ...at }],
      model: undefined,
    };
  }
  let files: OutputFile[];
  let planned: EmitPlan;
  try {
    planned = plan(
      built.model,
      built.nameHints,
      new Map(Object.entries(options.namespaceNames ?? {})),
    );
    files = emitFiles(planned, {
      runtimeImport: options.runtimeImport ?? "@wsdl-tsgen/runtime",
      sourceLabel: sourceLabel(location, options.labelBase),
      docs: options.docs ?? true,
      enumConstants: options.enumConstants ?? false,
      wsdl: options.embedWsdl === false ? undefined : embeddedWsdl(docs),
    });
  } catch (e) {
    const failure = inputFailure(e, location);
    if (failure) return { files: [], diagnostics: [...diagnostics, ...failure], model: undefined };
    throw e;
  }
  return { files, diagnostics, model: built.model, documents: docs, plan: planned };
}

/**
 * The WSDL to embed for `?WSDL`: the root document's text; with the documents it imports or
 * includes, each keyed by the query it is served at (`xsd=1` for a schema, `wsdl=2` for a WSDL,
 * numbered in the order they were read), their references to each other rewritten to those URLs.
 */
export function embeddedWsdl(docs: LoadedDocuments): string | EmbeddedWsdl {
  const root = docs.root.file;
  const others = [...docs.texts.keys()].filter((loc) => loc !== root);
  if (others.length === 0) return docs.texts.get(root) ?? "";
  const wsdlFiles = new Set(docs.definitions.map((d) => d.file));
  const keyed = others.map((loc, i): [string, string] => [
    loc,
    `${wsdlFiles.has(loc) ? "wsdl" : "xsd"}=${i + 1}`,
  ]);
  const keys = new Map(keyed);
  const texts = relocatedTexts(docs, (target) => {
    const key = keys.get(target);
    return key === undefined ? undefined : `${EMBEDDED_DOCUMENT}${key}`;
  });
  return {
    root: texts.get(root) ?? "",
    imports: Object.fromEntries(keyed.map(([loc, key]) => [key, texts.get(loc) ?? ""])),
  };
}

const GENERATED_MARK = "// @generated";

/** Generates and writes (or checks) the files for one WSDL into `options.out`. */
export async function generate(
  location: string,
  options: GenerateOptions,
): Promise<GenerateResult> {
  const generated = await generateFiles(location, options);
  const { diagnostics, model } = generated;
  if (!model) return { ok: false, diagnostics, files: [], changed: [], removed: [], model };
  const files =
    options.format === "prettier"
      ? await formatFiles(generated.files, options.out)
      : generated.files;
  const changed: string[] = [];
  for (const f of files) {
    const target = path.join(options.out, f.path);
    const existing = await readFile(target, "utf8").catch(() => undefined);
    if (existing !== f.content) changed.push(f.path);
  }
  const produced = new Set(files.map((f) => f.path));
  const removed: string[] = [];
  for (const name of await readdir(options.out).catch(() => [] as string[])) {
    if (!name.endsWith(".ts") || produced.has(name)) continue;
    const text = await readFile(path.join(options.out, name), "utf8").catch(() => "");
    if (text.includes(GENERATED_MARK)) removed.push(name);
  }
  if (!options.check) await writeGenerated(options.out, { files, changed, removed });
  return {
    ok: true,
    diagnostics,
    files,
    changed,
    removed: removed.sort(),
    model,
    plan: generated.plan,
    read: [...(generated.documents?.texts.keys() ?? [])].filter((f) => !/^https?:/i.test(f)),
  };
}
