/**
 * Benchmark 2, servers: GetMessages returning 100 messages, over each binding (SOAP 1.1, SOAP 1.2,
 * HTTP GET, HTTP POST), driven by autocannon from this process against a server alone in its own
 * child process, whose CPU time (user + system) over the measured window is divided by the number
 * of requests it received. Beside ours (and node-soap, over SOAP 1.1): "bare", which answers with
 * our precomputed bytes (the cost of HTTP alone), and "template", which builds those bytes per
 * request with a hand-written template and nothing else (the least a JavaScript server building
 * this response spends; see server-template.ts). Ours and the template are then measured again
 * side by side (interleaved.ts), which judges the 1.15× target. Every figure compared is a ratio
 * against a peer measured in the same run.
 */
import autocannon from "autocannon";
import { ApiClient, type ApiPortName } from "../generated-samples/message-service/index.js";
import {
  BINDING_LABEL,
  BINDINGS,
  bindingRequest,
  messages,
  ACCOUNT,
  type Binding,
} from "./data.js";
import { SERVER_MESSAGES, SERVER_SEED, type ServerKind, type ServerReady } from "./protocol.js";
import { interleaved } from "./interleaved.js";
import { measuredWindow } from "./measured.js";
import { fail, fmt, ratio, verdict, Worker } from "./util.js";

const PORT: Record<Binding, ApiPortName> = {
  soap11: "ApiSoap",
  soap12: "ApiSoap12",
  get: "ApiHttpGet",
  post: "ApiHttpPost",
};

interface Run {
  readonly label: string;
  readonly kind: ServerKind;
  readonly style: Binding;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpuPerReq: number;
  /** The server process's CPU use over the window, in cores (1 = one core busy all the time). */
  readonly cores: number;
  readonly requests: number;
  readonly completed: number;
}

const CONNECTIONS = 10;
const CPU_TARGET_MICROS = 410;
/**
 * Issue 17: our CPU per request at most this many times the hand-written template's, on every
 * binding.
 */
const TEMPLATE_TARGET = 1.15;

/** Checks a server answers correctly before it is measured; returns the response bytes. */
async function check(kind: ServerKind, style: Binding, base: string): Promise<Buffer> {
  const list = await new ApiClient({ endpoint: base, port: PORT[style] }).getMessages({
    ...ACCOUNT,
  });
  const want = messages(SERVER_MESSAGES, SERVER_SEED);
  if (
    list?.length !== want.length ||
    list[0]?.Id !== want[0]!.Id ||
    list[list.length - 1]?.Id !== want[want.length - 1]!.Id
  ) {
    fail(
      `${kind} (${style}) answered ${list?.length} messages (first Id ${list?.[0]?.Id}), ` +
        `expected ${want.length} (first Id ${want[0]!.Id})`,
    );
  }
  for (let i = 0; i < want.length; i++) {
    const got = list[i]!;
    const w = want[i]!;
    if (
      got.DateArrived.lexical !== w.DateArrived ||
      got.MessageText !== w.MessageText ||
      got.Transcription !== w.Transcription ||
      got.Sender !== w.Sender
    ) {
      fail(
        `${kind} (${style}) message ${w.Id} differs: ` +
          `${JSON.stringify(got)} vs ${JSON.stringify(w)}`,
      );
    }
  }
  const q = bindingRequest(style, base);
  const res = await fetch(q.url, {
    method: q.method,
    headers: q.headers ?? {},
    body: q.body ?? null,
  });
  if (res.status !== 200) fail(`${kind} (${style}) answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/**
 * `rate`: a fixed load in requests per second across the connections; as fast as they go when
 * absent.
 */
async function measure(
  label: string,
  kind: ServerKind,
  style: Binding,
  seconds: number,
  bodies: Map<string, Buffer>,
  rate?: number,
): Promise<Run> {
  const w = new Worker("bench/server-worker.ts", [kind, style]);
  try {
    const { port } = await w.next<ServerReady>();
    const base = `http://127.0.0.1:${port}/api.asmx`;
    bodies.set(`${kind}/${style}`, await check(kind, style, base));
    const req = {
      ...bindingRequest(style, base),
      connections: CONNECTIONS,
      ...(rate !== undefined ? { overallRate: rate } : {}),
    };
    const warm = await autocannon({ ...req, duration: Math.min(2, seconds) });
    if (warm.non2xx > 0 || warm.errors > 0)
      fail(`${label}: warm-up got ${warm.non2xx} non-2xx responses and ${warm.errors} errors`);
    const { result: r, usage } = await measuredWindow(w, { ...req, duration: seconds }, label);
    return {
      label,
      kind,
      style,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      cpuPerReq: usage.cpuMicros / usage.requests,
      cores: usage.cpuMicros / 1000 / usage.elapsedMs,
      requests: usage.requests,
      completed: r.requests.total,
    };
  } finally {
    await w.stop();
  }
}

/**
 * Issue 17's target, judged on ours and the template measured side by side (interleaved.ts): run
 * one after the other, their ratio moved by a tenth between runs on a shared machine.
 */
