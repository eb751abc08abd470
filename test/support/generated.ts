/**
 * Generates a WSDL given as text into a temporary folder and imports the generated index.ts: the
 * tests that run a small WSDL's generated client against its generated server start here.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "vitest";
import type { Diagnostic } from "../../src/diagnostics.js";
import type { OutputFile } from "../../src/emit/emit.js";
import { generateFiles } from "../../src/generate.js";
import { tempDir, writeTemp } from "./tmp.js";

export interface Generated<M> {
  /** The generated modules' exports (index.ts). */
  readonly mod: M;
  readonly files: readonly OutputFile[];
  readonly diagnostics: readonly Diagnostic[];
  /** The text of one generated file (`types.ts`, `descriptors.ts`, …). */
  file(name: string): string;
}

/**
 * Generates `wsdl` (saved as `name`, beside `documents` it imports, by relative path), expecting no
 * error, and imports what it generated.
 */
export async function generateAndImport<M>(
  wsdl: string,
  name = "service.wsdl",
  documents: Readonly<Record<string, string>> = {},
): Promise<Generated<M>> {
  const dir = tempDir();
  for (const [file, text] of Object.entries(documents)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const r = await generateFiles(writeTemp(dir, name, wsdl));
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  for (const f of r.files) writeFileSync(path.join(dir, f.path), f.content);
  const mod = (await import(pathToFileURL(path.join(dir, "index.ts")).href)) as M;
  return {
    mod,
    files: r.files,
    diagnostics: r.diagnostics,
    file: (n) => r.files.find((f) => f.path === n)!.content,
  };
}
