/** The printer's layout rules (src/emit/printer.ts), one at a time, at the 100-column width. */
import { describe, expect, it } from "vitest";
import {
  array,
  arrow,
  block,
  call,
  cat,
  functionType,
  object,
  stringLiteral,
  params,
  typeArgs,
  union,
  type Code,
} from "../../src/emit/code.js";
import { lineComment } from "../../src/emit/comments.js";
import { printStatement } from "../../src/emit/printer.js";

const print = (code: Code, doc?: string) => printStatement({ code, doc });
const names = (n: number, prefix = "item") => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe("the printer", () => {
  it("breaks a function type's parameters before its result, as Prettier does", () => {
    const fn = functionType(
      [`input: ${"I".repeat(30)}`, `options?: ${"O".repeat(30)}`],
      typeArgs("Promise", [union(["Result", "undefined"])]),
    );
    expect(print(cat("readonly m: ", fn, ";"))).toBe(
      `readonly m: (\n  input: ${"I".repeat(30)},\n  options?: ${"O".repeat(30)},\n) => Promise<Result | undefined>;`,
    );
    expect(print(cat("readonly m: ", functionType(["a: A"], "B"), ";"))).toBe(
      "readonly m: (a: A) => B;",
    );
  });

  it("keeps an assignment's left side whole and moves a value whose opening does not fit", () => {
    const left = `export const ${"D".repeat(40)}: ComplexDesc<t.${"D".repeat(40)}> = `;
    expect(print(cat(left, call("complex", '"x"', arrow("()", array(["f"]))), ";"))).toBe(
      `${left.trimEnd()}\n  complex("x", () => [f]);`,
    );
  });

  it("quotes a string in the quotes that need fewer escapes", () => {
    expect(stringLiteral('a "b" c')).toBe(`'a "b" c'`);
    expect(stringLiteral(`it's "x" 'y' "z"`)).toBe(`'it\\'s "x" \\'y\\' "z"'`);
    expect(stringLiteral("it's")).toBe('"it\'s"');
    expect(stringLiteral('a\\"')).toBe(`'a\\\\"'`);
  });

  it("single-quotes a string as JSON escapes it, control characters and lone surrogates too", () => {
    // The reference: JSON's text; where double quotes outnumber single ones, unescaped at each
    // double quote and escaped at each single one.
    const reference = (t: string) =>
      t.split('"').length <= t.split("'").length
        ? JSON.stringify(t)
        : `'${JSON.stringify(t).slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'")}'`;
    const pieces = [
      '"',
      '"',
      "'",
      "\\",
      "\n",
      "\r",
      "\t",
      "\b",
      "\f",
      "\u0001",
      "\u001f",
      "\u007f",
    ];
    const more = ["\u2028", "\ud83d\ude00", "\ud800", "\udc00", "é", "a", " ", '\\"', '<x a="1"/>'];
    const all = [...pieces, ...more];
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let n = 0; n < 500; n++) {
      const text =
        '""' + Array.from({ length: next() % 12 }, () => all[next() % all.length]).join("");
      const literal = stringLiteral(text);
      expect(literal).toBe(reference(text));
      expect(eval(literal)).toBe(text);
    }
  });

  it("keeps a list on one line when it fits, with what follows it", () => {
    expect(
      print(cat("const x = ", call("f", "a", array(["1", "2"]), object([["k", "v"]])), ";")),
    ).toBe("const x = f(a, [1, 2], { k: v });");
    // 100 columns fit; 101 do not.
    const fits = cat("const x = ", call("f", `"${"a".repeat(84)}"`), ";");
    expect(print(fits)).toHaveLength(100);
    const over = cat("const x = ", call("f", `"${"a".repeat(85)}"`), ";");
    expect(print(over)).toBe(`const x = f(\n  "${"a".repeat(85)}",\n);`);
  });

  it("breaks a list that does not fit one item per line, each with a trailing comma", () => {
    expect(print(cat("const x = ", call("f", ...names(12, "argument")), ";"))).toBe(
      ["const x = f(", ...names(12, "argument").map((n) => `  ${n},`), ");"].join("\n"),
    );
  });

  it("breaks only the outer list when the items then fit", () => {
    const inner = (i: number) => call("field", `"name${i}"`, "NS", object([["min", "0"]]));
    const code = cat("const x = ", call("complex", '"Type"', inner(1), inner(2), inner(3)), ";");
    expect(print(code)).toBe(
      [
        "const x = complex(",
        '  "Type",',
        '  field("name1", NS, { min: 0 }),',
        '  field("name2", NS, { min: 0 }),',
        '  field("name3", NS, { min: 0 }),',
        ");",
      ].join("\n"),
    );
  });

  it("hugs a last argument that is an array, an object or an arrow returning one", () => {
    const fields = names(6, "field(something)");
    expect(
      print(cat("export const T = ", call("complex", '"T"', arrow("()", array(fields))), ";")),
    ).toBe(
      ['export const T = complex("T", () => [', ...fields.map((f) => `  ${f},`), "]);"].join("\n"),
    );
    // Not when another argument is one too: then every argument has its own line.
    const code = cat(
      "export const T = ",
      call("complex", '"T"', arrow("()", array(fields)), object([["any", "true"]])),
      ";",
    );
    expect(print(code).split("\n")).toEqual([
      "export const T = complex(",
      '  "T",',
      "  () => [",
      ...fields.map((f) => `    ${f},`),
      "  ],",
      "  { any: true },",
      ");",
    ]);
  });

  it("continues an arrow's body on the next line, and after a broken head on its last line", () => {
    const head = params([
      cat("input: ", "SomeRatherLongRequestTypeNameForTheOperation"),
      "context",
    ]);
    const entry = object(
      [
        [
          "SomeRatherLongOperationName",
          arrow(head, call("impl.someRatherLongOperationName", "input", "context")),
        ],
      ],
      true,
    );
    expect(print(entry)).toBe(
      [
        "{",
        "  SomeRatherLongOperationName: (input: SomeRatherLongRequestTypeNameForTheOperation, context) =>",
        "    impl.someRatherLongOperationName(input, context),",
        "}",
      ].join("\n"),
    );
    const longer = params([cat("input: ", "A".repeat(80)), "context"]);
    expect(print(object([["Op", arrow(longer, call("impl.op", "input", "context"))]], true))).toBe(
      [
        "{",
        "  Op: (",
        `    input: ${"A".repeat(80)},`,
        "    context,",
        "  ) => impl.op(input, context),",
        "}",
      ].join("\n"),
    );
  });

  it("puts each member of a union that does not fit on its own line after `| `", () => {
    const literals = names(12, '"Value').map((n) => `${n}"`);
    expect(print(cat("export type T = ", union(literals), ";"))).toBe(
      ["export type T =", ...literals.map((l, i) => `  | ${l}${i === 11 ? ";" : ""}`)].join("\n"),
    );
    expect(print(cat("export type T = ", union(["A", "null"], true), "[];"))).toBe(
      "export type T = (A | null)[];",
    );
    const long = union([`${"Name".repeat(24)}`, "null"], true);
    expect(print(cat("export type T = ", long, "[];"))).toBe(
      ["export type T = (", `  | ${"Name".repeat(24)}`, "  | null", ")[];"].join("\n"),
    );
  });

  it("gives a block one member per line, JSDoc above, and blank lines where asked", () => {
    const members = [
      { code: "a: string;", doc: "The a." },
      { code: "b?: number;", doc: "Line one.\nLine two." },
      { code: block("method()", [{ code: "return 1;" }]), gap: true },
    ];
    expect(print(block("export interface I", members), "The interface.")).toBe(
      [
        "/** The interface. */",
        "export interface I {",
        "  /** The a. */",
        "  a: string;",
        "  /**",
        "   * Line one.",
        "   * Line two.",
        "   */",
        "  b?: number;",
        "",
        "  method() {",
        "    return 1;",
        "  }",
        "}",
      ].join("\n"),
    );
    expect(print(block("", []))).toBe("{}");
  });

  it("indents the members of a block inside a broken union under the member", () => {
    const alt = (k: string) => block("", [{ code: `${k}: string;` }]);
    expect(print(cat("export type T = ", union([alt("a"), alt("b")]), ";"))).toBe(
      [
        "export type T =",
        "  | {",
        "      a: string;",
        "    }",
        "  | {",
        "      b: string;",
        "    };",
      ].join("\n"),
    );
  });

  it("breaks type arguments without a trailing comma, which TypeScript refuses there", () => {
    const code = cat(
      "export type T = ",
      typeArgs("Options", ["A".repeat(50), "B".repeat(50)]),
      ";",
    );
    expect(print(code)).toBe(
      ["export type T = Options<", `  ${"A".repeat(50)},`, `  ${"B".repeat(50)}`, ">;"].join("\n"),
    );
  });

  it("never breaks a string, even past 100 columns", () => {
    const url = `"https://example.com/${"x".repeat(100)}"`;
    expect(print(object([["address", url]], true))).toBe(`{\n  address: ${url},\n}`);
  });

  it("moves a value that does not fit after `:` or `=` to the next line, where it fits", () => {
    const key = "k".repeat(50);
    const value = `"${"v".repeat(50)}"`;
    expect(print(object([[key, value]], true))).toBe(`{\n  ${key}:\n    ${value},\n}`);
    const type = "T".repeat(60);
    expect(print(cat(`export type ${"A".repeat(40)} = `, `${type}[]`, ";"))).toBe(
      `export type ${"A".repeat(40)} =\n  ${type}[];`,
    );
  });
});

