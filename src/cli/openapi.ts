/**
 * `generate --openapi FILE`: the OpenAPI 3.1 document of a WSDL alone (src/emit/openapi), for users
 * who have a gateway of their own.
 */
import { writeFile } from "node:fs/promises";
import { generateOptionsOf } from "../config/source-options.js";
import type { SourceOptions } from "../config/options.js";
import { UsageError } from "../config/usage-error.js";
import { openApiDocument } from "../emit/openapi/openapi.js";
import { generateFiles } from "../generate.js";
import type { Diagnostic } from "../diagnostics.js";

/** What of a CLI run this writes through (main.ts's Run). */
interface Run {
  readonly io: { readonly stdout: (text: string) => void };
  exitCode: number;
  printDiagnostics(ds: readonly Diagnostic[], quiet: boolean): void;
}

/** Writes the document of the one source to `file`; gives the local files read (none: no watch). */
export async function writeOpenApi(
  run: Run,
  sources: readonly SourceOptions[],
  file: string,
  quiet: boolean,
): Promise<string[]> {
  if (sources.length !== 1)
    throw new UsageError("--openapi writes one document: give one WSDL (not a config's sources)");
  const source = sources[0]!;
  const options = await generateOptionsOf(source);
  const { plan, diagnostics } = await generateFiles(source.wsdl, options);
  run.printDiagnostics(diagnostics, quiet);
  if (plan === undefined || diagnostics.some((d) => d.severity === "error")) {
    run.exitCode = 1;
    return [];
  }
  const doc = openApiDocument(plan, { docs: options.docs ?? true });
  await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`);
  if (!quiet) run.io.stdout(`wrote ${file} (${Object.keys(doc.paths).length} operations)\n`);
  return [];
}
