/**
 * The layout stays readable, in the generator (src/) and the runtime (runtime/src/) alike: no
 * import cycle among a tree's modules (type imports and `export … from` included, since a cycle of
 * types still ties the modules' meanings together), no loop among its folders (each stands above
 * what it imports), no file over 500 lines (300 in src/emit) and no class over 300 lines, so that
 * each folder can be read from the bottom up and each file on its own.
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { longNodes } from "../support/long-nodes.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const TREES = ["src", "runtime/src"];
const MAX_FILE_LINES = 500;
const MAX_CLASS_LINES = 300;
/** The emitters are held shorter (issue #33): each reads as one responsibility. */
const EMIT_TREE = "src/emit";
const MAX_EMIT_FILE_LINES = 300;

/** The .ts files under `dir`, relative to it, with `/` separators. */
function sources(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, encoding: "utf8" }) as string[])
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.split(path.sep).join("/"))
    .sort();
}

/**
 * The files under `dir` that `file` imports or re-exports, by relative specifier, types included.
 */
function importsOf(dir: string, file: string): string[] {
  const info = ts.preProcessFile(readFileSync(path.join(dir, file), "utf8"), true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((s) => s.startsWith("."))
    .map((s) => path.posix.join(path.posix.dirname(file), s.replace(/\.js$/, ".ts")));
}

/**
 * Every import cycle under `dir`, each as "a.ts -> b.ts -> a.ts", found by a depth-first search.
 */
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

/**
 * The stack of runtime/src's rooms (top folders and top files), from the bottom (issue #43, item
 * 2): a room imports only rooms on levels below its own, so the runtime reads from the bottom up.
 * The transport and the errors' bottom sit low, since errors.ts re-exports the transport's errors;
 * help pages are the server's (server/help/); a new room takes its place here.
 */
const RUNTIME_LEVELS: readonly (readonly string[])[] = [
  ["support/", "transport/"],
  ["scalars/", "errors.ts"],
  ["descriptors/"],
  ["xml/", "json/"],
  ["http/"],
  ["mime/", "soap/"],
  ["client/", "server/", "wss/"],
  ["gateway/"],
  ["index.ts", "internal.ts"],
];

/** The room of a file under a tree: its top folder, or the file itself at the top. */
const roomOf = (file: string): string => {
  const slash = file.indexOf("/");
  return slash < 0 ? file : file.slice(0, slash + 1);
};

/** The imports between rooms (a tree's top folders and top files), by importing room. */
function roomArrows(dir: string): Map<string, Set<string>> {
  const arrows = new Map<string, Set<string>>();
  for (const f of sources(dir)) {
    const from = roomOf(f);
    const to = arrows.get(from) ?? new Set<string>();
    arrows.set(from, to);
    for (const i of importsOf(dir, f)) {
      const room = roomOf(i);
      if (room !== from && !room.startsWith("..")) to.add(room);
    }
  }
  return arrows;
}

/**
 * The imports between rooms that break the stack `levels` (bottom first), each as "from -> to",
 * sorted: an arrow to a room on the same level or above, or a room on no level.
 */
function stackBreaks(dir: string, levels: readonly (readonly string[])[]): string[] {
  const level = new Map(levels.flatMap((rooms, i) => rooms.map((r) => [r, i] as const)));
  const breaks: string[] = [];
  for (const [from, tos] of roomArrows(dir)) {
    const own = level.get(from);
    if (own === undefined) breaks.push(`${from} is on no level`);
    else
      for (const to of tos) if ((level.get(to) ?? Infinity) >= own) breaks.push(`${from} -> ${to}`);
  }
  return breaks.sort();
}

/**
 * The imports between rooms that close a loop of rooms, each as "from -> to", sorted: the arrows
 * inside a strongly connected group of rooms (Tarjan's).
 */
function folderLoops(dir: string): string[] {
  const arrows = roomArrows(dir);
  const group = new Map<string, number>();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const visit = (room: string): void => {
    index.set(room, index.size);
    low.set(room, index.get(room)!);
    stack.push(room);
    for (const next of arrows.get(room) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(room, Math.min(low.get(room)!, low.get(next)!));
      } else if (!group.has(next)) low.set(room, Math.min(low.get(room)!, index.get(next)!));
    }
    if (low.get(room) !== index.get(room)) return;
    for (let r = stack.pop(); r !== undefined; r = r === room ? undefined : stack.pop())
      group.set(r, index.get(room)!);
  };
  for (const room of arrows.keys()) if (!index.has(room)) visit(room);
  const loops: string[] = [];
  for (const [from, tos] of arrows)
    for (const to of tos) if (group.get(from) === group.get(to)) loops.push(`${from} -> ${to}`);
  return loops.sort();
}

/** The files under `dir` longer than `max` lines, as "file (lines)". */
function longFiles(dir: string, max: number): string[] {
  return sources(dir).flatMap((f) => {
    const lines = readFileSync(path.join(dir, f), "utf8").replace(/\n$/, "").split("\n").length;
    return lines > max ? [`${f} (${lines})`] : [];
  });
}

