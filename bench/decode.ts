/**
 * Benchmark 1, client decode: a SOAP 1.1 GetMessagesResponse of 10,000 messages served as the same
 * bytes by a loopback server (its own process); end-to-end GetMessages with our generated client,
 * with node-soap's client, and fetching the bytes alone. Time: one process, interleaved, gc before
 * every call, median of `rounds` calls after a warm-up; then steady state, each client's `rounds`
 * calls back to back with no forced gc (a full gc shrinks the young generation, so the call after
 * it pays for growing it again). Memory: each client alone in its own process, after its first call
 * (as a short-lived script makes it) and after REPEATED_CALLS (as an application calling a
 * service).
 */
import { createHash } from "node:crypto";
import { CLIENT_KINDS, type ClientKind } from "./clients.js";
import { messages, soapResponse } from "./data.js";
import {
  REPEATED_CALLS,
  WARM_UP,
  type BytesServerReady,
  type MemReport,
  type TimeReport,
  type WireKind,
  type WireReport,
} from "./protocol.js";
import { fail, fmt, median, mib, ratio, verdict, Worker } from "./util.js";

const COUNT = 10_000;

export async function decodeBench(opts: { rounds: number }): Promise<void> {
  const expected = Buffer.from(soapResponse(messages(COUNT)), "utf8");
  const server = new Worker("bench/bytes-server.ts", [String(COUNT)]);
  try {
    const ready = await server.next<BytesServerReady>();
    const sha = createHash("sha256").update(expected).digest("hex");
    if (ready.bytes !== expected.length || ready.sha256 !== sha)
      fail(
        `the bytes server serves ${ready.bytes} bytes (${ready.sha256}), expected ${expected.length} (${sha})`,
      );
    const url = `http://127.0.0.1:${ready.port}/api.asmx`;
    console.log(
      `\n1. Client decode: GetMessages → ${COUNT.toLocaleString("en")} messages, SOAP 1.1, ${fmt(mib(expected.length), 2)} MiB from a loopback server (own process)`,
    );

    // Time: all three interleaved in one process.
    const timer = new Worker("bench/decode-worker.ts", [
      "time",
      url,
      String(opts.rounds),
      String(COUNT),
    ]);
    const t = await timer.next<TimeReport>(150_000);
    await timer.stop();

    // Agreement: ours must reproduce the source exactly; node-soap must agree on count and
    // first/last Id.
    const s = t.summaries;
    const ours = s.ours;
    const peer = s["node-soap"];
    if (
      ours.count !== COUNT ||
      peer.count !== ours.count ||
      peer.firstId !== ours.firstId ||
      peer.lastId !== ours.lastId
    ) {
      fail(
        `the clients disagree: ours ${JSON.stringify(ours)}, node-soap ${JSON.stringify(peer)}, expected ${COUNT} messages`,
      );
    }
    if (s.fetch.count !== expected.length)
      fail(`fetch received ${s.fetch.count} bytes, expected ${expected.length}`);
    if (t.mismatches.ours.length > 0)
      fail(
        `our client decoded values that differ from the source: ${JSON.stringify(t.mismatches.ours)}`,
      );

    // Memory: each client alone in its own process (sequentially, so they do not compete).
    const mem = {} as Record<ClientKind, MemReport>;
    for (const k of CLIENT_KINDS) {
      const w = new Worker("bench/decode-worker.ts", ["mem", k, url, String(COUNT)]);
      mem[k] = await w.next<MemReport>();
      await w.stop();
      if (
        k !== "fetch" &&
        (mem[k].summary.count !== COUNT || mem[k].summary.lastId !== ours.lastId)
      )
        fail(`${k} (memory run) got ${JSON.stringify(mem[k].summary)}`);
    }

    const tm = (k: ClientKind) => median(t.times[k]);
    const row = (label: string, k: ClientKind) => {
      const m = mem[k];
      const times = t.times[k].map((x) => fmt(x, 0)).join(" ");
      console.log(
        `   ${label.padEnd(11)} ${fmt(tm(k)).padStart(6)} ms [${times}]   peak RSS ${fmt(mib(m.maxRssBytes)).padStart(5)} MiB, ${fmt(mib(m.maxRssBytes - m.rssBeforeBytes)).padStart(4)} MiB above the RSS before the call; result retains ${fmt(mib(m.retainedHeapBytes)).padStart(4)} MiB; peak RSS after ${REPEATED_CALLS} calls ${fmt(mib(m.repeatedMaxRssBytes)).padStart(5)} MiB`,
      );
    };
    console.log(
      `   median of ${opts.rounds} calls each after ${WARM_UP} untimed ones, interleaved in one process; memory: each client in its own process`,
    );
    row("ours", "ours");
    row("node-soap", "node-soap");
    row("bytes only", "fetch");
    const speed = tm("node-soap") / tm("ours");
    const growth = (k: ClientKind) => mem[k].maxRssBytes - mem[k].rssBeforeBytes;
    console.log(
      `   time      node-soap / ours = ${ratio(tm("node-soap"), tm("ours"))}   (target ≥ 5×: ${verdict(speed >= 5)})`,
    );
    const st = (k: ClientKind) => median(t.steady[k]);
    const steadyTimes = (k: ClientKind) => t.steady[k].map((x) => fmt(x, 0)).join(" ");
    console.log(
      `             steady state (each client alone, ${opts.rounds} back-to-back calls, no forced gc): ours ${fmt(st("ours"))} ms [${steadyTimes("ours")}], node-soap ${fmt(st("node-soap"))} ms [${steadyTimes("node-soap")}], bytes only ${fmt(st("fetch"))} ms`,
    );
    console.log(
      `             steady state node-soap / ours = ${ratio(st("node-soap"), st("ours"))}   (target ≥ 5×: ${verdict(st("node-soap") / st("ours") >= 5)})`,
    );
    console.log(
      `             ours / bytes only = ${ratio(tm("ours"), tm("fetch"))};  node-soap / bytes only = ${ratio(tm("node-soap"), tm("fetch"))}`,
    );
    console.log(
      `             beyond the transfer ((x − bytes only) per client): node-soap / ours = ${ratio(tm("node-soap") - tm("fetch"), tm("ours") - tm("fetch"))}`,
    );
    console.log(
      `   memory    node-soap / ours: peak RSS ${ratio(mem["node-soap"].maxRssBytes, mem.ours.maxRssBytes)}, RSS growth during the call ${ratio(growth("node-soap"), growth("ours"))}, retained result ${ratio(mem["node-soap"].retainedHeapBytes, mem.ours.retainedHeapBytes)}; peak RSS over ${REPEATED_CALLS} calls ${ratio(mem["node-soap"].repeatedMaxRssBytes, mem.ours.repeatedMaxRssBytes)}`,
    );
    // Peak RSS moves by a few MiB from run to run: within 5% is no difference either way.
    const lower = (k: "maxRssBytes" | "repeatedMaxRssBytes") => {
      const r = mem.ours[k] / mem["node-soap"][k];
      return r < 0.95 ? "met" : r <= 1.05 ? "NOT met (the same, within 5%)" : "NOT met";
    };
    console.log(
      `             target: lower peak memory than node-soap: after one call ${lower("maxRssBytes")}; over ${REPEATED_CALLS} calls ${lower("repeatedMaxRssBytes")}`,
    );
    console.log(
      `   agreement ${COUNT} messages, first Id ${ours.firstId}, last Id ${ours.lastId} in both; ours matches the source data field for field`,
    );
    const nm = t.mismatches["node-soap"];
    if (nm.length === 0)
      console.log(`             node-soap also matches the source data field for field`);
    for (const m of nm)
      console.log(
        `             node-soap differs from the source in ${m.count} ${m.field} value${m.count === 1 ? "" : "s"}, e.g. ${m.example}`,
      );
    await wireRatio(url, opts.rounds, expected.length);
    await slowerLink(opts.rounds, expected.length);
  } finally {
    await server.stop();
  }
}

