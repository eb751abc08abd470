/** Compiles generated files (and any of a test's own beside them) with tsc's strict flags. */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { compilerOptions } from "../../scripts/corpus.js";
import { tempDir } from "./tmp.js";

/** tsc's errors for the files, strict flags, against the runtime's types. */
export function compileErrors(files: readonly { path: string; content: string }[]): string[] {
  const out = path.join(tempDir(), "gen");
  mkdirSync(out, { recursive: true });
  for (const f of files) writeFileSync(path.join(out, f.path), f.content);
  const program = ts.createProgram({
    rootNames: files.map((f) => path.join(out, f.path)),
    options: compilerOptions(),
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}
