/**
 * The command line. Returns the exit code: 0 ok, 1 invalid input or stale output, 2 usage error, 3
 * internal error.
 */
import { UsageError } from "../config/usage-error.js";
import { NETWORK_KEYS, networkOptions, optionOf } from "./flags.js";
import { transportOf, type NetworkFlags } from "../config/network.js";
import { generateOptionsOf } from "../config/source-options.js";
import { existsSync, readFileSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import { Command, CommanderError } from "commander";
import { DiagnosticError, formatDiagnostic, type Diagnostic } from "../diagnostics.js";
import { download } from "../download.js";
import { generate, loadWsdl } from "../generate.js";
import { FormatterMissing } from "../format.js";
import { describeModel, modelToJson } from "../inspect.js";
import { ConfigError, loadConfig, starterConfig } from "../config/config.js";
import { watchGeneration } from "./watch.js";
import { writeOpenApi } from "./openapi.js";
import type { ScaffoldFlags } from "../scaffold/command.js";
import {
  CONFIG_FILE,
  isOptionValue,
  isRecord,
  OPTION_NAMES,
  OPTIONS,
  type OptionName,
  type OptionValue,
  type SourceOptions,
} from "../config/options.js";

/** An option's value as given on the command line, typed by its row of OPTIONS. */
type OptionReader = <K extends OptionName>(name: K) => OptionValue<K> | undefined;

/** The generator's version, from its package.json. */
const VERSION = versionOf(
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")),
);

function versionOf(pkg: unknown): string {
  return isRecord(pkg) && typeof pkg["version"] === "string" ? pkg["version"] : "unknown";
}

export const EXIT = { ok: 0, invalidInput: 1, usage: 2, internal: 3 } as const;

/**
 * V8 flags for the CLI's own process (bin/wsdl-tsgen.js; the library sets none in its host). In a
 * run this short the default budget starts the optimizing compiler early enough to compete with the
 * work on 2 cores (2 MiB WSDL 0.37–0.41 s with this against 0.44–0.52 s, alternating runs).
 */
export const CLI_ENGINE_FLAGS = "--interrupt-budget=500000";

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Colour only on a terminal, and never with NO_COLOR. */
  readonly color: boolean;
}

const defaultIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  color: Boolean(process.stderr.isTTY) && !process.env["NO_COLOR"],
};

/** `word` as a POSIX shell reads it back: quoted when it holds anything but plain characters. */
const shellWord = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

interface InspectFlags extends NetworkFlags {
  readonly json?: boolean;
  readonly header?: Record<string, string>;
}

interface DownloadFlags extends NetworkFlags {
  readonly to: string;
  readonly header?: Record<string, string>;
}

/** One run of the CLI: where it writes, and the exit code its commands set. */
interface Run {
  readonly io: CliIo;
  readonly argv: readonly string[];
  exitCode: number;
  printDiagnostics(ds: readonly Diagnostic[], quiet: boolean): void;
}

/** What `generate` did over all its sources, for the summary line. */
interface Totals {
  services: number;
  operations: number;
  types: number;
  written: number;
  unchanged: number;
}

export async function main(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  const run: Run = {
    io,
    argv,
    exitCode: EXIT.ok,
    printDiagnostics: (ds, quiet) => {
      for (const d of ds) if (d.severity === "error" || !quiet) io.stderr(`${coloured(io, d)}\n`);
    },
  };
  const program = new Command("wsdl-tsgen")
    .description(
      "Generate strict TypeScript types, clients and servers from a WSDL 1.1 service description.",
    )
    .version(VERSION, "-V, --version", "print the version")
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .addHelpText(
      "after",
      "\nExit codes: 0 ok, 1 invalid input (or stale output with --check), 2 usage error (arguments or config file), 3 internal error.",
    );
  generateCommand(program, run);
  scaffoldCommand(program, run);
  otherCommands(program, run);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return run.exitCode;
  } catch (e) {
    return failed(run, e);
  }
}

/** A severity word, in red (error) or yellow (warning) where the output has colour. */
const severity = (io: CliIo, word: "error" | "warning"): string =>
  !io.color ? word : `\u001b[${word === "error" ? 31 : 33}m${word}\u001b[39m`;

