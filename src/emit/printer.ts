/**
 * Lays out code trees (code.ts) at 100 columns by the rules docs/generated-code.md states under
 * "Layout": a group stays on one line when it fits with what follows it, else it breaks at its own
 * points only. Nothing is measured or rewritten after printing.
 */

import {
  width,
  type Arrow,
  type Block,
  type Cat,
  type Code,
  type List,
  type Statement,
  type Union,
} from "./code.js";

import { docComment } from "./comments.js";
import {
  PRINT_WIDTH,
  breaksByOpening,
  headWidth,
  huggable,
  isIntersection,
  restWidth,
} from "./measure.js";

/** Lays out code trees; `out` collects the text, `col` is the current column. */
class Printer {
  private readonly out: string[] = [];
  private col = 0;
  private lines = 0;

  text(): string {
    return this.out.join("");
  }

  write(s: string): void {
    this.out.push(s);
    this.col += s.length;
  }

  /** Writes `code` on one line (only once its width said it fits), piece by piece. */
  flat(code: Code): void {
    if (typeof code === "string") return this.write(code);
    switch (code.k) {
      case "cat":
        for (const p of code.parts) this.flat(p);
        return;
      case "list":
        return this.flatList(
          code.items,
          code.pad && code.items.length ? `${code.open} ` : code.open,
          ", ",
          code.pad && code.items.length ? ` ${code.close}` : code.close,
        );
      case "union":
        return this.flatList(code.members, code.parens ? "(" : "", " | ", code.parens ? ")" : "");
      case "arrow":
        this.flat(code.head);
        this.write(" => ");
        return this.flat(code.body);
      case "block":
        throw new Error("internal error: a block has no one-line form");
    }
  }

  private flatList(items: readonly Code[], open: string, separator: string, close: string): void {
    this.write(open);
    items.forEach((item, i) => {
      if (i > 0) this.write(separator);
      this.flat(item);
    });
    this.write(close);
  }

  /** Top-level statements, `separator` between each two, JSDoc above each. */
  statements(statements: Iterable<Statement>, separator: string): void {
    let first = true;
    for (const s of statements) {
      if (!first) this.out.push(separator);
      first = false;
      this.col = 0;
      if (s.doc) this.out.push(docComment(s.doc, ""), "\n");
      this.print(s.code, "", 0);
    }
  }

  /** Text between statements (their column is reset as each starts). */
  separate(text: string): void {
    this.out.push(text);
  }

  newline(indent: string): void {
    this.out.push("\n", indent);
    this.col = indent.length;
    this.lines++;
  }

  /** Prints `code` at `indent`; `rest` is the width of what follows it on its last line. */
  print(code: Code, indent: string, rest: number): void {
    if (typeof code === "string") return this.write(code);
    const budget = PRINT_WIDTH - this.col - rest;
    if (code.k !== "block" && width(code) <= budget) return this.flat(code);
    switch (code.k) {
      case "cat":
        return this.cat(code, indent, rest);
      case "list":
        return this.list(code, indent);
      case "union":
        return this.union(code, indent, rest);
      case "arrow":
        return this.arrow(code, indent, rest);
      case "block":
        return this.block(code, indent);
    }
  }

  private cat(code: Cat, indent: string, rest: number): void {
    const { parts } = code;
    if (code.fn) return this.functionType(parts, indent, rest);
    const eq = parts.findIndex((p) => typeof p === "string" && p.endsWith(" = "));
    if (eq >= 0 && eq < parts.length - 1) return this.assignment(parts, eq, indent, rest);
    // A call whose last argument hugs: `callee(a, b, [` … `])`.
    const args = parts.length === 2 ? parts[1] : undefined;
    if (
      typeof args === "object" &&
      args.k === "list" &&
      args.open === "(" &&
      this.hug(parts[0]!, args, indent, rest)
    )
      return;
    for (let i = 0; i < parts.length; i++) {
      const after = restWidth(parts, i + 1, rest);
      if (i > 0 && this.breakAfterOperator(parts[i - 1]!, parts[i]!, indent, after)) {
        this.trimSpace();
        this.newline(indent + "  ");
      }
      this.print(parts[i]!, indent, after);
    }
  }

  /** `(params) => Result` that does not fit: the parameters break before the result (Prettier). */
  private functionType(parts: readonly Code[], indent: string, rest: number): void {
    const [head, arrow, result] = parts as [List, string, Code];
    this.list(head, indent);
    this.write(arrow);
    this.print(result, indent, rest);
  }

  /**
   * `left = value`: the left side stays whole when it fits up to its `=`; a value whose opening
   * does not fit after it moves to the next line, indented (Prettier's "fluid" assignment layout).
   */
  private assignment(parts: readonly Code[], eq: number, indent: string, rest: number): void {
    const left = parts.slice(0, eq + 1);
    for (let i = 0; i < left.length; i++) this.print(left[i]!, indent, restWidth(left, i + 1, -1));
    const value = parts[eq + 1]!;
    let inner = indent;
    if (
      breaksByOpening(value)
        ? this.col + restWidth(parts, eq + 1, rest) > PRINT_WIDTH
        : this.breakAfterOperator(parts[eq]!, value, indent, restWidth(parts, eq + 2, rest))
    ) {
      this.trimSpace();
      inner = indent + "  ";
      this.newline(inner);
    }
    for (let i = eq + 1; i < parts.length; i++)
      this.print(parts[i]!, inner, restWidth(parts, i + 1, rest));
  }

