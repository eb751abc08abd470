/**
 * Our server against the template server (server-worker.ts), measured side by side
 * (interleaved.ts): CPU per request, system time and minor page faults per request, and their
 * ratio.
 *   TSX_TSCONFIG_PATH=bench/tsconfig.dist.json \
 *     npx tsx bench/server-ab.ts [soap11,soap12,get,post] [rounds]
 */
import { BINDINGS, type Binding } from "./data.js";
import { interleaved, type Totals } from "./interleaved.js";
import { fmt } from "./util.js";

const bindings = (process.argv[2]?.split(",") ?? BINDINGS) as Binding[];
const rounds = Number(process.argv[3] ?? 4);

for (const binding of bindings) {
  const [o, t] = (await interleaved(binding, ["ours", "template"], rounds, 1.5)) as [
    Totals,
    Totals,
  ];
  const per = (x: Totals, n = x.requests) =>
    `${fmt(x.cpu / n, 0)} µs (system ${fmt(x.sys / n, 0)} µs, ` +
    `${fmt(x.faults / n, 1)} page faults)`;
  const cpuRatio = o.cpu / o.requests / (t.cpu / t.requests);
  console.log(
    `${binding}: ours ${per(o)}, template ${per(t)}; ours / template = ${fmt(cpuRatio, 3)}`,
  );
}
