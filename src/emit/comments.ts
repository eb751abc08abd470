/**
 * Comments laid out at the printer's width (printer.ts): JSDoc blocks and `//` lines wrapped at
 * word boundaries. A word longer than the width (a URL, a long identifier) stays whole on its own
 * line.
 */
import { PRINT_WIDTH } from "./measure.js";

/**
 * The words of one line of text. An inline tag (`{@link A b}`) is one word: broken, it would no
 * longer be a link.
 */
function words(line: string): string[] {
  const tags = line.replace(/\{@[^}]*\}/g, (tag) => tag.replace(/\s+/g, "\u0000"));
  return tags
    .split(/\s+/)
    .filter((w) => w !== "")
    .map((w) => w.replace(/\u0000/g, " "));
}

/** A word that would mean something else at a line's start: a JSDoc tag or a Markdown marker. */
const markerAtStart = (word: string): boolean =>
  word.startsWith("@") || /^(?:[-+*>]|#+|\d+[.)])$/.test(word);

/**
 * Fills lines of at most `room` columns with `line`'s words, none starting with a marker. A line
 * that fits is kept as written: its spacing (aligned columns, a code sample) may mean something.
 */
export function wrapLine(line: string, room: number): string[] {
  if (line.length <= room) return [line];
  const out: string[][] = [];
  let current: string[] = [];
  let used = 0;
  for (const word of words(line)) {
    if (current.length > 0 && used + 1 + word.length > room) {
      // Carry the previous word along rather than start a line with a marker.
      const last = current[current.length - 1]!;
      const carry =
        markerAtStart(word) && current.length > 1 && last.length + 1 + word.length <= room;
      if (carry) current.pop();
      out.push(current);
      current = carry ? [last] : [];
      used = carry ? last.length : 0;
    }
    used += (current.length > 0 ? 1 : 0) + word.length;
    current.push(word);
  }
  if (current.length > 0 || out.length === 0) out.push(current);
  return out.map((ws) => ws.join(" "));
}

/**
 * A JSDoc comment at `indent`: one line when the text is one line and fits, else a block whose
 * lines are wrapped to the width.
 */
export function docComment(text: string, indent: string): string {
  // Most docs are one short line with no `*/`: no regex, split or join for them.
  const oneLine = text.indexOf("\n") === -1 && text.indexOf("*/") === -1;
  if (oneLine && indent.length + text.length + 7 <= PRINT_WIDTH)
    return `${indent}/** ${text.trim()} */`;
  // One pass over the lines, no array per step: every type's JSDoc has several (its provenance).
  const lines = (text.includes("*/") ? text.replace(/\*\//g, "*\\/") : text).split("\n");
  const first = lines[0]!.trim();
  if (lines.length === 1 && indent.length + first.length + 7 <= PRINT_WIDTH)
    return `${indent}/** ${first} */`;
  const room = PRINT_WIDTH - indent.length - 3;
  let out = `${indent}/**`;
  // `trim` drops the `\r` of a `\r\n` line end.
  for (const raw of lines) {
    const line = raw.trim();
    if (line.length <= room) out += line === "" ? `\n${indent} *` : `\n${indent} * ${line}`;
    else for (const part of wrapLine(line, room)) out += `\n${indent} * ${part}`;
  }
  return `${out}\n${indent} */`;
}

/** `//` comment lines at `indent`, each line of `text` wrapped to the width. */
export function lineComment(text: string, indent = ""): string {
  const room = PRINT_WIDTH - indent.length - 3;
  return text
    .split("\n")
    .flatMap((l) => (l.trim() === "" ? [""] : wrapLine(l.trim(), room)))
    .map((l) => (l === "" ? `${indent}//` : `${indent}// ${l}`))
    .join("\n");
}
