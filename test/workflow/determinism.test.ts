/**
 * Deterministic output across processes, time zones and locales, and a minimal diff when only the
 * target namespace changes.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { generateFiles } from "../../src/generate.js";
import { WSDL_PATH } from "../support/captures.js";
import { tempDir } from "../support/tmp.js";

const BIN = fileURLToPath(new URL("../../bin/wsdl-tsgen.js", import.meta.url));

function generateIn(dir: string, env: Record<string, string>): Record<string, Buffer> {
  mkdirSync(dir, { recursive: true });
  copyFileSync(WSDL_PATH, `${dir}/api.wsdl`);
  const r = spawnSync(process.execPath, [BIN, "generate", "api.wsdl", "--out", "out"], {
    cwd: dir,
    env: { ...process.env, ...env },
  });
  expect(r.status).toBe(0);
  return Object.fromEntries(
    readdirSync(`${dir}/out`)
      .sort()
      .map((f) => [f, readFileSync(`${dir}/out/${f}`)]),
  );
}

describe("determinism", () => {
  it("two processes with different TZ and LANG give identical bytes", () => {
    const root = tempDir();
    const a = generateIn(`${root}/a`, {
      TZ: "Pacific/Kiritimati",
      LANG: "de_DE.UTF-8",
      LC_ALL: "de_DE.UTF-8",
    });
    const b = generateIn(`${root}/b`, { TZ: "America/Los_Angeles", LANG: "C", LC_ALL: "C" });
    expect(Object.keys(a)).toHaveLength(7);
    expect(b).toEqual(a);
  });
});

describe("a target namespace change", () => {
  it("changes only the namespace constant, the embedded WSDL and the types' provenance", async () => {
    const dir = tempDir();
    const v1 = readFileSync(WSDL_PATH, "utf8");
    const v2 = v1.replaceAll(
      "http://api.example.com/messages/",
      "http://api.example.com/messages/2025/",
    );
    writeFileSync(`${dir}/api.wsdl`, v1);
    const a = await generateFiles(`${dir}/api.wsdl`);
    writeFileSync(`${dir}/api.wsdl`, v2);
    const b = await generateFiles(`${dir}/api.wsdl`);
    expect(b.files.map((f) => f.path)).toEqual(a.files.map((f) => f.path));
    const changed: string[] = [];
    // types.ts names each type's {namespace}: the same once the namespace is taken out, rewrapped.
    const typesOf = (files: typeof a.files, ns: string) =>
      files
        .find((f) => f.path === "types.ts")!
        .content.replaceAll(ns, "NS")
        .replace(/\s+\*?\s*/g, " ");
    expect(typesOf(b.files, "http://api.example.com/messages/2025/")).toBe(
      typesOf(a.files, "http://api.example.com/messages/"),
    );
    for (const [i, f] of a.files.entries()) {
      if (f.path === "types.ts") continue;
      const before = f.content.split("\n");
      const after = b.files[i]!.content.split("\n");
      expect(after.length, f.path).toBe(before.length);
      for (const [n, line] of before.entries())
        if (line !== after[n]) changed.push(`${f.path}: ${after[n]}`);
    }
    expect(changed).toHaveLength(2);
    expect(changed[0]).toBe(
      'descriptors.ts: export const NS = "http://api.example.com/messages/2025/";',
    );
    expect(changed[1]).toMatch(/^wsdl\.ts: +'<\?xml version/);
  });

  it("namespaceNames pins the constant's name", async () => {
    const r = await generateFiles(WSDL_PATH, {
      namespaceNames: { "http://api.example.com/messages/": "MESSAGES_NS" },
    });
    const desc = r.files.find((f) => f.path === "descriptors.ts")!.content;
    expect(desc).toContain('export const MESSAGES_NS = "http://api.example.com/messages/";');
    expect(desc).toContain("action: `${MESSAGES_NS}GetMessages`");
    expect(desc).not.toMatch(/\bNS\b/);
    const bad = await generateFiles(WSDL_PATH, { namespaceNames: { x: "not valid" } });
    expect(bad.diagnostics[0]!.code).toBe("OPTION_INVALID");
  });

  it("namespaceNames refuses a name descriptors.ts keeps for itself", async () => {
    for (const name of ["field", "t"]) {
      const r = await generateFiles(WSDL_PATH, {
        namespaceNames: { "http://api.example.com/messages/": name },
      });
      expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
        [
          "OPTION_INVALID",
          `namespaceNames: "${name}" (for http://api.example.com/messages/) is a name descriptors.ts uses itself (field, t); choose another`,
        ],
      ]);
    }
  });
});

const CORPUS = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));
const CORPUS_ROOTS = [
  "developerforce__Force.com-Toolkit-for-PHP/soapclient/partner.wsdl.xml",
  "loopbackio__strong-soap/example/wsdls/weather.wsdl",
  "tefra__xsdata/tests/fixtures/calculator/services.wsdl",
];
const haveCorpus = existsSync(CORPUS);
if (!haveCorpus) console.log(`corpus determinism test skipped: no corpus at ${CORPUS}`);

describe.skipIf(!haveCorpus)("determinism on corpus services", () => {
  it("three corpus services give identical bytes in two processes with different TZ and LANG", () => {
    const root = tempDir();
    const run = (out: string, env: Record<string, string>) => {
      for (const [i, wsdl] of CORPUS_ROOTS.entries()) {
        const r = spawnSync(
          process.execPath,
          [BIN, "generate", `${CORPUS}${wsdl}`, "--out", `${out}/${i}`, "--quiet"],
          { env: { ...process.env, ...env } },
        );
        expect(r.status, wsdl).toBe(0);
      }
      return CORPUS_ROOTS.map((_, i) =>
        Object.fromEntries(
          readdirSync(`${out}/${i}`)
            .sort()
            .map((f) => [f, readFileSync(`${out}/${i}/${f}`)]),
        ),
      );
    };
    const a = run(`${root}/a`, {
      TZ: "Asia/Kathmandu",
      LANG: "tr_TR.UTF-8",
      LC_ALL: "tr_TR.UTF-8",
    });
    const b = run(`${root}/b`, { TZ: "UTC", LANG: "C", LC_ALL: "C" });
    expect(b).toEqual(a);
  });
});
