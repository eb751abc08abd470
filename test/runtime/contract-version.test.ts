/**
 * Generated code states the contract version it was generated for, and importing it with a runtime
 * that reads another version fails at once, naming both versions and what fixes it.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CONTRACT_VERSION, generatedFor } from "../../runtime/src/index.js";
import { tempDir } from "../support/tmp.js";

const SAMPLE = "generated-samples/message-service";
const CALL = `generatedFor(${CONTRACT_VERSION});`;

/** A copy of the message service's generated code, its contract version replaced by `version`. */
function copyFor(version: number): string {
  const dir = tempDir("wsdl-tsgen-contract-");
  for (const f of readdirSync(SAMPLE)) {
    let text = readFileSync(path.join(SAMPLE, f), "utf8");
    if (f === "descriptors.ts") text = text.replace(CALL, `generatedFor(${version});`);
    writeFileSync(path.join(dir, f), text);
  }
  return pathToFileURL(path.join(dir, "index.ts")).href;
}

describe("the contract version", () => {
  it("is stated once at the top of every generated descriptors.ts", () => {
    const text = readFileSync(path.join(SAMPLE, "descriptors.ts"), "utf8");
    expect(text.split(CALL)).toHaveLength(2);
    expect(text.indexOf(CALL)).toBeLessThan(text.indexOf("complex("));
  });

  it("is 3 or later where generated code calls what version 3 added", () => {
    // Version 2 runtimes lack `fieldsIn` and the operation table constructors: code calling them
    // must be refused there, so it states a version they do not read.
    const text = readFileSync(path.join(SAMPLE, "descriptors.ts"), "utf8");
    expect(text).toContain("const field = fieldsIn(NS);");
    expect(text).toContain("= soapOperations({");
    expect(CONTRACT_VERSION).toBeGreaterThanOrEqual(3);
  });

  it("is 4 or later where generated code gives its `field` default options", () => {
    // Version 3 runtimes ignore `fieldsIn`'s second argument and lack REQUIRED: Bing's optional,
    // nillable fields would read as required there.
    const bing = "generated-samples/corpus/bing-campaign-management/descriptors.ts";
    const text = readFileSync(bing, "utf8");
    expect(text).toContain("const field = fieldsIn(NS, OPTIONAL_NILLABLE);");
    expect(text).toContain(", REQUIRED),");
    expect(CONTRACT_VERSION).toBeGreaterThanOrEqual(4);
  });

  it("is 5 or later where generated code marks a port that uses SOAP encoding", () => {
    // Version 4 runtimes read multi-references on every port and ignore `encoded`; version 5 reads
    // them only on ports marked encoded, so older encoded code would lose them silently.
    const text = readFileSync("generated-samples/encoded-arrays/descriptors.ts", "utf8");
    expect(text).toContain("encoded: true,");
    expect(CONTRACT_VERSION).toBeGreaterThanOrEqual(5);
  });

  it("is 6 or later where generated code declares faults with the runtime's `fault`", () => {
    // Version 5 runtimes have no `fault`: the import would fail without saying why.
    const text = readFileSync("generated-samples/xsd-features/descriptors.ts", "utf8");
    expect(text).toContain("export const InvalidOrderFaultDesc: FaultDesc = fault(");
    expect(CONTRACT_VERSION).toBeGreaterThanOrEqual(6);
  });

  it("is 7 or later where generated code puts a repeated choice's elements in an ordered list", () => {
    // Version 6 runtimes ignore `in`: each element would read as a property of its own, an array,
    // and the list's items would not be written.
    const text = readFileSync("generated-samples/choices/descriptors.ts", "utf8");
    expect(text).toContain('field("Message", MessageType, { in: "Items" }),');
    expect(CONTRACT_VERSION).toBeGreaterThanOrEqual(7);
  });

  it("is 8 or later where generated code builds HTTP parameters with the runtime's `param`", () => {
    // Version 7 runtimes have no `param`, and their createServiceHandler takes the WSDL and options
    // by position: the import or the handler would fail without saying why.
    const text = readFileSync(path.join(SAMPLE, "descriptors.ts"), "utf8");
    expect(text).toContain('param("email", xs.string),');
    expect(CONTRACT_VERSION).toBeGreaterThanOrEqual(8);
  });

  it("code generated for this runtime's version imports", async () => {
    const mod = (await import(copyFor(CONTRACT_VERSION))) as { ApiClient?: unknown };
    expect(typeof mod.ApiClient).toBe("function");
  });

  it.each([CONTRACT_VERSION - 1, CONTRACT_VERSION + 1])(
    "code generated for version %i fails at import, naming both versions and the fix",
    async (version) => {
      const imported = import(copyFor(version));
      await expect(imported).rejects.toThrow(
        `generated for contract version ${version} of @wsdl-tsgen/runtime, but the installed @wsdl-tsgen/runtime reads contract version ${CONTRACT_VERSION}`,
      );
      await expect(imported).rejects.toThrow("`npx wsdl-tsgen generate <wsdl> --out <dir>`");
      await expect(imported).rejects.toThrow("`npm install @wsdl-tsgen/runtime@<version>`");
    },
  );

  it("says which side is older", () => {
    expect(() => generatedFor(CONTRACT_VERSION - 1)).toThrow("from an older wsdl-tsgen");
    expect(() => generatedFor(CONTRACT_VERSION + 1)).toThrow("from a newer wsdl-tsgen");
    expect(() => generatedFor(CONTRACT_VERSION)).not.toThrow();
  });
});
