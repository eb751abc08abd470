/** Formats generated TypeScript with a pinned Prettier configuration (never the user's .prettierrc). */
import * as prettier from "prettier";

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
