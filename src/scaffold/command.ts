/**
 * The `scaffold` command's work, behind the CLI's dynamic import: a new project, or with `--update`
 * an existing one brought in step with its WSDL. Returns the exit code.
 */
import { ConfigError } from "../config/config.js";
import { UsageError } from "../config/usage-error.js";
import { transportOf, type NetworkFlags } from "../config/network.js";
import { DiagnosticError, type Diagnostic } from "../diagnostics.js";
import { scaffold } from "./scaffold.js";
import { updateProject } from "./project-update.js";

export interface ScaffoldFlags extends NetworkFlags {
  readonly out?: string;
  readonly mock?: boolean;
  readonly gateway?: boolean;
  readonly templates?: string;
  readonly name?: string;
  readonly update?: boolean;
  readonly check?: boolean;
  readonly strict?: boolean;
  readonly header?: Record<string, string>;
  readonly operations?: readonly string[];
}

interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** The flags `--update` takes no part in, and those only it takes. */
const NEW_ONLY = ["out", "mock", "gateway", "templates", "name", "header", "operations"] as const;

function usageProblem(wsdl: string | undefined, flags: ScaffoldFlags): string | undefined {
  if (flags.update) {
    if (wsdl !== undefined)
      return "--update takes no WSDL: it reads the project's wsdl-tsgen.config.json";
    const given = NEW_ONLY.find((k) => flags[k] !== undefined);
    if (given) return `--${given} goes with a new project, not with --update`;
    return undefined;
  }
  if (flags.check) return "--check goes with --update";
  if (wsdl === undefined) return "missing argument 'wsdl' (a WSDL file path or http(s) URL)";
  if (flags.out === undefined) return "required option '-o, --out <dir>' not specified";
  return undefined;
}

export async function scaffoldCli(
  wsdl: string | undefined,
  flags: ScaffoldFlags,
  io: Io,
  print: (ds: readonly Diagnostic[]) => void,
): Promise<number> {
  const problem = usageProblem(wsdl, flags);
  if (problem) {
    io.stderr(`error: ${problem}\n`);
    return 2;
  }
  try {
    if (flags.update) return await update(flags, io, print);
    const result = await scaffold({
      wsdl: wsdl!,
      out: flags.out!,
      mock: flags.mock === true,
      gateway: flags.gateway === true,
      strict: flags.strict === true,
      ...(flags.templates !== undefined ? { templates: flags.templates } : {}),
      ...(flags.name !== undefined ? { name: flags.name } : {}),
      ...(flags.operations !== undefined ? { operations: flags.operations } : {}),
      ...(flags.header ? { headers: flags.header } : {}),
      transport: await transportOf(flags),
    });
    print(result.diagnostics);
    const ops = result.context.services.reduce((n, s) => n + s.operations.length, 0);
    const out = flags.out!;
    io.stdout(
      `${result.files.length} files written to ${out}: ${ops} operation${ops === 1 ? "" : "s"}${flags.mock ? ", mocked" : ""}${flags.gateway ? ", a gateway" : ""}.\n` +
        `Next: cd ${shellPath(out)} && npm install && npm test && npm start\n`,
    );
    return 0;
  } catch (e) {
    // This module is loaded apart from the CLI's bundle, so its errors are told apart here.
    if (e instanceof ConfigError || e instanceof UsageError) {
      io.stderr(`error: ${e.message}\n`);
      return e instanceof UsageError ? 2 : 1;
    }
    if (!(e instanceof DiagnosticError)) throw e;
    print(e.diagnostics);
    return e.diagnostics.some((d) => d.code === "SCAFFOLD_USAGE") ? 2 : 1;
  }
}

const shellPath = (p: string) => (/^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, "'\\''")}'`);

async function update(
  flags: ScaffoldFlags,
  io: Io,
  print: (ds: readonly Diagnostic[]) => void,
): Promise<number> {
  const result = await updateProject(process.cwd(), {
    check: flags.check === true,
    strict: flags.strict === true,
  });
  print(result.diagnostics);
  if (!result.ok) return 1;
  for (const c of result.changes)
    io.stdout(`  ${flags.check ? "would change" : "changed"}: ${c}\n`);
  if (result.changes.length === 0) io.stdout("Up to date.\n");
  else if (flags.check) {
    // In the project, the generator is a dev dependency reached through its script, not on PATH.
    io.stderr("The project is out of date. Run: npm run update\n");
    return 1;
  }
  return 0;
}
