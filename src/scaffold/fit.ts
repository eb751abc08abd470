/**
 * The `fit` helper's layout: lines fitted to 100 columns, and nothing else, so that what a template
 * writes stays the template's. A JSDoc block is re-flowed at word boundaries; a code line that is
 * too long breaks its first bracketed list one item a line (`f(\n  a,\n  b,\n)`), as Prettier
 * would; a line that fits is left as it is.
 */
import { wrapLine } from "../emit/comments.js";
import { PRINT_WIDTH as WIDTH } from "../emit/measure.js";

/** `text` with each JSDoc block re-flowed and each over-long code line broken. */
export function fit(text: string): string {
  const out: string[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*\/\*\*$/.test(line)) {
      const end = lines.findIndex((l, j) => j > i && /^\s*\*\/$/.test(l));
      if (end > i) {
        out.push(...reflow(lines.slice(i, end + 1)));
        i = end;
        continue;
      }
    }
    out.push(line.length > WIDTH ? breakList(line) : line);
  }
  return out.join("\n");
}

/**
 * A `/** … *\/` block's paragraphs (runs of ` * ` lines between blank ` *` ones), at 100 columns.
 */
function reflow(block: readonly string[]): string[] {
  const indent = block[0]!.slice(0, block[0]!.indexOf("/**"));
  const prefix = `${indent} * `;
  const paragraphs: string[][] = [[]];
  for (const l of block.slice(1, -1)) {
    const text = l.trim().replace(/^\*\s?/, "");
    if (text === "") paragraphs.push([]);
    else paragraphs[paragraphs.length - 1]!.push(...text.split(/\s+/));
  }
  const body = paragraphs.filter((p) => p.length > 0).map((words) => wrapWords(words, prefix));
  return [block[0]!, ...body.flatMap((p, i) => (i ? [`${indent} *`, ...p] : p)), block.at(-1)!];
}

/** Words filled into lines at `prefix`, as the generator's comments are (src/emit/comments.ts). */
const wrapWords = (words: readonly string[], prefix: string): string[] =>
  wrapLine(words.join(" "), WIDTH - prefix.length).map((l) => prefix + l);

/** An over-long line with its first bracketed list broken one item a line, else as it is. */
function breakList(line: string): string {
  const open = scan(line, 0, (i) => "([{".includes(line[i]!));
  const close = open < 0 ? -1 : closing(line, open);
  if (close < 0 || close === open + 1) return line;
  const indent = /^\s*/.exec(line)![0];
  const items = splitTopLevel(line.slice(open + 1, close));
  const inner = items.map((item) => `${indent}  ${item},`);
  return [line.slice(0, open + 1), ...inner, `${indent}${line.slice(close)}`].join("\n");
}

const OPENERS = "([{<";
const CLOSERS = ")]}>";

/**
 * Walks `text` from `from`, bracket depth counted outside string literals (a `(` in a quoted path
 * is no bracket), until `stop` says so: gives that index, or -1.
 */
function scan(text: string, from: number, stop: (i: number, depth: number) => boolean): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === "`") {
      i = stringEnd(text, i);
      continue;
    }
    if (OPENERS.includes(c)) depth++;
    else if (CLOSERS.includes(c) && !(c === ">" && text[i - 1] === "=")) depth--;
    if (stop(i, depth)) return i;
  }
  return -1;
}

/** The index of the quote that ends the string literal opened at `open` (the end if none does). */
function stringEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === text[open]) return i;
  }
  return text.length;
}

/** The index of the bracket that closes the one at `open`, or -1. */
const closing = (line: string, open: number): number => scan(line, open, (_, depth) => depth === 0);

/** `a: A, b: B<C, D>` as `["a: A", "b: B<C, D>"]`: split at the commas outside brackets. */
function splitTopLevel(list: string): string[] {
  const items: string[] = [];
  let start = 0;
  scan(list, 0, (i, depth) => {
    if (list[i] === "," && depth === 0) {
      items.push(list.slice(start, i).trim());
      start = i + 1;
    }
    return false;
  });
  return [...items, list.slice(start).trim()].filter((item) => item !== "");
}
