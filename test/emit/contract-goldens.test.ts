/**
 * The generated client and server follow from the typed service descriptor: no golden's client.ts
 * or server.ts holds a type assertion or a forwarding table from operations to the implementation,
 * and no descriptors.ts a type assertion.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = "generated-samples";

/** Every golden folder under generated-samples/ that holds a client.ts. */
function goldens(dir = ROOT): string[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  const here = entries.some((e) => e.isFile() && e.name === "client.ts") ? [dir] : [];
  const below = entries.filter((e) => e.isDirectory()).map((e) => path.join(dir, e.name));
  return [...here, ...below.flatMap((d) => goldens(d))];
}

/** What the file holds that generated code should not: casts, function-valued object literals. */
export function contractBreaches(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const where = (n: ts.Node) => {
    const { line } = source.getLineAndCharacterOfPosition(n.getStart(source));
    return `${fileName}:${line + 1}`;
  };
  const visit = (n: ts.Node): void => {
    if (ts.isAsExpression(n) || ts.isTypeAssertionExpression(n))
      found.push(`${where(n)}: type assertion \`${n.getText(source).slice(0, 80)}\``);
    if (ts.isObjectLiteralExpression(n) && n.properties.some(isFunctionValued))
      found.push(`${where(n)}: an object literal of functions (a forwarding table)`);
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

function isFunctionValued(p: ts.ObjectLiteralElementLike): boolean {
  if (ts.isMethodDeclaration(p)) return true;
  if (!ts.isPropertyAssignment(p)) return false;
  return ts.isArrowFunction(p.initializer) || ts.isFunctionExpression(p.initializer);
}

describe("the goldens' client.ts and server.ts", () => {
  const dirs = goldens();

  it("are found: the samples and the corpus goldens", () => {
    expect(dirs).toContain(path.join(ROOT, "message-service"));
    expect(dirs.filter((d) => d.includes(`${path.sep}corpus${path.sep}`)).length).toBeGreaterThan(
      10,
    );
  });

  it.each(dirs)("%s holds no type assertion and no forwarding table", (dir) => {
    const breaches = ["client.ts", "server.ts"].flatMap((f) =>
      contractBreaches(path.join(dir, f), readFileSync(path.join(dir, f), "utf8")),
    );
    expect(breaches).toEqual([]);
  });

  it.each(dirs)("%s/descriptors.ts holds no type assertion", (dir) => {
    // Fault descriptors cast the decoded detail until contract 6: the runtime's `fault` does it now.
    const file = path.join(dir, "descriptors.ts");
    const casts = contractBreaches(file, readFileSync(file, "utf8")).filter((b) =>
      b.includes("type assertion"),
    );
    expect(casts).toEqual([]);
  });

  it("the check finds a cast and a forwarding table", () => {
    const code = `const a = (await c.call("X", input)) as X | undefined;
const b = <X>y;
createServiceHandler(D, W, { X: (input: X, context) => impl.x(input, context) }, options);
const ok = { port: "A", nested: { n: 1 } };`;
    expect(contractBreaches("t.ts", code)).toEqual([
      't.ts:1: type assertion `(await c.call("X", input)) as X | undefined`',
      "t.ts:2: type assertion `<X>y`",
      "t.ts:3: an object literal of functions (a forwarding table)",
    ]);
  });
});
