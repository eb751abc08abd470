/**
 * Generated calls pass options by name (issue #33): no argument is a positional `undefined` that
 * stands for something left out, as `createServiceHandler(Desc, undefined, impl, options)` did.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = "generated-samples";

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? codeFiles(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** `undefined` as an argument: after `(` or `,`, before `,` or `)`. */
const POSITIONAL_UNDEFINED = /[(,]\s*undefined\s*[,)]/;

describe("generated calls", () => {
  it("the check finds a positional undefined, and not a property's or a type's", () => {
    expect(POSITIONAL_UNDEFINED.test("f(Desc, undefined, impl)")).toBe(true);
    expect(POSITIONAL_UNDEFINED.test("f(\n  Desc,\n  undefined,\n)")).toBe(true);
    expect(POSITIONAL_UNDEFINED.test("{ action: undefined, x }")).toBe(false);
    expect(POSITIONAL_UNDEFINED.test("output: A | undefined;")).toBe(false);
  });

  it("pass no positional undefined anywhere in generated-samples/", () => {
    const offenders = codeFiles(ROOT).filter(
      (f) => !f.endsWith("wsdl.ts") && POSITIONAL_UNDEFINED.test(readFileSync(f, "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
