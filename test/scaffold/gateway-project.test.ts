/**
 * `wsdl-tsgen scaffold WSDL --out DIR --gateway`: a project that type-checks, whose `npm start`
 * serves the gateway in front of the example Message Retrieval Service, and which
 * `scaffold --update` keeps in step (its openapi.json rewritten from the WSDL).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { updateProject } from "../../src/scaffold/project-update.js";
import { scaffold } from "../../src/scaffold/scaffold.js";
import { startServer, type RunningServer } from "../../examples/message-service/server.js";
import { ALICE, SEED_PATH } from "../message-service/helpers.js";
import { WSDL_PATH } from "../support/captures.js";
import { tempDir } from "../support/tmp.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const dir = tempDir("wsdl-tsgen-gateway-");
const children: ChildProcess[] = [];
let backend: RunningServer | undefined;

afterAll(async () => {
  for (const c of children) if (c.pid !== undefined) process.kill(-c.pid, "SIGTERM");
  await backend?.close();
});

/** The example service, started once. */
async function backendUrl(): Promise<string> {
  const dbPath = path.join(dir, "m.db");
  backend ??= await startServer({ port: 0, host: "127.0.0.1", dbPath, seedPath: SEED_PATH });
  return backend.url;
}

/** A scaffolded gateway project with the repository's packages. */
async function project(name: string): Promise<string> {
  const out = path.join(dir, name);
  await scaffold({ wsdl: WSDL_PATH, out, gateway: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(out, "node_modules"));
  return out;
}

/** The gateway started in `project` with `args`, and its base URL once it listens. */
async function start(project: string, args: readonly string[]): Promise<string> {
  const tsx = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
  const child = spawn(process.execPath, [tsx, "src/main.ts", "--port", "0", ...args], {
    cwd: project,
    detached: true,
  });
  children.push(child);
  let out = "";
  child.stdout!.setEncoding("utf8");
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (d: string) => (out += d));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: string) => {
      out += d;
      const m = /Listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on("exit", (code) => reject(new Error(`the gateway exited ${code}: ${out}`)));
  });
}

describe("scaffold --gateway", () => {
  it(
    "writes a gateway project that type-checks and serves the backend as JSON",
    { timeout: 120_000 },
    async () => {
      const project = path.join(dir, "gw");
      const result = await scaffold({ wsdl: WSDL_PATH, out: project, gateway: true });
      expect(result.files).toContain("openapi.json");
      expect(result.files).toContain("src/main.ts");
      expect(existsSync(path.join(project, "src/service.ts"))).toBe(false);
      const config = JSON.parse(readFileSync(path.join(project, "wsdl-tsgen.config.json"), "utf8"));
      expect(config.scaffold.gateway).toBe(true);
      symlinkSync(path.join(ROOT, "node_modules"), path.join(project, "node_modules"));
      const tsc = spawnSync(
        process.execPath,
        [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", ".", "--noEmit"],
        { encoding: "utf8", cwd: project },
      );
      expect(tsc.stdout).toBe("");

      const dbPath = path.join(dir, "m.db");
      backend = await startServer({ port: 0, host: "127.0.0.1", dbPath, seedPath: SEED_PATH });
      const url = await start(project, ["--backend", backend.url]);
      const doc = await (await fetch(`${url}/openapi.json`)).json();
      expect(doc).toEqual(JSON.parse(readFileSync(path.join(project, "openapi.json"), "utf8")));
      const res = await fetch(`${url}/GetMessages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(ALICE),
      });
      expect(res.status).toBe(200);
      expect(JSON.stringify(await res.json())).toContain('"DateArrived":"2024-01-05T10:00:00"');
      expect((await fetch(`${url}/`)).status).toBe(404);
      expect((await fetch(`${url}/docs/swagger-ui-bundle.js`)).status).toBe(404);
    },
  );

  it("serves Swagger UI at / with --docs, its assets from swagger-ui-dist", async () => {
    const url = await start(await project("gw-docs"), ["--backend", await backendUrl(), "--docs"]);
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain("<title>Api</title>");
    expect(html).toContain('<script src="docs/swagger-ui-bundle.js"></script>');
    const bundle = await fetch(`${url}/docs/swagger-ui-bundle.js`);
    expect(bundle.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await bundle.text()).toContain("SwaggerUIBundle");
    expect((await fetch(`${url}/docs/nothing.js`)).status).toBe(404);
    expect((await fetch(`${url}/openapi.json`)).status).toBe(200);
  }, 120_000);

  it("is kept in step by --update: openapi.json rewritten from the WSDL", async () => {
    const project = path.join(dir, "gw-update");
    await scaffold({ wsdl: WSDL_PATH, out: project, gateway: true });
    const file = path.join(project, "openapi.json");
    const written = readFileSync(file, "utf8");
    writeFileSync(file, "{}\n");
    const check = await updateProject(project, { check: true, strict: false });
    expect(check.changes).toEqual(["openapi.json"]);
    expect(readFileSync(file, "utf8")).toBe("{}\n");
    const update = await updateProject(project, { check: false, strict: false });
    expect(update.ok).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(written);
    expect((await updateProject(project, { check: true, strict: false })).changes).toEqual([]);
  });

  it(
    "serves MCP tools over stdio (npm run mcp), as the SDK's own client sees them",
    { timeout: 120_000 },
    async () => {
      const dirOf = await project("gw-mcp");
      const tsx = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
      const args = [
        tsx,
        "src/mcp.ts",
        "--backend",
        await backendUrl(),
        "--operations",
        "GetMessages,DeleteMessage",
      ];
      const transport = new StdioClientTransport({
        command: process.execPath,
        args,
        cwd: dirOf,
        stderr: "pipe",
      });
      const client = new Client({ name: "test", version: "1.0.0" });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(["GetMessages", "DeleteMessage"]);
        expect(tools[0]!.inputSchema).toHaveProperty("$defs");
        const ok = await client.callTool({ name: "GetMessages", arguments: ALICE });
        expect(ok.isError).toBeFalsy();
        const result = (ok.structuredContent as { result: { DateArrived: string }[] }).result;
        expect(result[0]!.DateArrived).toBe("2024-01-05T10:00:00");
        const text = (ok.content as { type: string; text: string }[])[0]!.text;
        expect(JSON.parse(text)).toEqual(result);
        const fault = await client.callTool({
          name: "GetMessages",
          arguments: { email: ALICE.email, password: "wrong" },
        });
        expect(fault.isError).toBe(true);
        expect((fault.structuredContent as { faultcode: string }).faultcode).toMatch(/Client$/);
        const bad = await client.callTool({ name: "DeleteMessage", arguments: { MessageId: "x" } });
        expect(bad.isError).toBe(true);
        expect((bad.structuredContent as { pointer: string }).pointer).toBe("/MessageId");
      } finally {
        await client.close();
      }
    },
  );
});
