/**
 * `--help`, docs/cli.md and the exit codes agree (issue #32): every flag a command takes is in the
 * docs, the exit codes are stated alike in both, and each code is what the binary returns.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { WSDL_PATH } from "../support/captures.js";
import { tempDir } from "../support/tmp.js";

const BIN = fileURLToPath(new URL("../../bin/wsdl-tsgen.js", import.meta.url));
const DOCS = readFileSync(new URL("../../docs/cli.md", import.meta.url), "utf8");
const dir = tempDir();

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", cwd: dir });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The long flags a help text lists (`--out`, `--no-docs`), `--help` aside. */
const flagsOf = (help: string): string[] =>
  [...new Set([...help.matchAll(/^\s+(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!))].filter(
    (f) => f !== "--help",
  );

/** "0 ok, 1 invalid input …": each code with the words that name it, parentheses left out. */
function exitCodes(text: string): Map<string, string> {
  const plain = text.replace(/`/g, "").replace(/\s+/g, " ");
  const sentence = /Exit codes[^:]*: (.*?\.)(?: |$)/.exec(plain)?.[1] ?? "";
  const codes = new Map<string, string>();
  for (const m of sentence.matchAll(/\b([0-3]) ([a-z ]+?)(?= \(|,| or |\.)/g))
    codes.set(m[1]!, m[2]!);
  return codes;
}

describe("--help and docs/cli.md", () => {
  for (const command of ["generate", "scaffold", "inspect", "download", "init"]) {
    it(`every flag of ${command} --help is documented`, () => {
      const r = run(command, "--help");
      expect(r.code).toBe(0);
      const flags = flagsOf(r.stdout);
      expect(flags.length).toBeGreaterThan(0);
      const missing = flags.filter((f) => !DOCS.includes(f));
      expect(missing).toEqual([]);
    });
  }

  it("state the same exit codes", () => {
    const help = exitCodes(run("--help").stdout);
    expect([...help.keys()]).toEqual(["0", "1", "2", "3"]);
    expect(exitCodes(DOCS)).toEqual(help);
    for (const text of [run("--help").stdout, DOCS.replace(/`/g, "").replace(/\s+/g, " ")])
      expect(text).toContain("2 usage error (arguments or config file)");
  });
});

describe("the exit codes are what the binary returns", () => {
  it("0 ok, 1 invalid input, 2 usage error (arguments or config file)", () => {
    expect(run("inspect", WSDL_PATH).code).toBe(0);
    writeFileSync(`${dir}/broken.wsdl`, "<wsdl:definitions");
    expect(run("generate", `${dir}/broken.wsdl`, "--out", `${dir}/o`).code).toBe(1);
    expect(run("generate", WSDL_PATH, "--out", `${dir}/o`, "--nope").code).toBe(2);
    writeFileSync(`${dir}/bad.json`, JSON.stringify({ sources: [{ wsdl: WSDL_PATH }] }));
    const config = run("generate", "--config", `${dir}/bad.json`);
    expect(config.code).toBe(2);
    expect(config.stderr).toContain("out");
  });
});
