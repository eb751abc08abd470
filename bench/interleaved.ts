/**
 * Servers measured side by side: each in its own process, all running at once, and measured in
 * alternate autocannon windows (the order flipped every round), so that a shared machine's load
 * falls on each alike. Measured one after another, one server's run met a busier machine than the
 * other's often enough to move their ratio by a tenth.
 */
import autocannon from "autocannon";
import { bindingRequest, type Binding } from "./data.js";
import { measuredWindow } from "./measured.js";
import type { ServerKind, ServerReady } from "./protocol.js";
import { Worker } from "./util.js";

/** CPU time (user + system), system time and minor page faults over the windows, and requests. */
export interface Totals {
  cpu: number;
  sys: number;
  faults: number;
  requests: number;
  /** CPU time per request in each round's window, in µs, so that rounds can be compared. */
  rounds: number[];
}

const CONNECTIONS = 10;

/** `rounds` windows of `seconds` for each kind, after a 2 s warm-up of each. */
export async function interleaved(
  binding: Binding,
  kinds: readonly ServerKind[],
  rounds: number,
  seconds: number,
): Promise<Totals[]> {
  const workers = kinds.map((k) => new Worker("bench/server-worker.ts", [k, binding]));
  try {
    const ports = await Promise.all(workers.map((w) => w.next<ServerReady>()));
    const reqs = ports.map((p) => ({
      ...bindingRequest(binding, `http://127.0.0.1:${p.port}/api.asmx`),
      connections: CONNECTIONS,
    }));
    for (const r of reqs) await autocannon({ ...r, duration: 2 });
    const totals: Totals[] = kinds.map(() => ({
      cpu: 0,
      sys: 0,
      faults: 0,
      requests: 0,
      rounds: [],
    }));
    const order = kinds.map((_, i) => i);
    for (let round = 0; round < rounds; round++) {
      for (const i of round % 2 ? [...order].reverse() : order) {
        const label = `${binding} ${kinds[i]} round ${round + 1}`;
        const { usage: u } = await measuredWindow(
          workers[i]!,
          { ...reqs[i]!, duration: seconds },
          label,
        );
        const t = totals[i]!;
        t.cpu += u.cpuMicros;
        t.sys += u.systemMicros;
        t.faults += u.minorFaults;
        t.requests += u.requests;
        t.rounds.push(u.cpuMicros / u.requests);
      }
    }
    return totals;
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
}
