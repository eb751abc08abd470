/**
 * Functions stay small: none over 80 lines (counted from its first line to its closing brace) in
 * the runtime apps ship or in the generator, so that each can be read and reviewed on its own.
 */
import { readdirSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { longNodes } from "../support/long-nodes.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const MAX_LINES = 80;

/** Every function with a body in `file` longer than `max`, as "file:line name (lines)". */
const longFunctions = (file: string, max: number): string[] =>
  longNodes(file, file, max, (n) => ts.isFunctionLike(n) && "body" in n && n.body !== undefined);

describe("function length", () => {
  it.each(["runtime/src", "src"])(`has no function over ${MAX_LINES} lines in %s`, (dir) => {
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) =>
      f.endsWith(".ts"),
    );
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((f) => longFunctions(`${dir}/${f}`, MAX_LINES))).toEqual([]);
  });

  it("finds a function that is too long", () => {
    // The check itself: a function of 85 lines is reported.
    const body = Array.from({ length: 83 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const file = writeTemp(tempDir(), "long.ts", `function long(): void {\n${body}\n}\n`);
    expect(longFunctions(file, MAX_LINES)).toEqual([`${file}:1 long (85)`]);
  });
});