/**
 * Issue 47's figure: each way of decoding ÷ `fetch` + `res.text()` alone, interleaved in one
 * process (decode-wire.ts), the body decoded as it arrives (our client) and after it has all come.
 */
async function wireRatio(url: string, rounds: number, bytes: number): Promise<void> {
  const w = new Worker("bench/decode-wire.ts", [url, String(Math.max(rounds, 9))]);
  const r = await w.next<WireReport>(300_000);
  await w.stop();
  const c = r.counts;
  if (c.chunked !== COUNT || c.whole !== COUNT || c["node-soap"] !== COUNT || c.fetch <= 0)
    fail(
      `the decode ÷ fetch run got ${JSON.stringify(c)} (expected ${COUNT} messages, ${bytes} bytes)`,
    );
  const tm = (k: WireKind) => median(r.times[k]);
  const of = (k: WireKind) => `${ratio(tm(k), tm("fetch"))} (${fmt(tm(k))} ms)`;
  const cpu = (k: WireKind) => median(r.cpu[k]);
  const cpuOf = (k: WireKind) => `${ratio(cpu(k), cpu("fetch"))} (${fmt(cpu(k))} ms)`;
  console.log(
    `   decode ÷ fetch alone (fetch + res.text(): ${fmt(tm("fetch"))} ms; median of ${r.times.fetch.length}, interleaved, gc before each): chunked (our client) ${of("chunked")}, whole (arrayBuffer, then decodeEnvelope) ${of("whole")}; node-soap ${of("node-soap")}   (target ≤ 1.5×: ${verdict(tm("chunked") <= 1.5 * tm("fetch") && tm("whole") <= 1.5 * tm("fetch"))})`,
  );
  console.log(
    `             in CPU time of the calling process (the server's not counted; steadier on a loaded host): fetch + res.text() ${fmt(cpu("fetch"))} ms; chunked ${cpuOf("chunked")}, whole ${cpuOf("whole")}; node-soap ${cpuOf("node-soap")}`,
  );
}

