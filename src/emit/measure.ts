/** Widths of code trees on one line, as the printer's rules need them (printer.ts). */
import type { Code } from "./code.js";

export const PRINT_WIDTH = 100;

/**
 * The width of `code` up to the first point where it may break: what must fit on the line before it
 * for an earlier group to stay on one line.
 */
export function headWidth(code: Code): number {
  if (typeof code === "string") return code.length;
  switch (code.k) {
    case "cat":
      return restWidth(code.parts, 0, 0);
    case "list":
      return code.open.length;
    case "union":
      return code.parens ? 1 : 0;
    case "arrow":
      return headWidth(code.head);
    case "block":
      return headWidth(code.head) + 2;
  }
}

/** The width of `parts` from `from` up to the first point where one may break, else plus `rest`. */
export function restWidth(parts: readonly Code[], from: number, rest: number): number {
  let w = 0;
  for (let j = from; j < parts.length; j++) {
    const p = parts[j]!;
    const h = headWidth(p);
    w += h;
    if (typeof p !== "string" && h < p.w) return w;
  }
  return w + rest;
}

/** An array, object or arrow returning one: what a call may keep on its opening line (hug). */
export function huggable(code: Code): boolean {
  if (typeof code === "string") return false;
  if (code.k === "list") return (code.open === "[" || code.open === "{") && code.items.length > 0;
  return code.k === "arrow" && huggable(code.body);
}

/**
 * Whether an assigned value moves below its `=` when its opening does not fit after it (a call, an
 * object, a string literal), as in Prettier's "fluid" assignment layout.
 */
export function breaksByOpening(value: Code): boolean {
  if (typeof value === "string") return /^["']/.test(value);
  return (value.k === "cat" && !value.fn) || value.k === "list";
}

/** ` & B` (an intersection's second half); a parenthesized `(A & B)` is not one. */
export const isIntersection = (p: Code): boolean =>
  typeof p === "string" && p.startsWith(" & ") && !p.endsWith(")");
