/**
 * `--operations` (issue #32): only the operations named, on every binding, and only the types they
 * reach; a name the WSDL lacks is an error that lists those it has. The config file takes an array.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { generateFiles } from "../../src/generate.js";
import { WSDL_PATH } from "../support/captures.js";
import { tempDir } from "../support/tmp.js";

const BIN = fileURLToPath(new URL("../../bin/wsdl-tsgen.js", import.meta.url));
const dir = tempDir();
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", cwd: dir });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe("--operations", () => {
  it("keeps only the operations named, on every port, and the types they reach", async () => {
    const all = await generateFiles(WSDL_PATH);
    const one = await generateFiles(WSDL_PATH, { operations: ["DeleteMessage"] });
    expect(one.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const service = one.model!.services[0]!;
    expect(service.operations.map((o) => o.name)).toEqual(["DeleteMessage"]);
    for (const p of service.ports)
      expect(p.binding.operations.map((b) => b.operation.name)).toEqual(["DeleteMessage"]);
    const types = (r: typeof all) => r.model!.types.map((t) => t.name?.local ?? "(anonymous)");
    expect(types(all)).toContain("ArrayOfMessages");
    expect(types(one)).not.toContain("ArrayOfMessages");
    expect(types(one).length).toBeLessThan(types(all).length);
    const client = one.files.find((f) => f.path === "descriptors.ts")!.content;
    expect(client).toContain("DeleteMessage");
    expect(client).not.toContain("GetMessagesInDateRange");
  });

  it("refuses a name the WSDL does not have, listing those it has", async () => {
    const r = await generateFiles(WSDL_PATH, { operations: ["DeleteMessage", "Nope"] });
    expect(r.files).toEqual([]);
    const e = r.diagnostics.find((d) => d.severity === "error")!;
    expect(e.code).toBe("OPTION_INVALID");
    expect(e.message).toContain('found "Nope"');
    expect(e.message).toContain("GetMessages, GetMessagesInDateRange, DeleteMessage");
  });

  it("from the command line (comma-separated, repeatable) and the config file (an array)", () => {
    const flags = ["--operations", "GetMessages", "--operations", "DeleteMessage"];
    expect(run("generate", WSDL_PATH, "--out", `${dir}/cli`, ...flags).code).toBe(0);
    const cli = readFileSync(`${dir}/cli/descriptors.ts`, "utf8");
    expect(cli).not.toContain("GetMessagesInDateRange");
    writeFileSync(
      `${dir}/c.json`,
      JSON.stringify({
        sources: [{ wsdl: WSDL_PATH, out: "cfg", operations: ["GetMessages", "DeleteMessage"] }],
      }),
    );
    expect(run("generate", "--config", `${dir}/c.json`).code).toBe(0);
    expect(readFileSync(`${dir}/cfg/descriptors.ts`, "utf8")).toBe(cli);
    writeFileSync(
      `${dir}/bad.json`,
      JSON.stringify({ sources: [{ wsdl: WSDL_PATH, out: "x", operations: "GetMessages" }] }),
    );
    const bad = run("generate", "--config", `${dir}/bad.json`);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("operations must be an array of non-empty strings");
    expect(run("generate", WSDL_PATH, "--out", `${dir}/x`, "--operations", "a,,b").code).toBe(2);
  });
});
