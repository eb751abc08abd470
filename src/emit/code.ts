/**
 * Code trees: what emitters build and the printer (printer.ts) lays out. Text, concatenations,
 * bracketed lists, unions, arrows and blocks. Each node knows its width on one line (`w`, Infinity
 * where it cannot be on one line), computed once when it is built, so the printer never
 * re-measures.
 */
import { isIdentifier } from "../names/identifiers.js";

export type Code = string | Cat | List | Union | Arrow | Block;

/**
 * Codes one after the other on the same line; `fn` marks a function type, `(params) => Result`,
 * whose parameters break before its result does, as Prettier breaks them.
 */
export interface Cat {
  readonly k: "cat";
  readonly w: number;
  readonly parts: readonly Code[];
  readonly fn?: true;
}

/**
 * A bracketed list; `force` breaks it even when it fits; `pad` prints `{ a }` rather than `{a}`.
 */
export interface List {
  readonly k: "list";
  readonly w: number;
  readonly open: string;
  readonly close: string;
  readonly items: readonly Code[];
  readonly pad: boolean;
  readonly force: boolean;
  /** A comma after the last item when broken (not allowed after type arguments). */
  readonly trailing: boolean;
}

/** `A | B | C`, in parentheses when `parens`. */
export interface Union {
  readonly k: "union";
  readonly w: number;
  readonly members: readonly Code[];
  readonly parens: boolean;
}

/** `head => body`. */
export interface Arrow {
  readonly k: "arrow";
  readonly w: number;
  readonly head: Code;
  readonly body: Code;
}

/** A member of a block: a statement, and whether a blank line comes before it. */
export interface Member extends Statement {
  readonly gap?: boolean;
}

/** `head {`, one member per line, then `close` (`}` by default). */
export interface Block {
  readonly k: "block";
  readonly w: number;
  readonly head: Code;
  readonly members: readonly Member[];
  readonly close: string;
}

/**
 * Whether two code trees (or members) would print the same JSON text: equal leaves, arrays of
 * equal items, objects with the same keys in the same order (undefined values left out), as
 * JSON.stringify sees them, without writing the text of every member of every type twice.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null)
    return typeof a === "number" && typeof b === "number" && !isFinite(a) && !isFinite(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    return a.length === bs.length && a.every((x, i) => sameJson(x, bs[i]));
  }
  const ka = definedKeys(a);
  const kb = definedKeys(b);
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameJson(ra[k], rb[k]));
}

const definedKeys = (o: object): string[] =>
  Object.keys(o).filter((k) => (o as Record<string, unknown>)[k] !== undefined);

/** The width of `code` on one line. */
export const width = (code: Code): number => (typeof code === "string" ? code.length : code.w);

const sum = (codes: readonly Code[]): number => {
  let w = 0;
  for (const c of codes) w += width(c);
  return w;
};

export const cat = (...parts: Code[]): Cat => ({ k: "cat", w: sum(parts), parts });

const list = (
  open: string,
  close: string,
  items: readonly Code[],
  pad = false,
  force = false,
  trailing = true,
): List => {
  const padding = pad && items.length ? 2 : 0;
  const w = force
    ? Infinity
    : open.length + close.length + padding + Math.max(0, items.length - 1) * 2 + sum(items);
  return { k: "list", w, open, close, items, pad, force, trailing };
};

/** `callee(a, b)`. */
export const call = (callee: Code, ...args: Code[]): Cat => cat(callee, list("(", ")", args));
/** `[a, b]`. */
export const array = (items: readonly Code[]): List => list("[", "]", items);
/** `(a: A, b: B)`: parameters. */
export const params = (items: readonly Code[]): List => list("(", ")", items);
/** `(a: A, b: B) => Result`: a function type. */
export const functionType = (parameters: readonly Code[], result: Code): Cat => {
  const head = params(parameters);
  return { k: "cat", w: head.w + 4 + width(result), parts: [head, " => ", result], fn: true };
};

/**
 * A string literal in the quotes Prettier picks: double, unless the text holds more double quotes
 * than single ones (a WSDL document), so that fewer are escaped.
 */
export function stringLiteral(text: string): string {
  if (!moreThan(text, '"', "'")) return JSON.stringify(text);
  // Without the characters JSON writes as \uXXXX, \b or \f, five plain replacements make the
  // literal in about a third of the time of JSON's text unescaped at every quote (an embedded WSDL
  // has tens of thousands of quotes and lines).
  if (!JSON_ESCAPED.test(text))
    return `'${text
      .replaceAll("\\", "\\\\")
      .replaceAll("'", "\\'")
      .replaceAll("\n", "\\n")
      .replaceAll("\r", "\\r")
      .replaceAll("\t", "\\t")}'`;
  // In JSON text a `"` is always written `\"`, and `\"` never ends an escaped backslash (`\\`):
  // plain replacements, no callback per quote.
  const json = JSON.stringify(text);
  return `'${json.slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'")}'`;
}

/** Control characters but tab, newline and carriage return, and any surrogate (maybe lone). */
const JSON_ESCAPED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff]/;

/**
 * Whether `a` occurs more times than `b` in `s`: `b` (the rarer, as a rule) is counted first, and
 * counting `a` stops once it passes.
 */
function moreThan(s: string, a: string, b: string): boolean {
  let n = 0;
  for (let i = s.indexOf(b); i >= 0; i = s.indexOf(b, i + 1)) n++;
  for (let i = s.indexOf(a); i >= 0; i = s.indexOf(a, i + 1)) if (--n < 0) return true;
  return false;
}

/**
 * `{ key: value, … }`; `force` breaks it one property per line whatever its width. A property whose
 * value is the const of its own name is written in shorthand (`faults,`).
 */
export const object = (props: readonly (readonly [string, Code])[], force = false): List =>
  list(
    "{",
    "}",
    props.map(([key, value]) => (key === value && isIdentifier(key) ? key : cat(key, ": ", value))),
    props.length > 0,
    force && props.length > 0,
  );

/** `Name<A, B>`: type arguments. */
export const typeArgs = (name: string, args: readonly Code[]): Cat =>
  cat(name, list("<", ">", args, false, false, false));
/** `{ a, b }` of an import or export statement. */
export const names = (items: readonly string[]): List => list("{", "}", items, true);
export const arrow = (head: Code, body: Code): Arrow => ({
  k: "arrow",
  w: width(head) + 4 + width(body),
  head,
  body,
});
export function union(members: readonly Code[], parens = false): Code {
  if (members.length === 1 && !parens) return members[0]!;
  const w = sum(members) + (members.length - 1) * 3 + (parens ? 2 : 0);
  return { k: "union", w, members, parens };
}
export const block = (head: Code, members: readonly Member[], close = "}"): Block => ({
  k: "block",
  w: Infinity,
  head,
  members,
  close,
});

/** One statement (or member) of a file: its code, with its JSDoc above it. */
export interface Statement {
  readonly code: Code;
  readonly doc?: string | undefined;
}
