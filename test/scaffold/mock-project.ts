/**
 * A scaffolded mock project run cheaply: `scaffold --mock` into a temporary folder, the
 * repository's node_modules linked in, and tsx told (by a tsconfig of the test's) to read
 * `@wsdl-tsgen/runtime` and `wsdl-tsgen` from their sources, so that `src/main.ts` runs as `npm
 * start` runs it, unbuilt. test/scaffold/project.test.ts installs the packed packages instead.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import { scaffold } from "../../src/scaffold/scaffold.js";
import { WSDL_PATH } from "../support/captures.js";
import { tempDir } from "../support/tmp.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const source = (p: string) => [path.join(ROOT, p)];

/** A new mock project of the Message Retrieval Service, named `name`. */
export async function mockProject(name: string): Promise<string> {
  const out = path.join(tempDir("wsdl-tsgen-mock-"), name);
  await scaffold({ wsdl: WSDL_PATH, out, mock: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(out, "node_modules"));
  const paths = {
    "@wsdl-tsgen/runtime": source("runtime/src/index.ts"),
    "@wsdl-tsgen/runtime/internal": source("runtime/src/internal.ts"),
    "wsdl-tsgen": source("src/index.ts"),
  };
  const config = { extends: "./tsconfig.json", compilerOptions: { rootDir: "/", paths } };
  writeFileSync(path.join(out, "tsconfig.sources.json"), JSON.stringify(config));
  // The same for the project's own `vitest run`.
  const alias = Object.entries(paths).map(([name, [file]]) => ({
    find: new RegExp(`^${name.replace(/[/.-]/g, "\\$&")}$`),
    replacement: file,
  }));
  const aliases = alias.map(
    (a) => `{ find: ${a.find}, replacement: ${JSON.stringify(a.replacement)} }`,
  );
  writeFileSync(
    path.join(out, "vitest.config.mjs"),
    `export default { resolve: { alias: [${aliases.join(", ")}] } };\n`,
  );
  return out;
}

const running: ChildProcess[] = [];
afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill("SIGKILL");
});

export interface StartedMock {
  /** The exit code when it ended before it listened (undefined while it runs). */
  readonly code: number | null | undefined;
  readonly stdout: string;
  readonly stderr: string;
  /** The SOAP 1.1 endpoint, once it listens. */
  readonly endpoint: string;
  /** What it printed after listening, so far. */
  output(): string;
  stop(): Promise<void>;
}

/** `tsx src/main.ts ...args --port 0` in `project`: once it listens, or once it has exited. */
export async function startMock(
  project: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<StartedMock> {
  const child = spawn(
    path.join(project, "node_modules/.bin/tsx"),
    ["src/main.ts", ...args, "--port", "0"],
    {
      cwd: project,
      env: { ...process.env, ...env, TSX_TSCONFIG_PATH: "tsconfig.sources.json" },
    },
  );
  running.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  let code: number | null | undefined;
  void exited.then((c) => (code = c));
  while (code === undefined && !/Help page: .*\n/.test(stdout))
    await new Promise((r) => setTimeout(r, 50));
  if (code === undefined) await new Promise((r) => setImmediate(r));
  const endpoint = /ApiSoap \(SOAP 1\.1\): (\S+)/.exec(stdout)?.[1] ?? "";
  return {
    code: code === undefined && endpoint ? undefined : await exited,
    stdout,
    stderr,
    endpoint,
    output: () => stdout,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** The project's own `npm test` (`vitest run`): its exit code and output. */
export function projectTest(project: string): { code: number | null; output: string } {
  const r = spawnSync(path.join(project, "node_modules/.bin/vitest"), ["run"], {
    cwd: project,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}
