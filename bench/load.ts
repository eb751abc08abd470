/**
 * Load for the service benchmark from wrk when it is installed (Debian's `wrk`), else autocannon.
 * On 2 cores the load tool's own CPU decides what is left for the servers: autocannon, a Node
 * process, took about a core at 7,000 req/s, wrk about a seventh of one.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import autocannon from "autocannon";
import { fail } from "./util.js";

export interface LoadRequest {
  readonly url: string;
  readonly method?: "GET" | "POST";
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface LoadResult {
  readonly requests: number;
  readonly rps: number;
  /** Milliseconds. */
  readonly p50: number;
  readonly p99: number;
  /** Error statuses, socket errors and time-outs. */
  readonly failed: number;
}

export const LOAD_TOOL: "wrk" | "autocannon" =
  spawnSync("wrk", ["--version"]).error === undefined ? "wrk" : "autocannon";

async function byAutocannon(r: LoadRequest, connections: number, seconds: number) {
  const a = await autocannon({ ...r, connections, duration: seconds });
  return {
    requests: a.requests.total,
    rps: a.requests.average,
    p50: a.latency.p50,
    p99: a.latency.p99,
    failed: a.non2xx + a.errors + a.timeouts,
  };
}

// The body is read from a file, so that no request text has to be escaped for Lua.
const script = (r: LoadRequest, bodyFile: string): string => `
wrk.method = ${JSON.stringify(r.method ?? "GET")}
${Object.entries(r.headers ?? {})
  .map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
  .join("\n")}
local f = io.open(${JSON.stringify(bodyFile)}, "rb")
wrk.body = f:read("*a")
f:close()
function done(s, latency)
  local e = s.errors
  io.write(string.format('\\nRESULT {"requests":%d,"us":%d,"failed":%d,"p50":%d,"p99":%d}\\n',
    s.requests, s.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;

function byWrk(r: LoadRequest, connections: number, seconds: number): Promise<LoadResult> {
  for (const [k, v] of Object.entries(r.headers ?? {}))
    if (!/^[\x20-\x7e]*$/.test(k + v)) fail(`header ${k} is not printable ASCII`);
  const dir = mkdtempSync(path.join(tmpdir(), "wsdl-tsgen-wrk-"));
  writeFileSync(path.join(dir, "body"), r.body ?? "");
  writeFileSync(path.join(dir, "load.lua"), script(r, path.join(dir, "body")));
  const args = [
    "-t1",
    `-c${connections}`,
    `-d${seconds}s`,
    "-s",
    path.join(dir, "load.lua"),
    r.url,
  ];
  const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    const clean = () => rmSync(dir, { recursive: true, force: true });
    child.on("error", (e) => {
      clean();
      reject(e);
    });
    child.on("close", (code) => {
      clean();
      const line = /^RESULT (.*)$/m.exec(out);
      if (code !== 0 || !line) return reject(new Error(`wrk exited with ${code}: ${out.trim()}`));
      const j = JSON.parse(line[1]!) as Record<
        "requests" | "us" | "failed" | "p50" | "p99",
        number
      >;
      const rps = j.requests / (j.us / 1e6);
      resolve({
        requests: j.requests,
        rps,
        p50: j.p50 / 1000,
        p99: j.p99 / 1000,
        failed: j.failed,
      });
    });
  });
}

/** Sends `r` over `connections` connections for `seconds` seconds with the load tool. */
export function drive(r: LoadRequest, connections: number, seconds: number): Promise<LoadResult> {
  return LOAD_TOOL === "wrk"
    ? byWrk(r, connections, seconds)
    : byAutocannon(r, connections, seconds);
}
