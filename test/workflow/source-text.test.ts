/**
 * The options that keep the input's text out of generated code. `embedWsdl: false` (CLI
 * `--no-embed-wsdl`): no wsdl.ts, and the handler serves `?WSDL` only when given the text in its
 * `wsdl` option; otherwise 404 with a message that says how to fix it. `docs: false` (`--no-docs`):
 * no documentation copied into comments.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FeaturesDesc } from "../../generated-samples/xsd-features/descriptors.js";
import { createServiceHandler } from "../../runtime/src/index.js";
import { generateFiles } from "../../src/generate.js";
import { WSDL_PATH } from "../support/captures.js";
import { listen, type Loopback } from "../support/loopback.js";
import { tempDir } from "../support/tmp.js";

const FEATURES = fileURLToPath(
  new URL("../../fixtures/xsd-features/features.wsdl", import.meta.url),
);
const BIN = fileURLToPath(new URL("../../bin/wsdl-tsgen.js", import.meta.url));
const run = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    cwd,
    env: { ...process.env, NO_COLOR: "1" },
  });

describe("embedWsdl: false", () => {
  it("generates no wsdl.ts and a server that passes no WSDL text", async () => {
    const on = await generateFiles(FEATURES);
    const off = await generateFiles(FEATURES, { embedWsdl: false });
    expect(on.files.map((f) => f.path)).toContain("wsdl.ts");
    expect(off.files.map((f) => f.path)).toEqual(
      on.files.map((f) => f.path).filter((p) => p !== "wsdl.ts"),
    );
    const server = off.files.find((f) => f.path === "server.ts")!.content;
    expect(server).not.toContain("./wsdl.js");
    expect(server).toMatch(
      /createServiceHandler<[^>]*>\(\{\s*service: FeaturesDesc,\s*impl,\s*options,?\s*\}\)/,
    );
    expect(server).not.toMatch(/\bundefined\b/);
    expect(server).toContain("`?WSDL` when `options.wsdl` holds the WSDL text");
    // Every other file is the same as with embedding.
    for (const f of off.files.filter((x) => x.path !== "server.ts"))
      expect(f.content).toBe(on.files.find((x) => x.path === f.path)!.content);
  });

  it("--no-embed-wsdl and the config file's embedWsdl both leave wsdl.ts out; a stale one is removed", () => {
    const dir = tempDir();
    expect(run(dir, "generate", WSDL_PATH, "--out", "gen", "--quiet").status).toBe(0);
    expect(existsSync(`${dir}/gen/wsdl.ts`)).toBe(true);
    expect(
      run(dir, "generate", WSDL_PATH, "--out", "gen", "--quiet", "--no-embed-wsdl").status,
    ).toBe(0);
    expect(existsSync(`${dir}/gen/wsdl.ts`)).toBe(false);
    writeFileSync(
      `${dir}/wsdl-tsgen.config.json`,
      JSON.stringify({ sources: [{ wsdl: WSDL_PATH, out: "cfg", embedWsdl: false }] }),
    );
    expect(run(dir, "generate", "--quiet").status).toBe(0);
    expect(existsSync(`${dir}/cfg/wsdl.ts`)).toBe(false);
    expect(readFileSync(`${dir}/cfg/server.ts`, "utf8")).toMatch(
      /createServiceHandler<[^>]*>\(\{\s*service: ApiDesc,\s*impl,\s*options,?\s*\}\)/,
    );
    writeFileSync(
      `${dir}/wsdl-tsgen.config.json`,
      JSON.stringify({ sources: [{ wsdl: WSDL_PATH, out: "cfg", embedWsdl: "no" }] }),
    );
    expect(run(dir, "generate").stderr).toContain("sources[0].embedWsdl must be a boolean");
  });
});

describe("docs: false", () => {
  it("leaves the WSDL's documentation out of the comments and changes nothing else", async () => {
    const on = await generateFiles(WSDL_PATH);
    const off = await generateFiles(WSDL_PATH, { docs: false });
    const text = (r: typeof on) =>
      r.files
        .filter((f) => f.path !== "wsdl.ts")
        .map((f) => f.content)
        .join("\n");
    const documented = [
      ...readFileSync(WSDL_PATH, "utf8").matchAll(/documentation[^>]*>([^<]{12,})</g),
    ].map((m) => m[1]!.trim());
    expect(documented.length).toBeGreaterThan(0);
    expect(documented.some((d) => text(on).includes(d))).toBe(true);
    for (const d of documented) expect(text(off)).not.toContain(d);
    // Without their comments (and blank lines, which Prettier places around comments), the files are the same.
    const strip = (s: string) => s.replace(/\/\*\*[^]*?\*\//g, "").replace(/\n\s*\n/g, "\n");
    for (const f of off.files)
      expect(strip(f.content)).toBe(strip(on.files.find((x) => x.path === f.path)!.content));
    const dir = tempDir();
    expect(run(dir, "generate", WSDL_PATH, "--out", "gen", "--quiet", "--no-docs").status).toBe(0);
    const body = (t: string) => t.slice(t.indexOf("\n")); // the header names the source relative to the working directory
    expect(body(readFileSync(`${dir}/gen/client.ts`, "utf8"))).toBe(
      body(off.files.find((f) => f.path === "client.ts")!.content),
    );
  });
});

describe("a handler without embedded WSDL", () => {
  let bare: Loopback;
  let given: Loopback;
  const impl = { order: () => ({ Total: 1n }) };
  beforeAll(async () => {
    bare = await listen(createServiceHandler({ service: FeaturesDesc, impl }));
    given = await listen(
      createServiceHandler({
        service: FeaturesDesc,
        impl,
        options: {
          wsdl: '<definitions><port location="http://localhost:8080/features"/></definitions>',
        },
      }),
    );
  });
  afterAll(async () => {
    await bare.close();
    await given.close();
  });

  it("answers ?WSDL with 404 and says how to serve it; the help page has no WSDL link", async () => {
    const r = await fetch(`${bare.url}/features?wsdl`);
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await r.text()).toContain("pass its text in the handler's `wsdl` option");
    const help = await (await fetch(`${bare.url}/features`)).text();
    expect(help).toContain(`?op=Order">Order</a>`);
    expect(help).not.toContain("?WSDL");
  });

  it("serves the text given in options.wsdl, with addresses rewritten", async () => {
    const r = await fetch(`${given.url}/features?WSDL`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe(
      `<definitions><port location="${given.url}/features"/></definitions>`,
    );
    expect(await (await fetch(`${given.url}/features`)).text()).toContain("?WSDL");
  });
});
