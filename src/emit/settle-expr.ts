/**
 * `export const X: T = <expression>;` laid out as Prettier prints it, for the expressions descriptors.ts
 * is made of: calls, arrays, objects, `() =>` thunks, strings, template literals and names. A port of
 * the few Prettier rules these need (objects keep a line break written after `{`, groups stay flat
 * when they fit up to the next line break, a call hugs its last argument when that is an object, an
 * array or a thunk of one and the opening line fits, else puts every argument on its own line).
 * Anything else throws Unsure inside and comes out as undefined: Prettier then formats the statement.
 */
import { PRINT_WIDTH as W } from "./settle.js";

type Node =
  | { readonly k: "atom"; readonly text: string }
  | { readonly k: "call"; readonly callee: string; readonly args: readonly Node[] }
  | { readonly k: "arr"; readonly items: readonly Node[] }
  | {
      readonly k: "obj";
      readonly props: readonly { readonly key: string; readonly value: Node }[];
      readonly multiline: boolean;
    }
  | { readonly k: "arrow"; readonly body: Node };

class Unsure extends Error {}

const TOKEN =
  /\s*("(?:[^"\\\n]|\\[\\nrtbfu])*"|`(?:[^`\\$]|\$\{[A-Za-z_$][\w$]*\})*`|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*|\d+|=>|[()[\]{},:])/y;

