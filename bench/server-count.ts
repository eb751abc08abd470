/**
 * In-process comparison of our generated handler with the hand-written template server
 * (server-worker.ts), on fake requests and responses (no sockets), for counting instructions with
 * callgrind, which a shared machine's load does not disturb (JIT and GC timing still move its
 * counts by several percent between runs), or CPU time interleaved request by request, which the
 * load disturbs alike for both.
 *   npx tsx bench/server-count.ts ours|template soap11|soap12|get|post [n] [m]
 *     n requests after 300;
 *   npx tsx bench/server-count.ts both soap11|soap12|get|post [n] [m]
 *     CPU per request, in alternate batches of 200 requests (n / 200 rounds): each round's ratio,
 *     their median and the pooled ratio;
 * with m messages in each answer (100; 1 leaves mostly the cost of handling a request). Run with
 * TSX_TSCONFIG_PATH=bench/tsconfig.dist.json to measure the built runtime, as `npm run bench` does.
 * Instructions per request: the difference of two callgrind runs with different n, e.g.
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null node --single-threaded --import tsx \
 *     bench/server-count.ts ours get 1000   (and 2000; "Collected" lines)
 */
import { createApiHandler, type ApiService } from "../generated-samples/message-service/index.js";
import { ACCOUNT, messages, type Binding } from "./data.js";
import { fakeExchange, type Listener } from "./fake-http.js";
import { SERVER_MESSAGES, SERVER_SEED } from "./protocol.js";
import { templateListener } from "./server-template.js";
import { median } from "./util.js";

/** Requests per server in one round of `both`. */
const BATCH = Number(process.env["BATCH"] ?? 200);

const [kind = "both", binding = "get", count = "3000", answered = "100"] = process.argv.slice(
  2,
) as [string, Binding, string, string];
const list = messages(SERVER_MESSAGES, SERVER_SEED).slice(0, Number(answered));
const service: ApiService = {
  getMessages: ({ email, password }) =>
    email === ACCOUNT.email && password === ACCOUNT.password ? list : [],
  getMessagesInDateRange: () => [],
  deleteMessage: () => undefined,
};
const one = fakeExchange(binding);

const ours: Listener = createApiHandler(service);
const template: Listener = templateListener(list, await one(ours));
if (!(await one(template)).body.equals((await one(ours)).body))
  throw new Error("the template does not write our bytes");

const n = Number(count);
if (kind === "both") {
  // Alternate batches of requests (BATCH in the environment, default 200), the order flipped every
  // round, so that the machine's load falls on both alike; each round's ratio is printed and their
  // median beside the pooled ratio, so that one disturbed round shows as what it is.
  const rounds = Math.max(1, Math.round(n / BATCH));
  const cpu = { ours: 0, template: 0 };
  const ratios: number[] = [];
  for (let i = 0; i < 500; i++) await one(i % 2 ? ours : template);
  for (let r = 0; r < rounds; r++) {
    const round = { ours: 0, template: 0 };
    for (const k of r % 2 ? (["ours", "template"] as const) : (["template", "ours"] as const)) {
      const listener = k === "ours" ? ours : template;
      const c = process.cpuUsage();
      for (let i = 0; i < BATCH; i++) await one(listener);
      const d = process.cpuUsage(c);
      round[k] = d.user + d.system;
      cpu[k] += round[k];
    }
    ratios.push(round.ours / round.template);
  }
  const per = (micros: number) => (micros / (rounds * BATCH)).toFixed(1);
  console.log(
    `${binding}: ours ${per(cpu.ours)} µs, template ${per(cpu.template)} µs per request; ` +
      `ours / template pooled ${(cpu.ours / cpu.template).toFixed(3)}, median of ${rounds} rounds ` +
      `${median(ratios).toFixed(3)} (rounds ${ratios.map((x) => x.toFixed(2)).join(" ")})`,
  );
} else {
  const listener = kind === "ours" ? ours : template;
  for (let i = 0; i < 300 + n; i++) await one(listener);
}
