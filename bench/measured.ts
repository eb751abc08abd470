/**
 * One measured window against a server worker: "begin", an autocannon run, "end". The run must have
 * no failed request and the server must count about as many requests as autocannon sent, so that
 * fast error replies never pass for cheap successful ones in a per-request figure.
 */
import autocannon, { type Options, type Result } from "autocannon";
import type { ServerUsage } from "./protocol.js";
import { fail, type Worker } from "./util.js";

export async function measuredWindow(
  w: Worker,
  req: Options,
  label: string,
): Promise<{ result: Result; usage: ServerUsage }> {
  w.send("begin");
  await w.next<string>();
  const r = await autocannon(req);
  w.send("end");
  const usage = await w.next<ServerUsage>();
  if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0)
    fail(`${label}: ${r.non2xx} non-2xx responses, ${r.errors} errors, ${r.timeouts} time-outs`);
  const slack = 2 * (req.connections ?? 10);
  if (usage.requests === 0 || Math.abs(usage.requests - r.requests.total) > slack)
    fail(`${label}: the server counted ${usage.requests} requests, autocannon ${r.requests.total}`);
  return { result: r, usage };
}
