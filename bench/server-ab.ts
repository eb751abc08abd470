/**
 * Our server against the template server (server-worker.ts), measured side by side
 * (interleaved.ts): CPU per request, system time and minor page faults per request, and their
 * ratio: pooled over the rounds, each round's (ours' window against the template's window next to
 * it) and the median of the rounds, which one disturbed window moves less than the pooled figure.
 *   TSX_TSCONFIG_PATH=bench/tsconfig.dist.json \
 *     npx tsx bench/server-ab.ts [soap11,soap12,get,post] [rounds] [seconds per window]
 */
import { BINDINGS, type Binding } from "./data.js";
import { interleaved, type Totals } from "./interleaved.js";
import { fmt, median } from "./util.js";

const bindings = (process.argv[2]?.split(",") ?? BINDINGS) as Binding[];
const rounds = Number(process.argv[3] ?? 8);
const seconds = Number(process.argv[4] ?? 1.5);

for (const binding of bindings) {
  const [o, t] = (await interleaved(binding, ["ours", "template"], rounds, seconds)) as [
    Totals,
    Totals,
  ];
  const per = (x: Totals, n = x.requests) =>
    `${fmt(x.cpu / n, 0)} µs (system ${fmt(x.sys / n, 0)} µs, ` +
    `${fmt(x.faults / n, 1)} page faults)`;
  const cpuRatio = o.cpu / o.requests / (t.cpu / t.requests);
  const each = o.rounds.map((x, i) => x / t.rounds[i]!);
  console.log(
    `${binding}: ours ${per(o)}, template ${per(t)}; ours / template = ${fmt(cpuRatio, 3)} ` +
      `pooled, ${fmt(median(each), 3)} median of ${each.length} rounds ` +
      `(${each.map((x) => fmt(x, 2)).join(" ")})`,
  );
}
