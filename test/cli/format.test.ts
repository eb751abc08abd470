/**
 * `--format prettier`: the user's Prettier, with the user's configuration, over the written files;
 * `--check` compares with the same setting. Without the flag, the generator's own layout.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { WSDL_PATH } from "../support/captures.js";
import { tempDir } from "../support/tmp.js";

const BIN = fileURLToPath(new URL("../../bin/wsdl-tsgen.js", import.meta.url));
const GOLDEN = fileURLToPath(new URL("../../generated-samples/message-service/", import.meta.url));
const dir = tempDir();

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", cwd: dir });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const read = (out: string) =>
  Object.fromEntries(readdirSync(out).map((f) => [f, readFileSync(`${out}/${f}`, "utf8")]));

describe("--format prettier", () => {
  it("writes a fixed point of Prettier, and --check holds it to the same setting", async () => {
    const out = `${dir}/plain/out`;
    expect(run("generate", WSDL_PATH, "--out", out, "--format", "prettier").code).toBe(0);
    const files = read(out);
    expect(Object.keys(files).sort()).toEqual(readdirSync(GOLDEN).sort());
    for (const [name, text] of Object.entries(files)) {
      const filepath = `${out}/${name}`;
      expect(await prettier.format(text, { filepath }), name).toBe(text);
    }
    // Prettier's default width is 80, ours 100: it did reformat.
    expect(run("generate", WSDL_PATH, "--out", `${dir}/plain/own`).code).toBe(0);
    expect(files["client.ts"]).not.toBe(read(`${dir}/plain/own`)["client.ts"]);
    expect(run("generate", WSDL_PATH, "--out", out, "--check", "--format", "prettier").code).toBe(
      0,
    );
    const stale = run("generate", WSDL_PATH, "--out", out, "--check");
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("changed: client.ts");
  });

  it("uses the project's Prettier configuration", () => {
    const project = `${dir}/project`;
    mkdirSync(project, { recursive: true });
    writeFileSync(
      `${project}/.prettierrc.json`,
      JSON.stringify({ singleQuote: true, semi: false }),
    );
    const r = run(
      "generate",
      WSDL_PATH,
      "--out",
      `${project}/src/generated`,
      "--format",
      "prettier",
    );
    expect(r.code).toBe(0);
    const client = readFileSync(`${project}/src/generated/client.ts`, "utf8");
    expect(client).toContain("import { ApiDesc } from './descriptors.js'\n");
    expect(client).not.toMatch(/;\n/);
  });

  it("is refused, as a usage error, for a formatter it does not know", () => {
    const r = run("generate", WSDL_PATH, "--out", `${dir}/x`, "--format", "dprint");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Allowed choices are none, prettier");
  });

  it("is read from the config file, where another value is refused", () => {
    const cfg = (format: string) =>
      JSON.stringify({ sources: [{ wsdl: WSDL_PATH, out: `${dir}/cfg`, format }] });
    writeFileSync(`${dir}/good.json`, cfg("prettier"));
    expect(run("generate", "--config", `${dir}/good.json`).code).toBe(0);
    expect(readFileSync(`${dir}/cfg/client.ts`, "utf8")).toMatch(
      /^export const ApiClient = clientClass<\s*typeof ApiDesc,\s*ApiClient,\s*ApiClientOptions,?\s*>\(\s*ApiDesc,?\s*\);?$/m,
    );
    expect(
      run("generate", "--config", `${dir}/good.json`, "--check", "--format", "prettier").code,
    ).toBe(0);
    writeFileSync(`${dir}/bad.json`, cfg("tidy"));
    const r = run("generate", "--config", `${dir}/bad.json`);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('format must be one of "none", "prettier"');
  });
});
