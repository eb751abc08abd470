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

const MARK = "//@@wsdl-tsgen-settled:";
const MARK_LINE = /^\/\/@@wsdl-tsgen-settled:(\d+)$/gm;

/**
 * The settled statements of one file (see settle.ts): each stands in the code as a one-line comment
 * at the top level, Prettier formats what is left, and the comments are then replaced by the
 * statements. Prettier keeps such a comment line, and the blank lines around it, as written.
 */
export class SettledStatements {
  private readonly texts: string[] = [];

  /** A placeholder for `code` when its final layout is known (`settled`), else `code` itself for Prettier. */
  add(code: string, settled: string | undefined = settle(code)): string {
    if (settled === undefined) return code;
    this.texts.push(settled);
    return `${MARK}${this.texts.length - 1}`;
  }

  /** Formats `code` (holding this object's placeholders, each on its own line at the top level). */
  async format(code: string): Promise<string> {
    if (this.texts.length === 0) return formatTypeScript(code);
    let seen = 0;
    const out = (await formatTypeScript(code)).replace(MARK_LINE, (_m, i: string) => {
      seen++;
      return this.texts[Number(i)]!;
    });
    if (seen !== this.texts.length) throw new Error(`internal error: ${this.texts.length - seen} settled statement(s) lost in formatting`);
    return out;
  }
}
