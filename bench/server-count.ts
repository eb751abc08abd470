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
import { PassThrough } from "node:stream";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createApiHandler, type ApiService } from "../generated-samples/message-service/index.js";
import { ACCOUNT, bindingRequest, messages, type Binding } from "./data.js";
import { SERVER_MESSAGES, SERVER_SEED } from "./protocol.js";
import { templateListener, type Recorded } from "./server-template.js";

type Listener = (req: IncomingMessage, res: ServerResponse) => void;
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
const q = bindingRequest(binding, "http://127.0.0.1/api.asmx");
const url = new URL(q.url);
const body = q.body === undefined ? undefined : Buffer.from(q.body);
const headers: Record<string, string> = { host: "127.0.0.1" };
for (const [k, v] of Object.entries(q.headers ?? {})) headers[k.toLowerCase()] = v;
if (body) headers["content-length"] = String(body.length);

/** One request through `listener`; resolves with the response. */
function one(listener: Listener): Promise<Recorded> {
  return new Promise<Recorded>((resolve, reject) => {
    const req = Object.assign(new PassThrough(), {
      method: q.method,
      url: url.pathname + url.search,
      headers,
      socket: { remoteAddress: "127.0.0.1", localAddress: "127.0.0.1", localPort: 80 },
    });
    let status = 0;
    let sent: Record<string, string | number> = {};
    const res = {
      headersSent: false,
      writeHead(s: number, h: Record<string, string | number>) {
        status = s;
        sent = h;
        this.headersSent = true;
        return this;
      },
      end(b: Buffer) {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(sent)) headers[k.toLowerCase()] = String(v);
        if (status === 200) resolve({ status, headers, body: b });
        else reject(new Error(`status ${status}: ${b.toString()}`));
      },
      on() {},
    };
    listener(req as unknown as IncomingMessage, res as unknown as ServerResponse);
    req.end(body);
  });
}

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
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1]!;
  console.log(
    `${binding}: ours ${per(cpu.ours)} µs, template ${per(cpu.template)} µs per request; ` +
      `ours / template pooled ${(cpu.ours / cpu.template).toFixed(3)}, median of ${rounds} rounds ` +
      `${median.toFixed(3)} (rounds ${ratios.map((x) => x.toFixed(2)).join(" ")})`,
  );
} else {
  const listener = kind === "ours" ? ours : template;
  for (let i = 0; i < 300 + n; i++) await one(listener);
}
