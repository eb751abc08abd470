/**
 * A user's compiler does not check that descriptors and types agree (descriptors.ts is
 * `@ts-nocheck`, and the client and implementation interfaces are written out): these tests do, on
 * every generated sample. descriptors.ts is compiled with its values checked, and each service's
 * written-out types must equal those the runtime maps from the descriptor's type.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { withValuesChecked } from "../../src/emit/emit.js";
import { compileFolders, type FolderError } from "../support/compile.js";

const SAMPLES = "generated-samples";

/** Every folder of generated-samples/ that holds an SDK (a descriptors.ts). */
function sdkFolders(dir = SAMPLES): string[] {
  return readdirSync(dir)
    .map((e) => path.join(dir, e))
    .filter((p) => statSync(p).isDirectory())
    .flatMap((p) => (readdirSync(p).includes("descriptors.ts") ? [p] : sdkFolders(p)));
}

type Files = { path: string; content: string }[];

function read(folder: string): Files {
  return readdirSync(folder)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => ({ path: f, content: readFileSync(path.join(folder, f), "utf8") }));
}

/** The files with descriptors.ts's values checked, as the generator's tests see them. */
function checked(files: Files): Files {
  return files.map((f) =>
    f.path === "descriptors.ts" ? { ...f, content: withValuesChecked(f.content) } : f,
  );
}

/**
 * A file asserting that each service's written-out types are those the runtime maps from its
 * descriptor's type, named from the generated client.ts and server.ts.
 */
function agreement(files: Files): { path: string; content: string } {
  const text = (name: string) => files.find((f) => f.path === name)!.content;
  // The printer may break these calls over lines: white space anywhere between the names.
  const clients = [
    ...text("client.ts").matchAll(
      /export const (\w+) = clientClass<\s*typeof (\w+),\s*\w+,\s*(\w+),?\s*>/g,
    ),
  ];
  const servers = [
    ...text("server.ts").matchAll(/createServiceHandler<\s*typeof (\w+),\s*(\w+),?\s*>/g),
  ].map((m) => ({ desc: m[1]!, partial: m[2]! }));
  // Every service checked, none skipped by a pattern that does not match its layout.
  expect(clients).toHaveLength(text("client.ts").split("= clientClass<").length - 1);
  expect(servers).toHaveLength(text("server.ts").split("createServiceHandler<").length - 1);
  const lines = clients.flatMap(([, client, desc, options]) => {
    const server = servers.find((s) => s.desc === desc)!;
    const service = new RegExp(`export type ${server.partial} = Partial<(\\w+)>`).exec(
      text("server.ts"),
    )![1]!;
    // The context its own methods receive, read from its interface's block.
    const block = text("server.ts").split(`export interface ${service} {`)[1]!.split("\n}")[0]!;
    const context = /context: (\w+)\)/.exec(block)?.[1];
    return [
      `export const ${desc}Client: Equal<${client}, Client<typeof ${desc}>> = true;`,
      `export const ${desc}Options: Equal<${options}, ClientOptionsOf<typeof ${desc}>> = true;`,
      `export const ${desc}Service: Equal<${service}, Implementation<typeof ${desc}>> = true;`,
      `export const ${desc}Partial: Equal<${server.partial}, PartialImplementation<typeof ${desc}>> = true;`,
      ...(context
        ? [
            `export const ${desc}Context: Equal<${context}, RequestContextOf<typeof ${desc}>> = true;`,
          ]
        : []),
    ];
  });
  return {
    path: "agreement.ts",
    content: [
      `import type { Client, ClientOptionsOf, Implementation, PartialImplementation, RequestContextOf } from "@wsdl-tsgen/runtime";`,
      `import type * as d from "./descriptors.js";`,
      `import * as sdk from "./index.js";`,
      `import { ${[...new Set(clients.map((m) => m[2]!))].join(", ")} } from "./descriptors.js";`,
      `import type { ${[
        ...new Set(
          text("client.ts")
            .match(/export (?:type|interface) \w+/g)!
            .map((m) => m.split(" ")[2]!),
        ),
      ].join(", ")} } from "./client.js";`,
      `import type { ${[
        ...new Set(
          text("server.ts")
            .match(/export (?:type|interface) \w+/g)!
            .map((m) => m.split(" ")[2]!),
        ),
      ].join(", ")} } from "./server.js";`,
      // Identical once flattened: an intersection (\`{ port } & { …methods }\`) is one object type.
      "type Flat<T> = { [K in keyof T]: T[K] };",
      "type Equal<A, B> =",
      "  (<T>() => T extends Flat<A> ? 1 : 2) extends <T>() => T extends Flat<B> ? 1 : 2 ? true : false;",
      `void sdk; export type D = typeof d;`,
      ...lines,
      "",
    ].join("\n"),
  };
}

const errorsOf = (errors: FolderError[]) => errors.map((e) => `${e.file}:${e.line}: ${e.message}`);

describe("descriptors and types", () => {
  it(
    "agree in every generated sample: descriptors.ts checked, the written-out types as mapped",
    { timeout: 120_000 },
    () => {
      const folders = new Map<string, Files>();
      for (const dir of sdkFolders()) {
        const files = checked(read(dir));
        folders.set(dir, [...files, agreement(files)]);
      }
      expect(folders.size).toBeGreaterThan(10);
      expect(errorsOf(compileFolders(folders))).toEqual([]);
    },
  );

  it("disagree, and it is seen, when a written-out type or a descriptor is wrong", () => {
    const files = read(path.join(SAMPLES, "message-service"));
    const edit = (name: string, from: string | RegExp, to: string): Files =>
      files.map((f) => (f.path === name ? { ...f, content: f.content.replace(from, to) } : f));
    // The client's input and the implementation's result, each the type of another operation.
    const client = edit("client.ts", "input: GetMessages,", "input: DeleteMessage,");
    const server = edit(
      "server.ts",
      "context: ApiContext) => void",
      "context: ApiContext) => number",
    );
    // A method the descriptor does not name: seen only with descriptors.ts checked.
    const descriptors = edit("descriptors.ts", /\n {4}deleteMessage: "DeleteMessage",/, "");
    const folders = new Map<string, Files>([
      ["client", [...checked(client), agreement(client)]],
      ["server", [...checked(server), agreement(server)]],
      ["descriptors", [...checked(descriptors), agreement(descriptors)]],
      ["unchecked", [...descriptors, agreement(descriptors)]],
    ]);
    const errors = compileFolders(folders);
    const where = (folder: string) => errors.filter((e) => e.file.startsWith(`${folder}/`));
    expect(where("client").map((e) => e.file)).toContain("client/agreement.ts");
    expect(where("server").map((e) => e.file)).toContain("server/agreement.ts");
    expect(where("descriptors").map((e) => e.file)).toContain("descriptors/descriptors.ts");
    expect(errorsOf(where("unchecked"))).toEqual([]);
  });
});