async function sideBySide(seconds: number): Promise<void> {
  const rounds = seconds >= 8 ? 4 : 2;
  const window = Math.min(1.5, seconds / 4);
  console.log(
    `   side by side (both servers up, ${rounds} alternating ${window} s windows each ` +
      "after a 2 s warm-up):",
  );
  for (const style of BINDINGS) {
    const [o, t] = await interleaved(style, ["ours", "template"], rounds, window);
    const ours = o!.cpu / o!.requests;
    const template = t!.cpu / t!.requests;
    const met = verdict(ours <= TEMPLATE_TARGET * template);
    console.log(
      `   ${BINDING_LABEL[style].padEnd(9)}  CPU/req: ours ${fmt(ours, 0)} µs, ` +
        `template ${fmt(template, 0)} µs: ours / template = ${ratio(ours, template)} ` +
        `(target ≤ ${TEMPLATE_TARGET}×: ${met})`,
    );
  }
}

export async function serverBench(opts: { seconds: number }): Promise<void> {
  console.log(
    `\n2. Server: GetMessages → ${SERVER_MESSAGES} messages; autocannon, ` +
      `${CONNECTIONS} connections, ${opts.seconds} s per run after a 2 s warm-up; ` +
      "each server alone in its own process, CPU = its user+system time / requests it received",
  );
  const plan: [ServerKind, Binding][] = [];
  for (const b of BINDINGS) {
    plan.push(["ours", b]);
    if (b === "soap11") plan.push(["node-soap", b]);
    plan.push(["bare", b], ["template", b]);
  }
  const bodies = new Map<string, Buffer>();
  const runs: Run[] = [];
  for (const [kind, style] of plan) {
    const label = `${BINDING_LABEL[style].padEnd(9)} ${kind}`;
    const r = await measure(label, kind, style, opts.seconds, bodies);
    runs.push(r);
    console.log(
      `   ${label.padEnd(20)} ${fmt(r.rps, 0).padStart(6)} req/s   ` +
        `p99 ${fmt(r.p99, 0).padStart(4)} ms   ` +
        `server CPU ${fmt(r.cpuPerReq, 0).padStart(5)} µs/req   ` +
        `(server busy ${fmt(r.cores, 2)} cores; ${r.requests} requests)`,
    );
  }
  for (const style of BINDINGS) {
    const a = bodies.get(`ours/${style}`);
    for (const other of ["bare", "template"] as const) {
      const b = bodies.get(`${other}/${style}`);
      if (!a || !b || !a.equals(b))
        fail(`the ${other} server's ${style} bytes are not our server's bytes`);
    }
  }
  const get = (kind: ServerKind, style: Binding) =>
    runs.find((r) => r.kind === kind && r.style === style)!;
  const ours = get("ours", "soap11");
  const peer = get("node-soap", "soap11");
  console.log(
    `   SOAP 1.1   CPU/req: node-soap / ours = ${ratio(peer.cpuPerReq, ours.cpuPerReq)};  ` +
      `req/s: ours / node-soap = ${ratio(ours.rps, peer.rps)};  ` +
      `ours ≤ ${CPU_TARGET_MICROS} µs/req: ` +
      `${verdict(ours.cpuPerReq <= CPU_TARGET_MICROS)} (${fmt(ours.cpuPerReq, 0)})`,
  );
  for (const style of BINDINGS) {
    const o = get("ours", style);
    const b = get("bare", style);
    const t = get("template", style);
    const cpu = (x: Run, y: Run) => ratio(x.cpuPerReq, y.cpuPerReq);
    console.log(
      `   ${BINDING_LABEL[style].padEnd(9)}  CPU/req, each alone: ours / template = ` +
        `${cpu(o, t)};  ours / bare = ${cpu(o, b)};  template / bare = ${cpu(t, b)};  ` +
        `req/s: ours / template = ${ratio(o.rps, t.rps)}`,
    );
  }
  await sideBySide(opts.seconds);
  // p99 at the same load: both servers driven at half the rate ours reached (neither saturated).
  console.log(`   latency at the same load (half the rate ours reached; ${opts.seconds} s each):`);
  for (const style of ["soap11", "get"] as const) {
    const rate = Math.max(1, Math.round(get("ours", style).rps / 2));
    const at: Partial<Record<ServerKind, Run>> = {};
    for (const kind of ["ours", "bare"] as const)
      at[kind] = await measure(
        `${style} ${kind} at ${rate} req/s`,
        kind,
        style,
        opts.seconds,
        new Map(),
        rate,
      );
    const o = at.ours!;
    const b = at.bare!;
    const ms = (r: Run) => `p50 ${fmt(r.p50, 2)} ms, p99 ${fmt(r.p99, 2)} ms`;
    // An earlier issue's target, ended blocked: p99 follows CPU per request, ~5× bare's.
    console.log(
      `   ${BINDING_LABEL[style].padEnd(9)}  at ${rate} req/s: ours ${ms(o)} ` +
        `(${fmt(o.rps, 0)} req/s served); bare ${ms(b)};  p99 no worse than bare's ` +
        `(an earlier target, out of reach: docs/performance.md): ${verdict(o.p99 <= b.p99)}`,
    );
  }
  console.log(
    "   bare and template servers send byte-for-byte the bodies our server sends (checked); " +
      `every server's answer decodes to the same ${SERVER_MESSAGES} messages ` +
      "(checked with our client)",
  );
}
