/** The command line: `wsdl-tsgen generate <wsdl-file-or-url> --out <dir>`. Returns the exit code. */
import { Command, CommanderError, Option } from "commander";
import { formatDiagnostic } from "../diagnostics.js";
import { generate } from "../generate.js";
import { GENERATE_OPTIONS, type GenerateCliOptions } from "./options.js";

export const EXIT = { ok: 0, invalidInput: 1, usage: 2, internal: 3 } as const;

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const defaultIo: CliIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };

export async function main(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command("wsdl-tsgen")
    .description("Generate strict TypeScript types, clients and servers from a WSDL 1.1 service description.")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .addHelpText("after", "\nExit codes: 0 ok, 1 invalid input (or stale output with --check), 2 usage error, 3 internal error.");

  const gen = program
    .command("generate")
    .description("generate types, a client and a server skeleton for every binding of a WSDL")
    .argument("<wsdl>", "WSDL file path or http(s) URL");
  for (const spec of Object.values(GENERATE_OPTIONS)) {
    const o = new Option(spec.flag, spec.description);
    if ("default" in spec && spec.kind === "string") o.default(spec.default);
    gen.addOption(o);
  }
  gen.action(async (wsdl: string, opts: Partial<GenerateCliOptions>) => {
    if (!opts.out) {
      io.stderr("error: required option '-o, --out <dir>' not specified\n");
      exitCode = EXIT.usage;
      return;
    }
    const started = performance.now();
    const result = await generate(wsdl, { out: opts.out, runtimeImport: opts.runtimeImport ?? "wsdl-tsgen/runtime", check: opts.check === true });
    for (const d of result.diagnostics) {
      if (d.severity === "error" || !opts.quiet) io.stderr(`${formatDiagnostic(d)}\n`);
    }
    if (!result.ok) {
      exitCode = EXIT.invalidInput;
      return;
    }
    if (opts.check) {
      const stale = [...result.changed.map((f) => `changed: ${f}`), ...result.removed.map((f) => `removed: ${f}`)];
      if (stale.length > 0) {
        io.stderr(`${opts.out} is out of date:\n${stale.map((s) => `  ${s}`).join("\n")}\nRun: wsdl-tsgen generate ${wsdl} --out ${opts.out}\n`);
        exitCode = EXIT.invalidInput;
      } else if (!opts.quiet) io.stdout(`${opts.out} is up to date (${result.files.length} files).\n`);
      return;
    }
    if (!opts.quiet) {
      const m = result.model!;
      const ops = m.services.reduce((n, s) => n + s.operations.length, 0);
      const ms = Math.round(performance.now() - started);
      io.stdout(
        `${m.services.length} service${m.services.length === 1 ? "" : "s"}, ${ops} operation${ops === 1 ? "" : "s"}, ${m.types.length} types: ` +
          `${result.changed.length} file${result.changed.length === 1 ? "" : "s"} written, ${result.files.length - result.changed.length} unchanged in ${opts.out} (${ms} ms)\n`,
      );
    }
  });

  try {
    await program.parseAsync(argv as string[], { from: "user" });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    io.stderr(`wsdl-tsgen: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    if (process.env["WSDL_TSGEN_DEBUG"] && e instanceof Error && e.stack) io.stderr(`${e.stack}\n`);
    return EXIT.internal;
  }
}
