/**
 * Generated code reads as if written at 100 columns (issue #33): no line of generated-samples/ is
 * longer, unless what overflows is one token that no break could make fit (a URL, a long
 * identifier, a string literal such as the embedded WSDL).
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { PRINT_WIDTH } from "../../src/emit/measure.js";

const ROOT = "generated-samples";

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

/** A string literal in either quotes (escapes included) or a run of non-blank characters. */
const TOKEN = /"(?:[^"\\]|\\.)*"\S*|'(?:[^'\\]|\\.)*'\S*|\S+/g;

/**
 * Whether a line's overflow is one unbreakable token: put alone on a continuation line (indented
 * two more, after a `* ` or `// `), it would still be over the width.
 */
function unbreakable(line: string): boolean {
  const indent = line.length - line.trimStart().length;
  const longest = Math.max(...(line.match(TOKEN) ?? []).map((t) => t.length));
  return indent + 3 + longest > PRINT_WIDTH;
}

/** Every `file:line` of `files` over the width whose overflow could have been broken. */
function overlong(files: readonly string[]): string[] {
  return files.flatMap((f) =>
    readFileSync(f, "utf8")
      .split("\n")
      .flatMap((line, i) =>
        line.length > PRINT_WIDTH && !unbreakable(line)
          ? [`${f}:${i + 1} (${line.length} columns): ${line.trim().slice(0, 60)}…`]
          : [],
      ),
  );
}

describe("generated-samples/ at 100 columns", () => {
  it("tells an unbreakable token from a line that could break", () => {
    expect(unbreakable(`  address: "https://example.com/${"x".repeat(100)}",`)).toBe(true);
    expect(unbreakable(` * ${"word ".repeat(30)}`)).toBe(false);
    expect(unbreakable(`    ${"k".repeat(50)}: "${"v".repeat(50)}",`)).toBe(false);
  });

  it("has no line over 100 columns but unbreakable tokens", () => {
    const files = filesUnder(ROOT);
    expect(files.length).toBeGreaterThan(30);
    expect(overlong(files)).toEqual([]);
  });
});
