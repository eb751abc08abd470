/**
 * Issue #47: a server implementation yielding 1,000,000 messages from a cursor (about 450 MB over
 * HTTP GET), against the same implementation returning the whole array on a tenth of the count:
 * the server's peak RSS growth (target < 64 MiB streamed) and the time to the first body byte
 * (target < 50 ms streamed), each server in a process of its own, read by a client here that
 * counts the items. BENCH_CURSOR_MESSAGES sets the count (default 1,000,000).
 */
import { request } from "node:http";
import { ACCOUNT } from "./data.js";
import { fail, fmt, mib, verdict, Worker } from "./util.js";

interface Read {
  readonly firstByteMs: number;
  readonly totalMs: number;
  readonly bytes: number;
  readonly items: number;
}

const END_TAG = Buffer.from("</Messages>");

/** GetMessages over HTTP GET, read and counted as it comes, nothing kept. */
function read(port: number): Promise<Read> {
  const q = `email=${encodeURIComponent(ACCOUNT.email)}&password=${encodeURIComponent(ACCOUNT.password)}`;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`http://127.0.0.1:${port}/api.asmx/GetMessages?${q}`, (res) => {
      let firstByteMs = -1;
      let bytes = 0;
      let items = 0;
      let carry = Buffer.alloc(0);
      res.on("data", (chunk: Buffer) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
        // The tail of the previous chunk: an end tag cut in two is counted once.
        const b = Buffer.concat([carry, chunk]);
        for (let i = b.indexOf(END_TAG); i >= 0; i = b.indexOf(END_TAG, i + END_TAG.length))
          items++;
        carry = b.subarray(Math.max(0, b.length - END_TAG.length + 1));
      });
      res.on("end", () =>
        res.complete
          ? resolve({ firstByteMs, totalMs: performance.now() - started, bytes, items })
          : reject(new Error("the answer was cut")),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** One server of `mode` answering `count` messages once: what the client read, the RSS growth. */
async function run(mode: "stream" | "whole", count: number) {
  const w = new Worker("bench/cursor-worker.ts", [mode, String(count)]);
  try {
    const { port } = await w.next<{ port: number }>();
    w.send("rss");
    const before = await w.next<{ rss: number; maxRss: number }>();
    const r = await read(port);
    w.send("rss");
    const after = await w.next<{ rss: number; maxRss: number }>();
    if (r.items !== count) fail(`${mode}: ${r.items} messages read, ${count} expected`);
    return { ...r, growth: after.maxRss - before.rss };
  } finally {
    await w.stop();
  }
}

export async function cursorBench({ count }: { count: number }): Promise<void> {
  const peer = Math.max(1, Math.round(count / 10));
  console.log(
    `\n## Server: an implementation yielding ${count.toLocaleString("en")} messages from a cursor ` +
      `(HTTP GET), against the whole array on ${peer.toLocaleString("en")}\n`,
  );
  const streamed = await run("stream", count);
  const whole = await run("whole", peer);
  console.log("| result | messages | MB sent | first byte | total | server RSS growth |");
  console.log("|---|---|---|---|---|---|");
  for (const [label, r, n] of [
    ["cursor, streamed", streamed, count],
    ["array, whole", whole, peer],
  ] as const)
    console.log(
      `| ${label} | ${n.toLocaleString("en")} | ${fmt(r.bytes / 1e6, 0)} | ${fmt(r.firstByteMs, 1)} ms | ` +
        `${fmt(r.totalMs / 1000, 1)} s | ${fmt(mib(r.growth), 1)} MiB |`,
    );
  console.log(
    `\nStreamed: RSS growth < 64 MiB: ${verdict(streamed.growth < 64 * 1048576)}; ` +
      `first byte < 50 ms: ${verdict(streamed.firstByteMs < 50)}. ` +
      `The whole array grew ${fmt(streamed.growth > 0 ? whole.growth / streamed.growth : 0, 1)}× ` +
      `as much on a tenth of the messages.`,
  );
}