/** The classes under `dir` longer than `max` lines, as "file:line name (lines)". */
const longClasses = (dir: string, max: number): string[] =>
  sources(dir).flatMap((f) => longNodes(path.join(dir, f), f, max, ts.isClassLike));

/** The type assertions (`x as T`, `<T>x`) under `dir`, `as const` aside, as "file:line". */
function casts(dir: string): string[] {
  const found: string[] = [];
  for (const f of sources(dir)) {
    const sf = ts.createSourceFile(
      f,
      readFileSync(path.join(dir, f), "utf8"),
      ts.ScriptTarget.Latest,
      true,
    );
    const visit = (node: ts.Node): void => {
      const asserted = ts.isAsExpression(node) || ts.isTypeAssertionExpression(node);
      if (asserted && node.type.getText(sf) !== "const")
        found.push(`${f}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

describe("the layout of src/ and runtime/src/", () => {
  // The options table types every option the CLI reads, and the config file is checked from it.
  for (const dir of ["src/cli", "src/config"])
    it(`has no type assertion in ${dir}`, () => {
      expect(sources(dir).length).toBeGreaterThanOrEqual(2);
      expect(casts(dir)).toEqual([]);
    });

  // The plan names things; how they are printed is emit's: naming never depends on printing.
  it("src/transform imports nothing from src/emit", () => {
    const fromEmit = sources("src/transform").filter((f) =>
      importsOf("src/transform", f).some((i) => i.startsWith("../emit/")),
    );
    expect(fromEmit).toEqual([]);
  });

  for (const tree of TREES) {
    it(`has no import cycle in ${tree}, type imports included`, () => {
      expect(sources(tree).length).toBeGreaterThan(20);
      expect(importCycles(tree)).toEqual([]);
    });

    it(`has no file over ${MAX_FILE_LINES} lines in ${tree}`, () => {
      expect(longFiles(tree, MAX_FILE_LINES)).toEqual([]);
    });

    it(`has no class over ${MAX_CLASS_LINES} lines in ${tree}`, () => {
      expect(longClasses(tree, MAX_CLASS_LINES)).toEqual([]);
    });
  }

  // Every room stands above what it imports, in the generator and the runtime alike.
  for (const tree of TREES)
    it(`has no import loop of folders in ${tree}`, () => {
      expect(folderLoops(tree)).toEqual([]);
    });

  it("stacks runtime/src's rooms in the order of RUNTIME_LEVELS", () => {
    expect(stackBreaks("runtime/src", RUNTIME_LEVELS)).toEqual([]);
  });

  it(`has no file over ${MAX_EMIT_FILE_LINES} lines in ${EMIT_TREE}`, () => {
    expect(sources(EMIT_TREE).length).toBeGreaterThan(10);
    expect(longFiles(EMIT_TREE, MAX_EMIT_FILE_LINES)).toEqual([]);
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

  it("finds a loop of folders that no file cycle makes, and only the arrows in it", () => {
    const dir = tempDir();
    for (const sub of ["model", "transform", "emit"]) mkdirSync(path.join(dir, sub));
    writeTemp(
      dir,
      "model/build.ts",
      `import { rule } from "../transform/rule.js";\nexport const b = rule;\n`,
    );
    writeTemp(dir, "model/model.ts", `export type M = string;\n`);
    writeTemp(
      dir,
      "transform/rule.ts",
      `import type { M } from "../model/model.js";\nexport const rule: M = "";\n`,
    );
    writeTemp(dir, "emit/emit.ts", `import { b } from "../model/build.js";\nexport const e = b;\n`);
    writeTemp(dir, "index.ts", `export { e } from "./emit/emit.js";\n`);
    expect(importCycles(dir)).toEqual([]);
    expect(folderLoops(dir)).toEqual(["model/ -> transform/", "transform/ -> model/"]);
  });

  it("finds an arrow that goes up or across the stack, and a room on no level", () => {
    const dir = tempDir();
    for (const sub of ["low", "mid", "peer", "new"]) mkdirSync(path.join(dir, sub));
    writeTemp(dir, "low/a.ts", `export const a = 1;\n`);
    writeTemp(dir, "mid/b.ts", `import { a } from "../low/a.js";\nexport const b = a;\n`);
    writeTemp(dir, "peer/c.ts", `import { b } from "../mid/b.js";\nexport const c = b;\n`);
    writeTemp(dir, "new/d.ts", `import { a } from "../low/a.js";\nexport const d = a;\n`);
    const levels = [["low/"], ["mid/", "peer/"]];
    expect(stackBreaks(dir, levels)).toEqual(["new/ is on no level", "peer/ -> mid/"]);
    expect(stackBreaks(dir, [["low/"], ["mid/"], ["peer/", "new/"]])).toEqual([]);
  });

  it("finds casts, but not `as const`", () => {
    const dir = tempDir();
    writeTemp(
      dir,
      "c.ts",
      `export const a = 1 as number;\nexport const b = [1] as const;\nexport const c = <string>"";\n`,
    );
    expect(casts(dir)).toEqual(["c.ts:1", "c.ts:3"]);
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
