/**
 * The runtime's layout stays readable: no import cycle among the modules of runtime/src (type
 * imports and `export … from` included, since a cycle of types still ties the modules' meanings
 * together), no file over 500 lines and no class over 300 lines, so that each folder can be read
 * from the bottom up and each file on its own.
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { tempDir, writeTemp } from "../support/tmp.js";

const RUNTIME = "runtime/src";
const MAX_FILE_LINES = 500;
const MAX_CLASS_LINES = 300;

/** The .ts files under `dir`, relative to it, with `/` separators. */
function sources(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, encoding: "utf8" }) as string[])
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.split(path.sep).join("/"))
    .sort();
}

/** The files under `dir` that `file` imports or re-exports, by relative specifier, types included. */
function importsOf(dir: string, file: string): string[] {
  const info = ts.preProcessFile(readFileSync(path.join(dir, file), "utf8"), true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((s) => s.startsWith("."))
    .map((s) => path.posix.join(path.posix.dirname(file), s.replace(/\.js$/, ".ts")));
}

/** Every import cycle under `dir`, each as "a.ts -> b.ts -> a.ts", found by a depth-first search. */
function importCycles(dir: string): string[] {
  const files = sources(dir);
  const graph = new Map(files.map((f) => [f, importsOf(dir, f)]));
  const state = new Map<string, "open" | "done">();
  const cycles: string[] = [];
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === "open")
        cycles.push([...stack.slice(stack.indexOf(next)), next].join(" -> "));
      else if (state.get(next) === undefined) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const f of files) if (!state.has(f)) visit(f);
  return cycles;
}

/** The files under `dir` longer than `max` lines, as "file (lines)". */
function longFiles(dir: string, max: number): string[] {
  return sources(dir).flatMap((f) => {
    const lines = readFileSync(path.join(dir, f), "utf8").replace(/\n$/, "").split("\n").length;
    return lines > max ? [`${f} (${lines})`] : [];
  });
}

/** The classes under `dir` longer than `max` lines, as "file:line name (lines)". */
function longClasses(dir: string, max: number): string[] {
  const found: string[] = [];
  for (const f of sources(dir)) {
    const text = readFileSync(path.join(dir, f), "utf8");
    const sf = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isClassLike(node)) {
        const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const last = sf.getLineAndCharacterOfPosition(node.end).line;
        const name = node.name?.getText(sf) ?? "(anonymous)";
        if (last - first + 1 > max) found.push(`${f}:${first + 1} ${name} (${last - first + 1})`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

describe("runtime layout", () => {
  it("has no import cycle in runtime/src, type imports included", () => {
    expect(sources(RUNTIME).length).toBeGreaterThan(20);
    expect(importCycles(RUNTIME)).toEqual([]);
  });

  it(`has no file over ${MAX_FILE_LINES} lines in runtime/src`, () => {
    expect(longFiles(RUNTIME, MAX_FILE_LINES)).toEqual([]);
  });

  it(`has no class over ${MAX_CLASS_LINES} lines in runtime/src`, () => {
    expect(longClasses(RUNTIME, MAX_CLASS_LINES)).toEqual([]);
  });

  it("finds a cycle through a type import and a re-export across folders", () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "sub"));
    writeTemp(dir, "a.ts", `import type { B } from "./sub/b.js";\nexport type A = B;\n`);
    writeTemp(dir, "sub/b.ts", `export { c as b } from "../c.js";\nexport type B = string;\n`);
    writeTemp(dir, "c.ts", `import { type A } from "./a.js";\nexport const c = 1 as A | 1;\n`);
    writeTemp(dir, "d.ts", `import { c } from "./c.js";\nexport const d = c;\n`);
    expect(importCycles(dir)).toEqual(["a.ts -> sub/b.ts -> c.ts -> a.ts"]);
  });

  it("finds a file and a class that are too long", () => {
    const dir = tempDir();
    const members = Array.from({ length: 299 }, (_, i) => `  m${i} = ${i};`).join("\n");
    writeTemp(dir, "long.ts", `export class Long {\n${members}\n}\n`);
    writeTemp(dir, "short.ts", `export class Short {}\n`);
    expect(longClasses(dir, MAX_CLASS_LINES)).toEqual(["long.ts:1 Long (301)"]);
    expect(longFiles(dir, MAX_FILE_LINES)).toEqual([]);
    expect(longFiles(dir, 300)).toEqual(["long.ts (301)"]);
  });
});
