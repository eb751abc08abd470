/** The config file, `init`, and CLI flags overriding the file; unknown keys are rejected with a hint. */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { validateConfig, ConfigError } from "../../src/config/config.js";
import { configJsonSchema, OPTIONS, SOURCE_KEYS } from "../../src/config/options.js";
import { WSDL_PATH } from "../support/captures.js";
import { tempDir } from "../support/tmp.js";

const BIN = fileURLToPath(new URL("../../bin/wsdl-tsgen.js", import.meta.url));
const run = (cwd: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    cwd,
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe("the options definition", () => {
  it("yields the config schema, which is shipped and fresh", () => {
    const schema = configJsonSchema() as {
      properties: { sources: { items: { properties: Record<string, unknown> } } };
    };
    expect(Object.keys(schema.properties.sources.items.properties)).toEqual(SOURCE_KEYS);
    expect(SOURCE_KEYS).toEqual([
      "wsdl",
      "out",
      "runtimeImport",
      "namespaceNames",
      "headers",
      "auth",
      "user",
      "domain",
      "proxy",
      "ca",
      "cert",
      "key",
      "embedWsdl",
      "docs",
      "format",
      "enumConstants",
      "operations",
      "strict",
    ]);
    expect(OPTIONS.embedWsdl.default).toBe(true);
    expect(
      readFileSync(fileURLToPath(new URL("../../config.schema.json", import.meta.url)), "utf8"),
    ).toBe(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
    expect(OPTIONS.runtimeImport.default).toBe("@wsdl-tsgen/runtime");
  });

  it("rejects unknown keys with the nearest valid name", () => {
    expect(() =>
      validateConfig({ sources: [{ wsdl: "a", out: "b", runtimeImprot: "x" }] }, "c.json"),
    ).toThrow('c.json: sources[0]: unknown option "runtimeImprot"; did you mean "runtimeImport"?');
    expect(() => validateConfig({ source: [] }, "c.json")).toThrow(
      'unknown key "source"; did you mean "sources"?',
    );
    expect(() => validateConfig({ sources: [{ wsdl: "a", out: 3 }] }, "c.json")).toThrow(
      ConfigError,
    );
    expect(() =>
      validateConfig({ sources: [{ wsdl: "a", out: "b", namespaceNames: { u: 1 } }] }, "c.json"),
    ).toThrow("must be an object of strings");
    expect(
      validateConfig({ sources: [{ wsdl: "a.wsdl", out: "gen" }] }, "/p/c.json").sources[0],
    ).toEqual({ wsdl: "/p/a.wsdl", out: "/p/gen" });
  });

  it("reads a scaffolded project's scaffold settings, and refuses others", () => {
    const sources = [{ wsdl: "a", out: "b" }];
    expect(
      validateConfig({ sources, scaffold: { mock: true, templates: "t" } }, "c.json").scaffold,
    ).toEqual({ mock: true, templates: "t" });
    expect(() => validateConfig({ sources, scaffold: { mocks: true } }, "c.json")).toThrow(
      'c.json: scaffold: unknown key "mocks"; did you mean "mock"?',
    );
    expect(() => validateConfig({ sources, scaffold: { mock: "yes" } }, "c.json")).toThrow(
      "c.json: scaffold.mock must be a boolean",
    );
    expect(() => validateConfig({ sources, scaffold: [] }, "c.json")).toThrow(
      '"scaffold" must be an object',
    );
  });
});

describe("wsdl-tsgen with a config file", () => {
  it("init writes a starter file, generate uses it, flags override it, --check reports it", () => {
    const dir = tempDir();
    expect(run(dir, "init").code).toBe(0);
    expect(JSON.parse(readFileSync(`${dir}/wsdl-tsgen.config.json`, "utf8"))).toMatchObject({
      sources: [{ wsdl: "./service.wsdl" }],
    });
    expect(run(dir, "init").code).toBe(2);
    writeFileSync(
      `${dir}/wsdl-tsgen.config.json`,
      JSON.stringify({ sources: [{ wsdl: WSDL_PATH, out: "gen", runtimeImport: "my-runtime" }] }),
    );
    const r = run(dir, "generate");
    expect(r.code).toBe(0);
    expect(readFileSync(`${dir}/gen/client.ts`, "utf8")).toContain('from "my-runtime"');
    expect(run(dir, "generate", "--runtime-import", "other-runtime").code).toBe(0);
    expect(readFileSync(`${dir}/gen/client.ts`, "utf8")).toContain('from "other-runtime"');
    const stale = run(dir, "generate", "--check");
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("Run: wsdl-tsgen generate");
    expect(run(dir, "generate", "--check", "--runtime-import", "other-runtime").code).toBe(0);
  });

  it("a bad config file exits 2 (a usage error) with the reason", () => {
    const dir = tempDir();
    writeFileSync(
      `${dir}/wsdl-tsgen.config.json`,
      JSON.stringify({ sources: [{ wsdl: WSDL_PATH, out: "gen", outDir: "x" }] }),
    );
    const r = run(dir, "generate");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown option "outDir"; did you mean "out"?');
    expect(existsSync(`${dir}/gen`)).toBe(false);
  });

  it("generate without a WSDL or a config is a usage error; --quiet prints nothing on success", () => {
    const dir = tempDir();
    expect(run(dir, "generate").code).toBe(2);
    const q = run(dir, "generate", WSDL_PATH, "--out", "g", "--quiet");
    expect([q.code, q.stdout, q.stderr]).toEqual([0, "", ""]);
  });
});

describe("wsdl-tsgen inspect", () => {
  it("prints services, ports and typed signatures, or the model as JSON", () => {
    const r = run(tempDir(), "inspect", WSDL_PATH);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "port ApiHttpGet: HTTP GET, binding ApiHttpGet at http://127.0.0.1:8089/api.asmx",
    );
    expect(r.stdout).toContain(
      "GetMessagesInDateRange(email?: xs:string, password?: xs:string, startDate: xs:dateTime, endDate: xs:dateTime): ArrayOfMessages | absent",
    );
    const json = JSON.parse(run(tempDir(), "inspect", WSDL_PATH, "--json").stdout) as {
      services: { operations: { name: string }[] }[];
      types: unknown[];
    };
    expect(json.services[0]!.operations.map((o) => o.name)).toEqual([
      "GetMessages",
      "GetMessagesInDateRange",
      "DeleteMessage",
    ]);
    expect(json.types.length).toBeGreaterThan(0);
  });
});
