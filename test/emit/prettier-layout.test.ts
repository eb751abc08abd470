/**
 * The generated code passes as hand-written (issue #43): Prettier, at the project's 100 columns,
 * leaves every file generated for the message service and the other fixtures unchanged, so the
 * printer's layout (src/emit/printer.ts) is Prettier's own, byte for byte.
 */
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { generateFiles } from "../../src/generate.js";

const FIXTURES = [
  "fixtures/message-service/api.wsdl",
  "fixtures/xsd-features/features.wsdl",
  "fixtures/choices/choices.wsdl",
  "fixtures/swa/scans.wsdl",
];

describe("the generated layout is Prettier's", () => {
  it.each(FIXTURES)("Prettier leaves the files generated from %s unchanged", async (wsdl) => {
    const { files } = await generateFiles(wsdl);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const formatted = await prettier.format(f.content, { filepath: f.path, printWidth: 100 });
      expect(formatted, f.path).toBe(f.content);
    }
  });
});
