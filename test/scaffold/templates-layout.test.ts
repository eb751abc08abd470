/**
 * Templates a user owns (issue #43): the `fit` helper only fits lines to 100 columns, the `join`
 * helper joins a list, and the method's first line is laid out by partials/method.hbs, so that a
 * user's partial changes it.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { fit } from "../../src/scaffold/fit.js";
import { scaffold } from "../../src/scaffold/scaffold.js";
import { WSDL_PATH } from "../support/captures.js";
import { tempDir } from "../support/tmp.js";

const dir = tempDir("wsdl-tsgen-templates-");

describe("the fit helper", () => {
  it("leaves a line that fits, and breaks a longer one's first bracketed list one item a line", () => {
    expect(fit("  async m(input: A, context: B): Promise<C> {")).toBe(
      "  async m(input: A, context: B): Promise<C> {",
    );
    const long = `  async m(input: ${"A".repeat(40)}, context: Ctx<X, Y>): Promise<${"C".repeat(30)}> {`;
    expect(fit(long)).toBe(
      `  async m(\n    input: ${"A".repeat(40)},\n    context: Ctx<X, Y>,\n  ): Promise<${"C".repeat(30)}> {`,
    );
    const names = Array.from({ length: 12 }, (_, i) => `TypeName${i}`);
    expect(fit(`import type { ${names.join(", ")} } from "./types.js";`)).toBe(
      `import type {\n${names.map((n) => `  ${n},\n`).join("")}} from "./types.js";`,
    );
  });

  it("counts no bracket or comma inside a string literal", () => {
    const path = `"/svc(v1), \\"legacy\\" [${"x".repeat(50)}]"`;
    const long = `  handlers.set(${path}, createHandler(impl, { port: 'a, (b' }));`;
    expect(fit(long)).toBe(
      `  handlers.set(\n    ${path},\n    createHandler(impl, { port: 'a, (b' }),\n  );`,
    );
  });

  it("re-flows a JSDoc block's paragraphs at word boundaries to 100 columns", () => {
    const words = "word ".repeat(30).trim();
    const out = fit(`/**\n * Short\n * line. ${words}\n *\n * Next.\n */`).split("\n");
    expect(out[1]).toBe(` * Short line. ${"word ".repeat(17).trim()}`);
    expect(out.every((l) => l.length <= 100)).toBe(true);
    expect(out.slice(-3)).toEqual([" *", " * Next.", " */"]);
  });

  it("keeps each list item and tag of a JSDoc an entry of its own, hanging its later lines", () => {
    const words = "word ".repeat(25).trim();
    const block = `/**\n * Items:\n * - one ${words}\n * - two\n * 1. three\n * @param x the ${words}\n */`;
    const out = fit(block).split("\n");
    expect(out[1]).toBe(" * Items:");
    expect(out[2]).toMatch(/^ \* - one word/);
    expect(out[3]).toMatch(/^ \*   word/);
    expect(out).toContain(" * - two");
    expect(out).toContain(" * 1. three");
    const tag = out.findIndex((l) => l.startsWith(" * @param x the"));
    expect(out[tag + 1]).toMatch(/^ \*        word/);
    expect(out.every((l) => l.length <= 100)).toBe(true);
  });

  it("breaks again each line still too long after its first list is broken", () => {
    const inner = Array.from({ length: 10 }, (_, i) => `argumentNumber${i}`).join(", ");
    const long = `  handlers.set(key, createHandler(${inner}));`;
    const out = fit(long).split("\n");
    expect(out.every((l) => l.length <= 100)).toBe(true);
    expect(out).toEqual([
      "  handlers.set(",
      "    key,",
      "    createHandler(",
      ...Array.from({ length: 10 }, (_, i) => `      argumentNumber${i},`),
      "    ),",
      "  );",
    ]);
  });
});

describe("a user's templates", () => {
  it("lay the method out as partials/method.hbs says, with join for lists", async () => {
    const templates = path.join(dir, "mine");
    mkdirSync(path.join(templates, "partials"), { recursive: true });
    // No fit: every method on one line, however long; the parameters named otherwise.
    writeFileSync(
      path.join(templates, "partials/method.hbs"),
      "  async {{method}}(request: {{{inputType}}}, ctx: {{contextType}}): Promise<{{{outputType}}}> {\n    throw notImplemented({{{json name}}});\n  }\n",
    );
    writeFileSync(
      path.join(templates, "OPERATIONS.md.hbs"),
      '{{#each services}}{{#join operations " · "}}{{name}}{{#if @last}}.{{/if}}{{/join}}{{/each}}\n',
    );
    const out = path.join(dir, "out");
    await scaffold({ wsdl: WSDL_PATH, out, templates, name: "mine" });
    const service = readFileSync(path.join(out, "src/service.ts"), "utf8");
    expect(service).toContain(
      "  async getMessagesInDateRange(request: GetMessagesInDateRange, ctx: ApiContext): Promise<ArrayOfMessagesInput | undefined> {",
    );
    expect(readFileSync(path.join(out, "OPERATIONS.md"), "utf8")).toBe(
      "GetMessages · GetMessagesInDateRange · DeleteMessage.\n",
    );
  });
});
