/**
 * docs/generated-code.md lists every client, call and handler option the runtime's types declare,
 * and nothing they do not (issue #32: the options were documented only in the declarations).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (p: string) => readFileSync(new URL(`../../${p}`, import.meta.url), "utf8");
const DOCS = read("docs/generated-code.md");

/** The property names of `interface name` in `source` (its own, not nested ones). */
function propertiesOf(source: string, name: string): string[] {
  const start = source.indexOf(`export interface ${name}`);
  expect(start).toBeGreaterThan(-1);
  const body = source.slice(source.indexOf("{\n", start), source.indexOf("\n}", start));
  return [...body.matchAll(/^ {2}readonly (\w+)\??:/gm)].map((m) => m[1]!);
}

/** The options a table of the section lists, by its first column. */
function documented(table: "ClientOptions" | "HandlerOptions"): string[] {
  const section = DOCS.slice(DOCS.indexOf("## Client and server options"));
  const at = section.indexOf(`(\`${table}\`)`);
  expect(at).toBeGreaterThan(-1);
  const rows = section.slice(at).split("\n\n")[1]!;
  return [...rows.matchAll(/^\| `(\w+)` +\|/gm)].map((m) => m[1]!);
}

describe("the options in docs/generated-code.md", () => {
  it("are the client's, in full", () => {
    const declared = propertiesOf(read("runtime/src/client/options.ts"), "ClientOptions");
    expect(declared.length).toBeGreaterThan(10);
    expect(documented("ClientOptions").sort()).toEqual([...declared].sort());
  });

  it("are the call's", () => {
    const declared = propertiesOf(read("runtime/src/client/options.ts"), "CallOptions");
    const line = DOCS.split("\n").find((l) => l.includes("(`CallOptions`)"))!;
    for (const p of declared) expect(line).toContain(p);
  });

  it("are the handler's, in full", () => {
    const declared = propertiesOf(read("runtime/src/server/handler.ts"), "HandlerOptions");
    expect(declared.length).toBeGreaterThan(8);
    expect(documented("HandlerOptions").sort()).toEqual([...declared].sort());
  });
});