  /**
   * Whether an unbreakable value (`key: "text"`, `name?: Type`, `= Type[]`) that does not fit after
   * its `:` or `=` moves to the next line, indented, where it then fits.
   */
  private breakAfterOperator(prev: Code, code: Code, indent: string, after: number): boolean {
    if (typeof prev !== "string" || !(prev.endsWith(": ") || prev.endsWith("= "))) return false;
    const atomic = typeof code === "string" || (code.w !== Infinity && headWidth(code) === code.w);
    const w = width(code) + after;
    return atomic && this.col + w > PRINT_WIDTH && indent.length + 2 + w <= PRINT_WIDTH;
  }

  private hug(callee: Code, args: List, indent: string, rest: number): boolean {
    const last = args.items[args.items.length - 1];
    const before = args.items.slice(0, -1);
    if (last === undefined || !huggable(last) || before.some(huggable)) return false;
    const opening = width(callee) + 1 + before.reduce((w, a) => w + width(a) + 2, 0);
    const lastOpen = typeof last === "object" && last.k === "arrow" ? width(last.head) + 5 : 1;
    if (this.col + opening + lastOpen > PRINT_WIDTH) return false;
    this.flat(callee);
    this.write("(");
    for (const a of before) {
      this.flat(a);
      this.write(", ");
    }
    this.print(last, indent, rest + 1);
    this.write(")");
    return true;
  }

  private list(code: List, indent: string): void {
    const inner = indent + "  ";
    this.write(code.open);
    code.items.forEach((item, i) => {
      const comma = code.trailing || i < code.items.length - 1;
      this.newline(inner);
      this.print(item, inner, comma ? 1 : 0);
      if (comma) this.write(",");
    });
    this.newline(indent);
    this.write(code.close);
  }

  private union(code: Union, indent: string, rest: number): void {
    // Alone on its line (a type argument): its bars there, as Prettier writes `Promise<` `| A` `>`.
    const alone = !code.parens && this.out.at(-2) === "\n" && this.out.at(-1) === indent;
    const inner = alone ? indent : indent + "  ";
    if (code.parens) this.write("(");
    else if (!alone && this.out.at(-1)?.endsWith(" ")) this.trimSpace();
    code.members.forEach((m, i) => {
      if (!alone || i > 0) this.newline(inner);
      this.write("| ");
      const last = i === code.members.length - 1;
      // An intersection on a line of its own is parenthesized, as Prettier does.
      const both = typeof m === "object" && m.k === "cat" && m.parts.some(isIntersection);
      if (both) this.write("(");
      this.print(m, inner + "  ", (last && !code.parens ? rest : 0) + (both ? 1 : 0));
      if (both) this.write(")");
    });
    if (code.parens) {
      this.newline(indent);
      this.write(")");
    }
  }

  private trimSpace(): void {
    const i = this.out.length - 1;
    this.out[i] = this.out[i]!.slice(0, -1);
    this.col--;
  }

  private arrow(code: Arrow, indent: string, rest: number): void {
    const lines = this.lines;
    this.print(code.head, indent, 3);
    this.write(" =>");
    // After a broken head (`) =>` closes it), a body that fits stays on that line.
    const after = this.lines > lines && width(code.body) + 1 <= PRINT_WIDTH - this.col - rest;
    if (huggable(code.body) || after) {
      this.write(" ");
      return this.print(code.body, indent, rest);
    }
    const inner = indent + "  ";
    this.newline(inner);
    this.print(code.body, inner, rest);
  }

  private block(code: Block, indent: string): void {
    const inner = indent + "  ";
    this.print(code.head, indent, 2);
    this.write(code.head === "" ? "{" : " {");
    if (code.members.length === 0) return this.write(code.close);
    for (const m of code.members) {
      if (m.gap) this.out.push("\n");
      this.newline(inner);
      if (m.doc) {
        this.write(docComment(m.doc, inner).slice(inner.length));
        this.newline(inner);
      }
      this.print(m.code, inner, 0);
    }
    this.newline(indent);
    this.write(code.close);
  }
}

/** Prints statements, a blank line between each two (`gap`) or none; no line break at the end. */
export function printStatements(statements: Iterable<Statement>, gap = true): string {
  const p = new Printer();
  p.statements(statements, gap ? "\n\n" : "\n");
  return p.text();
}

/**
 * A file's body: statements and groups of statements (on adjacent lines), a blank line between each
 * two, all in one printer so that the file's text is joined once; undefined when there are none.
 */
export function printBody(body: Iterable<Statement | readonly Statement[]>): string | undefined {
  const p = new Printer();
  let first = true;
  for (const b of body) {
    if (!first) p.separate("\n\n");
    first = false;
    p.statements("code" in b ? [b] : b, "\n");
  }
  return first ? undefined : p.text();
}

/** One statement, for tests and single uses. */
export const printStatement = (s: Statement): string => printStatements([s]);