/** The link speed of the second measurement, in megabits per second. */
const LINK_MBITS = 200;

/**
 * The same calls over a slower link than loopback: the body paced at LINK_MBITS. Our client decodes
 * the body as it arrives (in pieces of 1 MiB: see runtime/src/xml/pieces.ts), so most of its
 * decoding is done by the time the last byte comes; what each client adds after the transfer is its
 * time minus the bytes-only time.
 */
async function slowerLink(rounds: number, bytes: number): Promise<void> {
  const server = new Worker("bench/bytes-server.ts", [String(COUNT), String(LINK_MBITS)]);
  try {
    const ready = await server.next<BytesServerReady>();
    if (ready.bytes !== bytes)
      fail(`the paced bytes server serves ${ready.bytes} bytes, expected ${bytes}`);
    const timer = new Worker("bench/decode-worker.ts", [
      "time",
      `http://127.0.0.1:${ready.port}/api.asmx`,
      String(rounds),
      String(COUNT),
    ]);
    const t = await timer.next<TimeReport>(300_000);
    await timer.stop();
    if (
      t.summaries.ours.count !== COUNT ||
      t.summaries["node-soap"].count !== COUNT ||
      t.mismatches.ours.length > 0
    )
      fail(`over the paced link the clients got ${JSON.stringify(t.summaries)}`);
    const tm = (k: ClientKind) => median(t.times[k]);
    const after = (k: ClientKind) => tm(k) - tm("fetch");
    console.log(
      `   over a ${LINK_MBITS} Mbit/s link (the same bytes paced; median of ${rounds}): bytes only ${fmt(tm("fetch"))} ms; ours ${fmt(tm("ours"))} ms, ${fmt(after("ours"))} ms after the transfer; node-soap ${fmt(tm("node-soap"))} ms, ${fmt(after("node-soap"))} ms after it;  node-soap / ours = ${ratio(tm("node-soap"), tm("ours"))}, after the transfer ${ratio(after("node-soap"), after("ours"))}`,
    );
  } finally {
    await server.stop();
  }
}
