/** Formats generated TypeScript with a pinned Prettier configuration (never the user's .prettierrc). */
import * as prettier from "prettier";
import { settle } from "./settle.js";

/**
 * The babel-ts parser, not typescript: it loads in less time (a fifth of the typescript plugin's
 * size) and prints generated code identically (every checked-in sample, and every corpus root's
 * output, compared; test/emit/settle.test.ts also holds the samples to the typescript parser).
 */
export const PRETTIER_OPTIONS: prettier.Options = {
  parser: "babel-ts",
  printWidth: 100,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  quoteProps: "as-needed",
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
};

export async function formatTypeScript(code: string): Promise<string> {
  return prettier.format(code, PRETTIER_OPTIONS);
}

const PLACEHOLDER = /^( *)__wsdl_tsgen_settled_(\d+)__(;|: 0,)$/;
const PLACEHOLDERS = /^( *)__wsdl_tsgen_settled_(\d+)__(?:;|: 0,)$/gm;

/**
 * The settled statements of one file (see settle.ts). Each stands in the code as a one-line
 * placeholder, `__wsdl_tsgen_settled_N__;` (a statement, or a class or interface member) or
 * `__wsdl_tsgen_settled_N__: 0,` (an object property), indented as the statement will be. A run of
 * placeholders becomes one, Prettier formats what is left, and the placeholders are replaced by the
 * statements, with the blank lines Prettier keeps between them (one at most). Placeholders are not
 * comments: Prettier attaches every comment to a node, which costs more than formatting would.
 * Should Prettier put a placeholder at another indentation than its statement's, the whole file is
 * formatted by Prettier instead.
 */
export class SettledStatements {
  private readonly texts: string[] = [];
  private readonly originals: string[] = [];

  /** A placeholder for `code` (a statement or member) when its final layout is known, else `code` itself. */
  add(code: string, settled: string | undefined = settle(code)): string {
    return this.place(code, settled, ";");
  }

  /** The same for an object property (`code` ends with its comma). */
  addProperty(code: string, settled: string | undefined): string {
    return this.place(code, settled, ": 0,");
  }

  private place(code: string, settled: string | undefined, end: string): string {
    if (settled === undefined) return code;
    this.texts.push(settled);
    this.originals.push(code);
    return `${/^ */.exec(settled)![0]}__wsdl_tsgen_settled_${this.texts.length - 1}__${end}`;
  }

  /** Formats `code`, which holds this object's placeholders, each on a line of its own. */
  async format(code: string): Promise<string> {
    if (this.texts.length === 0) return formatTypeScript(code);
    const runs: { indent: string; text: string }[] = [];
    const lines: string[] = [];
    let run: { indent: string; end: string; parts: string[] } | undefined;
    let blank = false;
    let seen = 0;
    const close = () => {
      if (!run) return;
      runs.push({ indent: run.indent, text: run.parts.join("\n") });
      lines.push(`${run.indent}__wsdl_tsgen_settled_${runs.length - 1}__${run.end}`);
      if (blank) lines.push("");
      run = undefined;
      blank = false;
    };
    for (const line of code.split("\n")) {
      const m = PLACEHOLDER.exec(line);
      if (m) {
        seen++;
        if (run && (run.indent !== m[1] || run.end !== m[3])) close();
        const text = this.texts[Number(m[2])]!;
        if (run) run.parts.push(blank ? `\n${text}` : text);
        else run = { indent: m[1]!, end: m[3]!, parts: [text] };
        blank = false;
      } else if (line.trim() === "" && run) {
        blank = true;
      } else {
        close();
        lines.push(line);
      }
    }
    close();
    if (seen !== this.texts.length)
      throw new Error(
        `internal error: ${this.texts.length - seen} settled statement(s) not placed in the code`,
      );
    let placed = 0;
    let misplaced = false;
    const out = (await formatTypeScript(lines.join("\n"))).replace(
      PLACEHOLDERS,
      (_m, indent: string, i: string) => {
        placed++;
        const r = runs[Number(i)]!;
        if (indent !== r.indent) misplaced = true;
        return r.text;
      },
    );
    if (placed !== runs.length)
      throw new Error(
        `internal error: ${runs.length - placed} settled statement(s) lost in formatting`,
      );
    if (!misplaced) return out;
    return formatTypeScript(
      code.replace(PLACEHOLDERS, (_m, _indent: string, i: string) => this.originals[Number(i)]!),
    );
  }
}
