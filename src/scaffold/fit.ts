/**
 * The `fit` helper's layout: lines fitted to 100 columns, and nothing else, so that what a template
 * writes stays the template's. A JSDoc block is re-flowed at word boundaries, each list item and
 * tag an entry of its own; a code line that is too long breaks its first bracketed list one item a
 * line (`f(\n  a,\n  b,\n)`), as Prettier would, and so on for each line still too long; a line
 * that fits is left as it is.
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
    out.push(...fitCode(line));
  }
  return out.join("\n");
}

/** A code line over 100 columns broken at its first list, then each line still over, again. */
function fitCode(line: string, depth = 0): string[] {
  if (line.length <= WIDTH || depth > 8) return [line];
  const broken = breakList(line).split("\n");
  if (broken.length === 1) return broken;
  return broken.flatMap((l) => fitCode(l, depth + 1));
}

/** A JSDoc line that starts an entry of its own: a list item (`- a`, `* a`, `1. a`) or a tag. */
const ENTRY = /^(?:[-*+]|\d+[.)]|@\w+)\s/;

/**
 * A `/** … *\/` block's paragraphs (runs of ` * ` lines between blank ` *` ones), at 100 columns.
 * A list item or tag begins an entry of its own, its continuation lines indented under its text.
 */
function reflow(block: readonly string[]): string[] {
  const indent = block[0]!.slice(0, block[0]!.indexOf("/**"));
  const prefix = `${indent} * `;
  const paragraphs: string[][][] = [[]];
  for (const l of block.slice(1, -1)) {
    const text = l.trim().replace(/^\*\s?/, "");
    const entries = paragraphs[paragraphs.length - 1]!;
    if (text === "") paragraphs.push([]);
    else if (entries.length === 0 || ENTRY.test(text)) entries.push(text.split(/\s+/));
    else entries[entries.length - 1]!.push(...text.split(/\s+/));
  }
  const body = paragraphs
    .filter((p) => p.length > 0)
    .map((entries) => entries.flatMap((words) => wrapEntry(words, prefix)));
  return [block[0]!, ...body.flatMap((p, i) => (i ? [`${indent} *`, ...p] : p)), block.at(-1)!];
}

/**
 * Words filled into lines at `prefix`, as the generator's comments are (src/emit/comments.ts); a
 * list item's or tag's later lines are indented under the text after its marker.
 */
function wrapEntry(words: readonly string[], prefix: string): string[] {
  const text = words.join(" ");
  const width = WIDTH - prefix.length;
  const head = wrapLine(text, width)[0] ?? "";
  const rest = text.slice(head.length).trim();
  if (rest === "") return [prefix + head];
  const hang = ENTRY.test(`${words[0]} `) ? " ".repeat(words[0]!.length + 1) : "";
  return [prefix + head, ...wrapLine(rest, width - hang.length).map((l) => prefix + hang + l)];
}

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
