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

/** One error of `compileFolders`: the file (relative to the folders' root), 1-based line, text. */
export interface FolderError {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

/**
 * tsc's errors for several folders of files (each an SDK, say) in one program, strict flags,
 * against the runtime's types.
 */
export function compileFolders(
  folders: ReadonlyMap<string, readonly { path: string; content: string }[]>,
): FolderError[] {
  const root = tempDir();
  const names: string[] = [];
  for (const [folder, files] of folders) {
    mkdirSync(path.join(root, folder), { recursive: true });
    for (const f of files) {
      names.push(path.join(root, folder, f.path));
      writeFileSync(names.at(-1)!, f.content);
    }
  }
  const program = ts.createProgram({ rootNames: names, options: compilerOptions() });
  return ts.getPreEmitDiagnostics(program).map((d) => ({
    file: d.file ? path.relative(root, d.file.fileName) : "",
    line:
      d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
    message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
  }));
}
