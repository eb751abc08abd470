/**
 * Statements already laid out as Prettier prints them, so formatting can skip them (Prettier over
 * megabytes of output was most of the generation time: see the generate bench).
 *
 * `settle(code)` returns the final text of one top-level statement when it is of a shape whose layout
 * under PRETTIER_OPTIONS is known for certain, and undefined otherwise (Prettier then formats it as
 * before). The shapes are deliberately few and narrow; `test/emit/settle.test.ts` checks each against
 * Prettier itself, and the generated samples (and, when present, corpus roots) must be fixed points of
 * Prettier. Anything unusual (non-ASCII code, escaped quotes, nested braces) falls back, and so does a
 * line over the width unless Prettier's way of breaking it is known (long literal unions here;
 * descriptor calls, objects and arrays in settle-expr.ts; members in settle-members.ts).
 */

import { settleExpression } from "./settle-expr.js";

export const PRINT_WIDTH = 100;

/** A JSDoc line as jsDoc() writes it, at any indentation (Prettier keeps these as written). */
export const DOC_LINE = /^ *(\/\*\*.*|\*.*|\*\/)$/;
/** Code Prettier leaves alone character for character: printable ASCII, no escaped double quote. */
const PLAIN = /^[\x20-\x7e]*$/;

/** Parentheses Prettier would drop from a type: around anything but a union or intersection. */
const REDUNDANT_TYPE_PARENS = /\([^|&()]*\)/;

export const fits = (line: string): boolean => line.length <= PRINT_WIDTH;
/** Code Prettier keeps character for character (see PLAIN), with no quotes it might change. */
export const plain = (line: string): boolean =>
  PLAIN.test(line) && !line.includes('\\"') && !line.includes("'") && !line.includes("`");

/** Splits a leading JSDoc comment (at any indentation) from the code lines. */
export function split(code: string): { doc: string[]; lines: string[] } | undefined {
  if (code.includes("\r") || code.includes("\t")) return undefined;
  const all = code.split("\n");
  let i = 0;
  if (all[0]!.trimStart().startsWith("/**")) {
    while (i < all.length && !all[i]!.endsWith("*/")) i++;
    if (i === all.length) return undefined;
    i++;
    if (!all.slice(0, i).every((l) => DOC_LINE.test(l))) return undefined;
  }
  return { doc: all.slice(0, i), lines: all.slice(i) };
}

/** `export|import [type] { A, B as C, type D } from "m";` */
const SPECIFIERS = /^((?:export|import)(?: type)?) \{ ([A-Za-z0-9_$, ]+) \} from ("[^"\\]*");$/;

/** The final text of a statement, or undefined when its Prettier layout is not known for certain. */
export function settle(code: string): string | undefined {
  return settleShape(code) ?? settleExpression(code);
}

function settleShape(code: string): string | undefined {
  const parts = split(code);
  if (!parts || parts.lines.length === 0) return undefined;
  const { doc, lines } = parts;
  // Comment lines (member docs) are kept by Prettier as written; code must be plain.
  if (!lines.every((l) => DOC_LINE.test(l) || plain(l))) return undefined;
  const withDoc = (body: readonly string[]) => [...doc, ...body].join("\n");

  if (lines.length === 1) {
    const line = lines[0]!;
    const list = SPECIFIERS.exec(line);
    if (list) {
      // Prettier breaks a module specifier list one per line, with a trailing comma.
      if (fits(line)) return withDoc([line]);
      const names = list[2]!.split(", ");
      if (names.some((n) => !/^(type )?[A-Za-z_$][\w$]*( as [A-Za-z_$][\w$]*)?$/.test(n)))
        return undefined;
      return withDoc([`${list[1]} {`, ...names.map((n) => `  ${n},`), `} from ${list[3]};`]);
    }
    // One statement on one line that fits, written as Prettier writes it.
    if (line.startsWith("export type ") && REDUNDANT_TYPE_PARENS.test(line)) return undefined;
    if (!fits(line)) {
      const laidOut = longUnion(line);
      return laidOut && withDoc(laidOut);
    }
    return /^(export |import )/.test(line) && line.endsWith(";") ? withDoc([line]) : undefined;
  }

  const first = lines[0]!;
  const last = lines[lines.length - 1]!;
  const inner = lines.slice(1, -1);

  // export interface X { members }: an interface keeps its members one per line.
  if (/^export interface [A-Za-z_$][\w$]* \{$/.test(first) && last === "}") {
    const member = (l: string) =>
      DOC_LINE.test(l)
        ? /^  (\/\*\*| \*)/.test(l)
        : /^  [A-Za-z_$][\w$]*\??: [^{}]+;$/.test(l) && !REDUNDANT_TYPE_PARENS.test(l) && fits(l);
    return inner.length > 0 && inner.every(member) && !inner.every((l) => DOC_LINE.test(l))
      ? withDoc(lines)
      : undefined;
  }

  return undefined;
}

const LITERAL = /^("[^"\\]*"|[A-Za-z_$][\w$]*)$/;

/** `export type X = "a" | "b" | ...;` over the width: on the next line, or one member per line after `| `. */
function longUnion(line: string): string[] | undefined {
  const m = /^(export type [A-Za-z_$][\w$]* =) (.*);$/.exec(line);
  if (!m) return undefined;
  const members = m[2]!.split(" | ");
  if (members.length < 2 || !members.every((x) => LITERAL.test(x)) || members.join(" | ") !== m[2])
    return undefined;
  // Prettier first breaks after `=`; the members go one per line only when they still do not fit.
  if (fits(`  ${m[2]};`)) return [m[1]!, `  ${m[2]};`];
  return [m[1]!, ...members.map((x, i) => `  | ${x}${i === members.length - 1 ? ";" : ""}`)];
}

/**
 * `export const NAME = <string>;` as Prettier prints it: double quotes unless the text holds more
 * double than single quotes, and the string on its own line when the statement does not fit.
 * Undefined when that is not certain (a short line with non-ASCII text, whose width Prettier measures).
 */
export function stringConst(name: string, value: string): string | undefined {
  const doubles = value.split('"').length - 1;
  const singles = value.split("'").length - 1;
  let literal = JSON.stringify(value);
  // Single quotes, as Prettier picks when there are more double ones: JSON escapes every `"` as `\"`
  // and no `'`, so escaping each `'` and unescaping each `\"` is exact (a callback per match was
  // slow on a WSDL of megabytes).
  if (doubles > singles)
    literal = `'${literal.slice(1, -1).replaceAll("'", "\\'").replaceAll('\\"', '"')}'`;
  const line = `export const ${name} = ${literal};`;
  if (PLAIN.test(line)) return fits(line) ? line : `export const ${name} =\n  ${literal};`;
  // Prettier's width counts every code point but C1 controls and combining marks as at least 1.
  let minWidth = 0;
  for (const c of line) {
    const cp = c.codePointAt(0)!;
    if (!(cp >= 0x7f && cp <= 0x9f) && !(cp >= 0x300 && cp <= 0x36f)) minWidth++;
    if (minWidth > PRINT_WIDTH) return `export const ${name} =\n  ${literal};`;
  }
  return undefined;
}