/** A diagnostic as printed, its severity in colour where the output has colour. */
function coloured(io: CliIo, d: Diagnostic): string {
  return formatDiagnostic(d).replace(`: ${d.severity} `, `: ${severity(io, d.severity)} `);
}

/** The exit code of a run that threw `e`, after saying why. */
function failed(run: Run, e: unknown): number {
  const io = run.io;
  if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
  if (e instanceof UsageError || e instanceof FormatterMissing) {
    io.stderr(`error: ${e.message}\n`);
    return EXIT.usage;
  }
  if (e instanceof ConfigError) {
    io.stderr(`${severity(io, "error")}: ${e.message}\n`);
    return EXIT.usage;
  }
  if (e instanceof DiagnosticError) {
    run.printDiagnostics(e.diagnostics, false);
    return EXIT.invalidInput;
  }
  io.stderr(`wsdl-tsgen: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
  if (process.env["WSDL_TSGEN_DEBUG"] && e instanceof Error && e.stack) io.stderr(`${e.stack}\n`);
  return EXIT.internal;
}

/** The `generate` command, its options made from the OPTIONS table. */
function generateCommand(program: Command, run: Run): void {
  const gen = program
    .command("generate")
    .description(
      `generate types, a client and a server skeleton for every binding of a WSDL (or of each source in ${CONFIG_FILE})`,
    )
    .argument("[wsdl]", OPTIONS.wsdl.description);
  // Commander names a flag's value after the flag (--namespace-name → namespaceName), not after
  // the option's key in OPTIONS: each option's value is read back under the name commander gave it.
  const attributes = new Map<OptionName, string>();
  for (const name of OPTION_NAMES) {
    if (name === "wsdl") continue;
    const o = optionOf(name);
    gen.addOption(o);
    attributes.set(name, o.attributeName());
  }
  // `wsdl` is the argument, no option: no value is read under its name.
  const attributeOf = (name: OptionName): string => attributes.get(name) ?? name;
  gen.action(async (wsdl: string | undefined, given: Record<string, unknown>) => {
    // Each value typed by its option's row of the table; commander gives no other (it parses
    // maps and headers and checks choices), so one of another kind is an internal error.
    const opt: OptionReader = (name) => {
      const v = given[attributeOf(name)];
      if (v === undefined || isOptionValue(name, v)) return v;
      throw new Error(`option ${name}: a value of another kind than ${OPTIONS[name].kind}`);
    };
    const fromCli = (name: OptionName) => gen.getOptionValueSource(attributeOf(name)) === "cli";
    const once = async (): Promise<string[]> => {
      const openapi = opt("openapi");
      if (openapi !== undefined)
        return writeOpenApi(
          run,
          await sourcesOf(wsdl, opt, fromCli),
          openapi,
          opt("quiet") === true,
        );
      const read = await generateSources(run, await sourcesOf(wsdl, opt, fromCli), opt);
      const config = wsdl === undefined ? configFileOf(opt) : undefined;
      return config === undefined ? read : [...read, config];
    };
    // A usage error before any work: --watch --check would otherwise check once, then refuse.
    if (opt("watch") === true && opt("check") === true)
      throw new UsageError("--watch writes; it does not go with --check");
    if (opt("openapi") !== undefined && opt("check") === true)
      throw new UsageError("--openapi writes its document; it does not go with --check");
    const read = await once();
    if (opt("watch") !== true) return;
    await watchGeneration(run.io, read, async () => {
      run.exitCode = EXIT.ok;
      return once().catch((e: unknown) => (failed(run, e), read));
    });
    run.exitCode = EXIT.ok;
  });
}

/**
 * The sources to generate: the WSDL argument, or else the config file's sources. CLI flags
 * override the config file; with a WSDL argument, the config's sources are not used.
 */
async function sourcesOf(
  wsdl: string | undefined,
  opt: OptionReader,
  fromCli: (name: OptionName) => boolean,
): Promise<SourceOptions[]> {
  const overrides: Partial<SourceOptions> = {};
  const out = opt("out");
  const runtimeImport = opt("runtimeImport");
  const namespaceNames = opt("namespaceNames");
  const headers = opt("headers");
  const operations = opt("operations");
  const [embedWsdl, docs, format] = [opt("embedWsdl"), opt("docs"), opt("format")];
  if (out !== undefined) overrides.out = out;
  if (runtimeImport !== undefined) overrides.runtimeImport = runtimeImport;
  if (namespaceNames !== undefined) overrides.namespaceNames = namespaceNames;
  if (headers !== undefined) overrides.headers = headers;
  if (operations !== undefined) overrides.operations = operations;
  // A negatable flag always has a value; only an explicit --no-embed-wsdl overrides the config
  // file.
  if (fromCli("embedWsdl") && embedWsdl !== undefined) overrides.embedWsdl = embedWsdl;
  if (fromCli("docs") && docs !== undefined) overrides.docs = docs;
  if (fromCli("format") && format !== undefined) overrides.format = format;
  if (opt("strict") === true) overrides.strict = true;
  if (opt("enumConstants") === true) overrides.enumConstants = true;
  for (const k of NETWORK_KEYS) if (opt(k) !== undefined) Object.assign(overrides, { [k]: opt(k) });
  if (wsdl !== undefined) {
    if (!overrides.out && opt("openapi") === undefined)
      throw new UsageError("required option '-o, --out <dir>' not specified");
    return [{ ...overrides, wsdl, out: overrides.out ?? "" }];
  }
  const configFile = configFileOf(opt);
  if (!configFile)
    throw new UsageError(
      `missing argument 'wsdl' (or a ${CONFIG_FILE}; run 'wsdl-tsgen init' to write one)`,
    );
  const config = await loadConfig(configFile);
  return config.sources.map((s) => ({ ...s, ...overrides }));
}

/** The config file a run without a WSDL argument reads, if there is one. */
const configFileOf = (opt: OptionReader): string | undefined =>
  opt("config") ?? (existsSync(CONFIG_FILE) ? CONFIG_FILE : undefined);

/**
 * Generates (or, with --check, checks) every source, then prints the summary line; gives the local
 * files read.
 */
async function generateSources(
  run: Run,
  sources: readonly SourceOptions[],
  opt: OptionReader,
): Promise<string[]> {
  const read: string[] = [];
  const quiet = opt("quiet") === true;
  const verbose = opt("verbose") === true;
  const check = opt("check") === true;
  const started = performance.now();
  const totals: Totals = { services: 0, operations: 0, types: 0, written: 0, unchanged: 0 };
  for (const source of sources) {
    if (statSync(source.out, { throwIfNoEntry: false })?.isDirectory() === false)
      throw new UsageError(`--out ${source.out} is a file; expected a folder`);
    const result = await generate(source.wsdl, { ...(await generateOptionsOf(source)), check });
    run.printDiagnostics(result.diagnostics, quiet && !verbose);
    read.push(...(result.read ?? (/^https?:/i.test(source.wsdl) ? [] : [source.wsdl])));
    if (!result.ok) {
      run.exitCode = EXIT.invalidInput;
      continue;
    }
    count(totals, result);
    if (check) reportStale(run, source.out, result);
    else if (verbose) {
      for (const f of result.changed) run.io.stdout(`  wrote ${path.join(source.out, f)}\n`);
      for (const f of result.removed) run.io.stdout(`  removed ${path.join(source.out, f)}\n`);
    }
  }
  if (quiet || run.exitCode !== EXIT.ok) return read;
  const ms = Math.round(performance.now() - started);
  const what = check
    ? `${plural(totals.unchanged, "file")} up to date`
    : `${plural(totals.written, "file")} written, ${totals.unchanged} unchanged`;
  run.io.stdout(
    `${plural(totals.services, "service")}, ${plural(totals.operations, "operation")}, ${plural(totals.types, "type")}: ${what} (${ms} ms)\n`,
  );
  return read;
}

type Generated = Awaited<ReturnType<typeof generate>>;

function count(totals: Totals, result: Generated): void {
  const m = result.model!;
  totals.services += m.services.length;
  totals.operations += m.services.reduce((n, s) => n + s.operations.length, 0);
  totals.types += m.types.length;
  totals.written += result.changed.length + result.removed.length;
  totals.unchanged += result.files.length - result.changed.length;
}

/** With --check: what is out of date in `out`, and the command that brings it up to date. */
function reportStale(run: Run, out: string, result: Generated): void {
  const stale = [
    ...result.changed.map((f) => `${existsSync(path.join(out, f)) ? "changed" : "missing"}: ${f}`),
    ...result.removed.map((f) => `removed: ${f}`),
  ];
  if (stale.length === 0) return;
  // The same command, every flag as given, without --check.
  const fix = ["wsdl-tsgen", ...run.argv.filter((a) => a !== "--check")].map(shellWord).join(" ");
  run.io.stderr(`${out} is out of date:\n${stale.map((s) => `  ${s}`).join("\n")}\nRun: ${fix}\n`);
  run.exitCode = EXIT.invalidInput;
}

/**
 * The `scaffold` command. Its module, and Handlebars and ts-morph with it, are loaded only when it
 * runs: `generate` pays nothing for them.
 */
function scaffoldCommand(program: Command, run: Run): void {
  const scaffold = program
    .command("scaffold")
    .description(
      "write a project that serves the WSDL (a server to implement, or with --mock a mock), or with --update bring one in step with its WSDL",
    )
    .argument("[wsdl]", OPTIONS.wsdl.description)
    .option("-o, --out <dir>", "the project folder to write (new, or empty)")
    .option("--mock", "each operation answers a sample built from the schema, not a fault")
    .option(
      "--gateway",
      "a JSON/OpenAPI 3.1 gateway in front of a running SOAP service (docs/gateway.md), not a server",
    )
    .option(
      "--templates <dir>",
      "templates that replace the built-in ones by file name, or add files",
    )
    .option("--name <name>", "the npm package name (default: the folder's name)")
    .option(
      "--update",
      "in a scaffolded project: regenerate src/generated/ and add the new operations to src/service.ts",
    )
    .option("--check", "with --update: write nothing; exit 1 when anything would change")
    .option("--strict", OPTIONS.strict.description)
    .addOption(optionOf("operations"))
    .addOption(optionOf("headers"));
  networkOptions(scaffold).action(async (wsdl: string | undefined, flags: ScaffoldFlags) => {
    const module = await import("../scaffold/command.js");
    run.exitCode = await module.scaffoldCli(wsdl, flags, run.io, (ds) =>
      run.printDiagnostics(ds, false),
    );
  });
}

/** The `init`, `inspect` and `download` commands. */
function otherCommands(program: Command, run: Run): void {
  const io = run.io;
  program
    .command("init")
    .description(`write a starter ${CONFIG_FILE} in the working directory`)
    .option("--force", "overwrite an existing file")
    .action(async (opts: { force?: boolean }) => {
      if (existsSync(CONFIG_FILE) && !opts.force)
        throw new UsageError(`${CONFIG_FILE} already exists (use --force to overwrite)`);
      await writeFile(CONFIG_FILE, starterConfig());
      io.stdout(`wrote ${CONFIG_FILE}\n`);
    });

  const inspect = program
    .command("inspect")
    .description(
      "print the services, ports, bindings and operations of a WSDL with their typed signatures",
    )
    .argument("<wsdl>", OPTIONS.wsdl.description)
    .option("--json", "print the model as JSON")
    .addOption(optionOf("headers"));
  networkOptions(inspect).action(async (wsdl: string, opts: InspectFlags) => {
    const transport = await transportOf(opts);
    const r = await loadWsdl(wsdl, { ...(opts.header ? { headers: opts.header } : {}), transport });
    run.printDiagnostics(r.diagnostics, false);
    if (!r.model) {
      run.exitCode = EXIT.invalidInput;
      return;
    }
    io.stdout(
      opts.json ? `${JSON.stringify(modelToJson(r.model), null, 2)}\n` : describeModel(r.model),
    );
  });

  const downloadCommand = program
    .command("download")
    .description(
      "vendor a WSDL and every document it imports into a folder, with import locations rewritten",
    )
    .argument("<url>", OPTIONS.wsdl.description)
    .requiredOption("--to <dir>", "folder to write the documents to")
    .addOption(optionOf("headers"));
  networkOptions(downloadCommand).action(async (url: string, opts: DownloadFlags) => {
    const transport = await transportOf(opts);
    const r = await download(url, opts.to, {
      ...(opts.header ? { headers: opts.header } : {}),
      transport,
    });
    io.stdout(
      `${plural(r.files.length, "document")} written to ${opts.to}; the root is ${path.join(opts.to, r.root)}\n`,
    );
  });
}
