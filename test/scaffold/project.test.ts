/**
 * A scaffolded project as a user gets it: the Message Retrieval Service's WSDL scaffolded into a
 * temporary folder, the packed packages installed there (`npm pack`, not links), then its own
 * `npm test`, `npm run build` and `npm start`, called over all four bindings by the generated
 * client. The default project answers every operation with the not-implemented fault naming it;
 * the `--mock` one answers each with its sample, which the client and zeep both decode.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { SoapFault, HttpBindingError, sampleInput, sampleOutput } from "@wsdl-tsgen/runtime";
import { ApiDesc } from "../../generated-samples/message-service/descriptors.js";
import { ApiClient, type ApiPortName } from "../../generated-samples/message-service/index.js";
import { zeepPython } from "../interop/peers.js";
import { INSTALL, npm, pack } from "../package/packed.js";
import { WSDL_PATH } from "../support/captures.js";
import { tempDir } from "../support/tmp.js";

const BIN = fileURLToPath(new URL("../../bin/wsdl-tsgen.js", import.meta.url));
const ZEEP_CALLS = fileURLToPath(new URL("./zeep_calls.py", import.meta.url));
const dir = tempDir("wsdl-tsgen-project-");
const PORTS: readonly ApiPortName[] = ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"];
const METHODS = ["getMessages", "getMessagesInDateRange", "deleteMessage"] as const;
const OPERATION = {
  getMessages: "GetMessages",
  getMessagesInDateRange: "GetMessagesInDateRange",
  deleteMessage: "DeleteMessage",
} as const;

function scaffoldInto(name: string, ...flags: string[]): string {
  const r = spawnSync(process.execPath, [BIN, "scaffold", WSDL_PATH, "--out", name, ...flags], {
    cwd: dir,
    encoding: "utf8",
  });
  expect([r.status, r.stderr]).toEqual([0, ""]);
  return path.join(dir, name);
}

/** `npm run <script>` in the project: its exit code and output. */
function npmRun(project: string, script: string) {
  const r = spawnSync("npm", ["run", script], {
    cwd: project,
    encoding: "utf8",
    env: { ...process.env, npm_config_loglevel: "error", NO_COLOR: "1" },
  });
  // Without colour codes, whatever the test runner's own environment asks.
  return { code: r.status, output: `${r.stdout}${r.stderr}`.replace(/\u001b\[[0-9;]*m/g, "") };
}

const started: ChildProcess[] = [];
afterAll(() => {
  for (const p of started) {
    try {
      process.kill(-p.pid!, "SIGKILL");
    } catch {
      // The group has ended already.
    }
  }
});

/**
 * The server started by `command` with `--port 0`, in its own process group (a terminal's Ctrl-C
 * signals the group), and the lines it prints from "Listening on" once it listens.
 */
async function start(
  project: string,
  command: readonly string[],
): Promise<{ child: ChildProcess; lines: string[] }> {
  const child = spawn(command[0]!, [...command.slice(1), "--port", "0"], {
    cwd: project,
    detached: true,
    env: { ...process.env, npm_config_loglevel: "error" },
  });
  started.push(child);
  let out = "";
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (d: string) => (out += d));
  for (let waited = 0; !/Help page: .*\n/.test(out); waited += 50) {
    if (waited > 60_000 || child.exitCode !== null) throw new Error(`npm start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const lines = out.split("\n");
  return { child, lines: lines.slice(lines.findIndex((l) => l.startsWith("Listening on "))) };
}

/** Sends `signal` to the server's process group; what it prints until it has exited. */
async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<string> {
  let out = "";
  child.stdout!.on("data", (d: string) => (out += d));
  const exited = once(child, "exit");
  process.kill(-child.pid!, signal);
  await exited;
  return out;
}

const endpointOf = (lines: string[], port: string): string => {
  const line = lines.find((l) => l.includes(` ${port} (`));
  return line!.slice(line!.lastIndexOf(" ") + 1);
};

/** Every operation over every port, through the generated client: its result, or what it threw. */
async function callAll(lines: string[]) {
  const results: { port: ApiPortName; method: (typeof METHODS)[number]; outcome: unknown }[] = [];
  for (const port of PORTS) {
    const client = new ApiClient({ endpoint: endpointOf(lines, port), port });
    for (const method of METHODS) {
      const call = client[method](sampleInput(ApiDesc, method) as never) as Promise<unknown>;
      results.push({ port, method, outcome: await call.catch((e: unknown) => e) });
    }
  }
  return results;
}

describe("a scaffolded project", () => {
  const runtime = pack(dir, "runtime");
  const generator = pack(dir);
  let project = "";

  it(
    "installs the packed packages, passes its own test, builds, and answers the not-implemented fault on all four bindings",
    { timeout: 300_000 },
    async () => {
      // Handlebars and ts-morph are the generator's, which ships its templates.
      expect(generator.files).toContain("templates/src/service.ts.hbs");
      expect(generator.files).toContain("dist/scaffold/precompiled.js");
      const manifest = (p: string) => JSON.parse(readFileSync(p, "utf8"));
      const root = fileURLToPath(new URL("../../", import.meta.url));
      expect(Object.keys(manifest(path.join(root, "package.json")).dependencies)).toEqual(
        expect.arrayContaining(["handlebars", "ts-morph"]),
      );
      expect(manifest(path.join(root, "runtime/package.json")).dependencies ?? {}).toEqual({});

      project = scaffoldInto("project");
      npm([...INSTALL, runtime.tarball, generator.tarball], project);
      const test = npmRun(project, "test");
      expect(test.code, test.output).toBe(0);
      expect(test.output).toMatch(/Tests\s+13 passed \(13\)/);
      // Once an operation is written, its stub checks step aside, saying so, rather than fail.
      const serviceFile = path.join(project, "src/service.ts");
      const stubbed = readFileSync(serviceFile, "utf8");
      const written = stubbed.replace('throw notImplemented("DeleteMessage");', "return;");
      expect(written).not.toBe(stubbed);
      writeFileSync(serviceFile, written);
      const retest = npmRun(project, "test");
      expect(retest.code, retest.output).toBe(0);
      expect(retest.output).toMatch(/Tests\s+9 passed \| 4 skipped \(13\)/);
      writeFileSync(serviceFile, stubbed);
      const build = npmRun(project, "build");
      expect(build.code, build.output).toBe(0);

      const { child, lines } = await start(project, ["npm", "start", "--"]);
      const base = lines[0]!.replace("Listening on ", "");
      expect(lines.slice(1, 7)).toEqual([
        `  Api ApiSoap (SOAP 1.1): ${base}/api.asmx`,
        `  Api ApiSoap12 (SOAP 1.2): ${base}/api.asmx`,
        `  Api ApiHttpGet (HTTP GET): ${base}/api.asmx`,
        `  Api ApiHttpPost (HTTP POST): ${base}/api.asmx`,
        `  WSDL: ${base}/api.asmx?WSDL`,
        `  Help page: ${base}/api.asmx`,
      ]);
      for (const { port, method, outcome } of await callAll(lines)) {
        const message = `The operation ${OPERATION[method]} is not implemented.`;
        if (port === "ApiSoap" || port === "ApiSoap12") {
          expect(outcome, `${port} ${method}`).toBeInstanceOf(SoapFault);
          const fault = outcome as SoapFault;
          expect([fault.code, fault.message]).toEqual([
            port === "ApiSoap" ? "soap:Server" : "soap:Receiver",
            message,
          ]);
        } else {
          expect(outcome, `${port} ${method}`).toBeInstanceOf(HttpBindingError);
          expect((outcome as HttpBindingError).status).toBe(500);
          expect((outcome as HttpBindingError).body).toContain(message);
        }
      }
      const wsdl = await fetch(`${base}/api.asmx?WSDL`);
      expect([wsdl.status, await wsdl.text()]).toEqual([200, expect.stringContaining("<wsdl:")]);
      const help = await fetch(`${base}/api.asmx`);
      expect([help.status, help.headers.get("content-type")]).toEqual([
        200,
        "text/html; charset=utf-8",
      ]);
      // As Ctrl-C in a terminal: the server says so and closes; npm itself ends by the signal.
      expect(await stop(child, "SIGINT")).toContain("SIGINT: shutting down");
      await expect(fetch(`${base}/api.asmx?WSDL`)).rejects.toThrow();
    },
  );

  it(
    "--mock: its own test passes, and each operation answers its sample, read alike by the client and zeep",
    { timeout: 300_000 },
    async () => {
      expect(project, "the project above was installed").not.toBe("");
      const mock = scaffoldInto("mock", "--mock");
      // The same packages as the project above, installed there from the packed tarballs.
      symlinkSync(path.join(project, "node_modules"), path.join(mock, "node_modules"));
      const test = npmRun(mock, "test");
      expect(test.code, test.output).toBe(0);
      expect(test.output).toMatch(/Tests\s+13 passed \(13\)/);

      // Built, and run by node alone, as in production.
      const build = npmRun(mock, "build");
      expect(build.code, build.output).toBe(0);
      const { child, lines } = await start(mock, [process.execPath, "dist/src/main.js"]);
      for (const { port, method, outcome } of await callAll(lines))
        expect(outcome, `${port} ${method}`).toEqual(sampleOutput(ApiDesc, method));
      const python = zeepPython();
      if (!python) console.warn("zeep is not installed (apt-get install python3-zeep): skipped");
      else await zeepReads(python, lines);
      expect(await stop(child, "SIGTERM")).toBe("SIGTERM: shutting down\n");
      expect(child.exitCode).toBe(0);
    },
  );
});

/** zeep, over both SOAP ports, decodes every operation's sample: the same values. */
async function zeepReads(python: string, lines: string[]): Promise<void> {
  const wsdl = `${endpointOf(lines, "ApiSoap")}?WSDL`;
  const plain = (v: unknown) =>
    JSON.parse(JSON.stringify(v, (_, x) => (typeof x === "bigint" ? String(x) : x)));
  const calls = METHODS.map((m) => [OPERATION[m], plain(sampleInput(ApiDesc, m))]);
  for (const port of ["ApiSoap", "ApiSoap12"]) {
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(python, [ZEEP_CALLS, wsdl, "Api", port, JSON.stringify(calls)], (e, out, err) =>
        e ? reject(new Error(`${e.message}\n${err}`)) : resolve(out),
      ),
    );
    const results = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(results.map((r) => r.operation)).toEqual(Object.values(OPERATION));
    for (const [i, method] of (["getMessages", "getMessagesInDateRange"] as const).entries()) {
      const expected = sampleOutput(ApiDesc, method)!.map((m) => ({
        ...m,
        // zeep gives a datetime, which Python prints with a space; the rest are the sample's.
        DateArrived: String(m!.DateArrived).replace("T", " "),
      }));
      expect(results[i].value, `${port} ${method}`).toEqual(expected);
    }
    expect(results[2]).toEqual({ operation: "DeleteMessage", value: null });
  }
}
