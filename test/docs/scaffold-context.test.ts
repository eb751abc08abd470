/**
 * The template context that docs/cli.md documents is src/scaffold/context.ts's, member for member:
 * a template author reads the page, not the source (issue #43: four fields had drifted).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (p: string) => readFileSync(new URL(`../../${p}`, import.meta.url), "utf8");
const SOURCE = read("src/scaffold/context.ts");
const DOCS = read("docs/cli.md");

/** The members of `interface name` in `text`, at `indent` spaces, optionally `readonly`. */
function members(text: string, name: string, exported: boolean): string[] {
  const start = text.indexOf(`${exported ? "export " : ""}interface ${name} {`);
  expect(start, name).toBeGreaterThan(-1);
  const body = text.slice(start, text.indexOf("\n}", start));
  return [...body.matchAll(/^ {2}(?:readonly )?(\w+)\??:/gm)].map((m) => m[1]!).sort();
}

describe("the documented template context", () => {
  for (const name of [
    "ScaffoldContext",
    "ServiceContext",
    "OperationContext",
    "PortContext",
    "PortOperation",
  ])
    it(`lists ${name}'s members, no more, no fewer`, () => {
      expect(members(DOCS, name, false)).toEqual(members(SOURCE, name, true));
    });
});