describe("doc comments", () => {
  const statement = (doc: string) => print("let x;", doc).split("\n").slice(0, -1);
  const sentence = Array.from({ length: 30 }, (_, i) => `word${i}`).join(" ");

  it("keep a one-line doc that fits on one line", () => {
    expect(statement("Short.")).toEqual(["/** Short. */"]);
    const fits = "x".repeat(93);
    expect(statement(fits)).toEqual([`/** ${fits} */`]);
    expect(statement(`${fits}y`)).toEqual(["/**", ` * ${fits}y`, " */"]);
  });

  it("wrap at word boundaries within 100 columns, indented to the member", () => {
    const lines = statement(sentence);
    expect(lines[0]).toBe("/**");
    expect(lines.every((l) => l.length <= 100)).toBe(true);
    expect(
      lines
        .slice(1, -1)
        .map((l) => l.slice(3))
        .join(" "),
    ).toBe(sentence);
    const member = print(block("interface I", [{ code: "a: string;", doc: sentence }]));
    const docLines = member.split("\n").slice(1, -2);
    expect(docLines[0]).toBe("  /**");
    expect(docLines.slice(1, -1).every((l) => l.startsWith("   * ") && l.length <= 100)).toBe(true);
    expect(docLines.at(-1)).toBe("   */");
  });

  it("keep a word longer than the width whole, and an inline tag in one piece", () => {
    const url = `https://example.com/${"p".repeat(100)}`;
    expect(statement(`See ${url} for more.`)).toEqual([
      "/**",
      " * See",
      ` * ${url}`,
      " * for more.",
      " */",
    ]);
    const tagged = `${"a ".repeat(47)}{@link Some.Type the type}`;
    expect(statement(tagged).slice(1, -1)).toEqual([
      ` * ${"a ".repeat(47).trim()}`,
      " * {@link Some.Type the type}",
    ]);
  });

  it("never start a continuation line with a JSDoc tag or a Markdown marker", () => {
    const marker = (w: string) => statement(`${"a ".repeat(48)}b ${w} c`).slice(1, -1);
    expect(marker("@param")).toEqual([` * ${"a ".repeat(48).trim()}`, " * b @param c"]);
    expect(marker("-")).toEqual([` * ${"a ".repeat(48).trim()}`, " * b - c"]);
    expect(marker("1.")).toEqual([` * ${"a ".repeat(48).trim()}`, " * b 1. c"]);
  });

  it("keep a line that fits as written, its spacing included, and re-flow only one that does not", () => {
    const table = ["Code   Meaning", "  1    sent", "  2    read"].join("\n");
    expect(statement(table)).toEqual([
      "/**",
      " * Code   Meaning",
      " * 1    sent",
      " * 2    read",
      " */",
    ]);
    expect(lineComment("a  b\nc    d")).toBe("// a  b\n// c    d");
    const long = `${"w ".repeat(49)}x   y`;
    expect(statement(long).slice(1, -1)).toEqual([` * ${"w ".repeat(49).trim()}`, " * x y"]);
  });

  it("wrap a long header line as `//` lines", () => {
    const text = `Generated by wsdl-tsgen from ${"dir/".repeat(30)}api.wsdl and friends.`;
    const lines = lineComment(text).split("\n");
    expect(lines).toEqual([
      "// Generated by wsdl-tsgen from",
      `// ${"dir/".repeat(30)}api.wsdl`,
      "// and friends.",
    ]);
  });
});
