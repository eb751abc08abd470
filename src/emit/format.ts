/** Formats generated TypeScript with a pinned Prettier configuration (never the user's .prettierrc). */
import * as prettier from "prettier";
import { settle } from "./settle.js";

export const PRETTIER_OPTIONS: prettier.Options = {
  parser: "typescript",
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

const MARK = "__wsdl_tsgen_settled_";
const MARK_LINE = /^__wsdl_tsgen_settled_(\d+)__;$/gm;

/**
 * The settled statements of one file (see settle.ts): each stands in the code as a one-line
 * placeholder statement (`__wsdl_tsgen_settled_N__;`) at the top level, Prettier formats what is left,
 * and the placeholders are then replaced by the statements. Prettier keeps such a line, and the blank
 * lines around it, as written. (Placeholders are statements, not comments: Prettier attaches every
 * comment to a node, which costs more than formatting the statement would.)
 */
export class SettledStatements {
  private readonly texts: string[] = [];

  /** A placeholder for `code` when its final layout is known (`settled`), else `code` itself for Prettier. */
  add(code: string, settled: string | undefined = settle(code)): string {
    if (settled === undefined) return code;
    this.texts.push(settled);
    return `${MARK}${this.texts.length - 1}__;`;
  }

  /** Formats `code` (holding this object's placeholders, each on its own line at the top level). */
  async format(code: string): Promise<string> {
    if (this.texts.length === 0) return formatTypeScript(code);
    // Each run of placeholders becomes one, holding the statements with the blank lines Prettier would
    // keep between them (one at most): Prettier costs about as much per placeholder as per statement.
    const runs: string[] = [];
    const lines: string[] = [];
    let run: string[] | undefined;
    let blank = false;
    let seen = 0;
    for (const line of code.split("\n")) {
      const m = /^__wsdl_tsgen_settled_(\d+)__;$/.exec(line);
      if (m) {
        seen++;
        const text = this.texts[Number(m[1])]!;
        if (run) run.push(blank ? `\n${text}` : text);
        else {
          run = [text];
          runs.push("");
          lines.push(`${MARK}${runs.length - 1}__;`);
        }
        blank = false;
      } else if (line.trim() === "" && run) {
        blank = true;
      } else {
        if (run) {
          runs[runs.length - 1] = run.join("\n");
          if (blank) lines.push("");
          run = undefined;
          blank = false;
        }
        lines.push(line);
      }
    }
    if (run) runs[runs.length - 1] = run.join("\n");
    if (seen !== this.texts.length) throw new Error(`internal error: ${this.texts.length - seen} settled statement(s) not placed in the code`);
    let placed = 0;
    const out = (await formatTypeScript(lines.join("\n"))).replace(MARK_LINE, (_m, i: string) => {
      placed++;
      return runs[Number(i)]!;
    });
    if (placed !== runs.length) throw new Error(`internal error: ${runs.length - placed} settled statement(s) lost in formatting`);
    return out;
  }
}