function parse(text: string): Node {
  const tokens: { t: string; nl: boolean }[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const start = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) {
      if (text.slice(start).trim() === "") break;
      throw new Unsure();
    }
    // A line break in the white space before the token (read in place: the gap is a few characters).
    let nl = false;
    for (let k = start, end = TOKEN.lastIndex - m[1]!.length; k < end && !nl; k++)
      nl = text.charCodeAt(k) === 10;
    tokens.push({ t: m[1]!, nl });
  }
  let i = 0;
  const peek = () => tokens[i]?.t;
  const take = (t?: string) => {
    const tok = tokens[i++];
    if (!tok || (t !== undefined && tok.t !== t)) throw new Unsure();
    return tok;
  };
  const list = (close: string, item: () => void) => {
    while (peek() !== close) {
      item();
      if (peek() === ",") take(",");
      else if (peek() !== close) throw new Unsure();
    }
    take(close);
  };
  const expr = (): Node => {
    const tok = take();
    if (tok.t === "(") {
      take(")");
      take("=>");
      return { k: "arrow", body: expr() };
    }
    if (tok.t === "[") {
      const items: Node[] = [];
      list("]", () => items.push(expr()));
      return { k: "arr", items };
    }
    if (tok.t === "{") {
      const props: { key: string; value: Node }[] = [];
      const multiline = tokens[i]?.nl === true;
      list("}", () => {
        const key = take().t;
        if (!/^[A-Za-z_$][\w$]*$/.test(key)) throw new Unsure(); // quoted keys: Prettier's quoteProps rules
        take(":");
        props.push({ key, value: expr() });
      });
      return { k: "obj", props, multiline };
    }
    if (/^[A-Za-z_$]/.test(tok.t) && peek() === "(") {
      if (tok.t.includes(".")) throw new Unsure();
      take("(");
      const args: Node[] = [];
      list(")", () => args.push(expr()));
      return { k: "call", callee: tok.t, args };
    }
    if (/^["`A-Za-z_$0-9]/.test(tok.t)) return { k: "atom", text: tok.t };
    throw new Unsure();
  };
  const node = expr();
  if (i !== tokens.length) throw new Unsure();
  return node;
}

/** `f`, remembered per node (printing asks for the same node's answers at every level). */
function memoized<R>(f: (n: Node) => R): (n: Node) => R {
  const seen = new WeakMap<Node, R>();
  return (n) => {
    if (seen.has(n)) return seen.get(n)!;
    const r = f(n);
    seen.set(n, r);
    return r;
  };
}

/** The node on one line. */
const flat = memoized(flatUncached);

function flatUncached(n: Node): string {
  switch (n.k) {
    case "atom":
      return n.text;
    case "call":
      return `${n.callee}(${n.args.map(flat).join(", ")})`;
    case "arr":
      return `[${n.items.map(flat).join(", ")}]`;
    case "obj":
      return n.props.length
        ? `{ ${n.props.map((p) => `${p.key}: ${flat(p.value)}`).join(", ")} }`
        : "{}";
    case "arrow":
      return `() => ${flat(n.body)}`;
  }
}

/** Whether Prettier breaks the node whatever the width: an object written over lines, or an array of such objects. */
const forced = memoized(forcedUncached);

function forcedUncached(n: Node): boolean {
  switch (n.k) {
    case "atom":
      return false;
    case "call":
      return n.args.some(forced);
    case "arr": {
      const objects =
        n.items.length > 1 &&
        n.items.every(
          (x) => (x.k === "obj" && x.props.length > 1) || (x.k === "arr" && x.items.length > 1),
        );
      if (objects && !n.items.every((x) => x.k === n.items[0]!.k)) throw new Unsure();
      return objects || n.items.some(forced);
    }
    case "obj":
      return (n.multiline && n.props.length > 0) || n.props.some((p) => forced(p.value));
    case "arrow":
      return forced(n.body);
  }
}

const pad = (n: number) => " ".repeat(n);
const opens = (n: Node) =>
  (n.k === "obj" && n.props.length > 0) || (n.k === "arr" && n.items.length > 0);

/** Prints `n` starting at column `col` of a line indented `ind`; `suffix` ends its last line. */
function print(n: Node, ind: number, col: number, suffix: string): string[] {
  const f = flat(n);
  if (n.k === "atom" || (!forced(n) && col + f.length + suffix.length <= W)) return [f + suffix];
  switch (n.k) {
    case "obj":
      if (n.props.length === 0) return [f + suffix];
      return [
        "{",
        ...n.props.flatMap((p) => property(p.key, p.value, ind + 2)),
        `${pad(ind)}}${suffix}`,
      ];
    case "arr":
      if (n.items.every((x) => x.k === "atom" && /^\d/.test(x.text))) throw new Unsure(); // numbers fill lines
      return ["[", ...n.items.flatMap((x) => indented(x, ind + 2, ",")), `${pad(ind)}]${suffix}`];
    case "arrow":
      if (!opens(n.body)) throw new Unsure(); // Prettier would break after `=>`
      return prefixed("() => ", print(n.body, ind, col + 6, suffix));
    case "call":
      return call(n, ind, col, suffix);
  }
}

function indented(n: Node, ind: number, suffix: string): string[] {
  return prefixed(pad(ind), print(n, ind, ind, suffix));
}

function prefixed(prefix: string, lines: string[]): string[] {
  return [prefix + lines[0]!, ...lines.slice(1)];
}

function property(key: string, value: Node, ind: number): string[] {
  const prefix = `${pad(ind)}${key}: `;
  const f = flat(value);
  if (value.k === "atom") {
    if (prefix.length + f.length + 1 <= W || !f.startsWith('"')) return [`${prefix}${f},`];
    return [prefix.trimEnd(), `${pad(ind + 2)}${f},`]; // a long string goes on the next line
  }
  if (prefix.length + opening(value).length > W) throw new Unsure();
  return prefixed(prefix, print(value, ind, prefix.length, ","));
}

/** The text of `n` up to its first possible line break when broken. */
function opening(n: Node): string {
  if (n.k === "call") return `${n.callee}(`;
  if (n.k === "arrow") return `() => ${opening(n.body)}`;
  if (n.k === "obj") return n.props.length ? "{" : "{}";
  if (n.k === "arr") return n.items.length ? "[" : "[]";
  return n.text;
}

function call(n: Extract<Node, { k: "call" }>, ind: number, col: number, suffix: string): string[] {
  const args = n.args;
  if (args.length === 0) return [`${n.callee}()${suffix}`];
  if (args.filter((a) => a.k === "arrow").length > 1) throw new Unsure(); // function composition heuristics
  const last = args[args.length - 1]!;
  const before = args.slice(0, -1);
  const penult = before[before.length - 1];
  const huggable =
    (opens(last) || (last.k === "arrow" && opens(last.body))) &&
    penult?.k !== last.k &&
    !(args.length === 2 && penult?.k === "arrow" && last.k === "arr");
  if (before.some(forced)) throw new Unsure();
  if (huggable) {
    const head = `${n.callee}(${before.map((a) => `${flat(a)}, `).join("")}`;
    if (col + head.length + opening(last).length <= W) {
      const lines = print(last, ind, col + head.length, `)${suffix}`);
      if (lines.length > 1) return prefixed(head, lines);
    }
  }
  return [
    `${n.callee}(`,
    ...args.flatMap((a) => indented(a, ind + 2, ",")),
    `${pad(ind)})${suffix}`,
  ];
}

const STATEMENT = /^(export const [A-Za-z_$][\w$]*: [A-Za-z_$][\w$]* = )([\s\S]*);$/;

/** The Prettier layout of `export const X: T = <expression>;`, or undefined when not certain. */
export function settleExpression(code: string): string | undefined {
  const m = STATEMENT.exec(code);
  if (!m || /[^\x20-\x7e\n]/.test(code)) return undefined;
  try {
    const node = parse(m[2]!);
    // A thunk of an empty array or object (`() => []`) makes Prettier break around it in ways not ported here.
    if (/\(\) => (\[\]|\{\})/.test(m[2]!)) return undefined;
    if (node.k === "atom" || m[1]!.length + opening(node).length > W) return undefined;
    return prefixed(m[1]!, print(node, 0, m[1]!.length, ";")).join("\n");
  } catch (e) {
    if (e instanceof Unsure) return undefined;
    throw e;
  }
}
