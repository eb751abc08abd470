/**
 * Our server against the template server (server-worker.ts), both running at once in their own
 * processes and measured in alternate autocannon windows, so that a shared machine's load falls on
 * both alike: CPU per request, system time and minor page faults per request, and their ratio.
 *   TSX_TSCONFIG_PATH=bench/tsconfig.dist.json \
 *     npx tsx bench/server-ab.ts [soap11,soap12,get,post] [rounds]
 */
import autocannon from "autocannon";
import { BINDINGS, bindingRequest, type Binding } from "./data.js";
import { measuredWindow } from "./measured.js";
import type { ServerReady } from "./protocol.js";
import { fmt, Worker } from "./util.js";

const bindings = (process.argv[2]?.split(",") ?? BINDINGS) as Binding[];
const rounds = Number(process.argv[3] ?? 4);
const KINDS = ["ours", "template"] as const;

interface Totals {
  cpu: number;
  sys: number;
  faults: number;
  requests: number;
}

for (const binding of bindings) {
  const workers = KINDS.map((k) => new Worker("bench/server-worker.ts", [k, binding]));
  try {
    const ports = await Promise.all(workers.map((w) => w.next<ServerReady>()));
    const reqs = ports.map((p) => ({
      ...bindingRequest(binding, `http://127.0.0.1:${p.port}/api.asmx`),
      connections: 10,
    }));
    for (const r of reqs) await autocannon({ ...r, duration: 2 });
    const totals: Totals[] = KINDS.map(() => ({ cpu: 0, sys: 0, faults: 0, requests: 0 }));
    for (let round = 0; round < rounds; round++) {
      for (const i of round % 2 ? [1, 0] : [0, 1]) {
        const label = `${binding} ${KINDS[i]} round ${round + 1}`;
        const { usage: u } = await measuredWindow(
          workers[i]!,
          { ...reqs[i]!, duration: 1.5 },
          label,
        );
        const t = totals[i]!;
        t.cpu += u.cpuMicros;
        t.sys += u.systemMicros;
        t.faults += u.minorFaults;
        t.requests += u.requests;
      }
    }
    const per = (t: Totals) =>
      `${fmt(t.cpu / t.requests, 0)} µs (system ${fmt(t.sys / t.requests, 0)} µs, ${fmt(t.faults / t.requests, 1)} page faults)`;
    const [o, t] = totals as [Totals, Totals];
    console.log(
      `${binding}: ours ${per(o)}, template ${per(t)}; ours / template = ${fmt(o.cpu / o.requests / (t.cpu / t.requests), 3)}`,
    );
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
}
