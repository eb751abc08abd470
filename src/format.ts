/**
 * `--format prettier`: the written files reformatted by the Prettier of the user's project, with
 * its configuration. The generator itself never formats (src/emit/printer.ts owns the layout), and
 * Prettier is only an optional peer dependency, so it is looked up where the output is written.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

export type Formatter = "none" | "prettier";

/** `--format prettier` with no Prettier to be found: a usage error that says how to install it. */
export class FormatterMissing extends Error {}

interface PrettierApi {
  resolveConfig(file: string, options: { editorconfig: boolean }): Promise<object | null>;
  format(source: string, options: object): Promise<string>;
}

/** Prettier as resolved from `dir` (the output folder, so the user's project), else from here. */
async function loadPrettier(dir: string): Promise<PrettierApi> {
  const from = [path.join(path.resolve(dir), "noop.js"), import.meta.url];
  for (const base of from) {
    let resolved: string;
    try {
      resolved = createRequire(base).resolve("prettier");
    } catch {
      continue;
    }
    const mod = (await import(pathToFileURL(resolved).href)) as PrettierApi & {
      default?: PrettierApi;
    };
    return typeof mod.format === "function" ? mod : mod.default!;
  }
  throw new FormatterMissing(
    `--format prettier: Prettier is not installed in this project (looked from ${dir}). Install it with \`npm install --save-dev prettier\`, or leave out --format to keep the generator's own layout.`,
  );
}

/** The files' contents after the user's Prettier, as it would format them at `out/<path>`. */
export async function formatFiles<F extends { readonly path: string; readonly content: string }>(
  files: readonly F[],
  out: string,
): Promise<F[]> {
  const prettier = await loadPrettier(out);
  const formatted: F[] = [];
  for (const f of files) {
    const filepath = path.resolve(out, f.path);
    const config = (await prettier.resolveConfig(filepath, { editorconfig: true })) ?? {};
    const content = await prettier.format(f.content, { ...config, filepath });
    formatted.push({ ...f, content });
  }
  return formatted;
}
