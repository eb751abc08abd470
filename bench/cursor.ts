/**
 * Issue #47: a server implementation yielding 1,000,000 messages from a cursor (about 450 MB over
 * HTTP GET): the server's peak RSS growth (target < 64 MiB) and the time to the first body byte
 * (target < 50 ms), each server in a process of its own, read by a client here that counts the
 * items. Then its peer at one count both survive (a tenth, at most 100,000): the cursor against
 * the same implementation returning the whole array, alternated over rounds, as ratios of medians
 * (server CPU time, first byte, total, RSS growth). BENCH_CURSOR_MESSAGES sets the count
 * (default 1,000,000).
 */
import { request } from "node:http";
import { ACCOUNT } from "./data.js";
import { fail, fmt, mib, peerTable, verdict, Worker } from "./util.js";

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

type Mode = "stream" | "whole";

/** One server of `mode` answering `count` messages once: what the client read, the RSS growth. */
async function run(mode: Mode, count: number) {
  const w = new Worker("bench/cursor-worker.ts", [mode, String(count)]);
  try {
    const { port } = await w.next<{ port: number }>();
    w.send("rss");
    const before = await w.next<{ rss: number; maxRss: number; cpuMs: number }>();
    const r = await read(port);
    w.send("rss");
    const after = await w.next<{ rss: number; maxRss: number; cpuMs: number }>();
    if (r.items !== count) fail(`${mode}: ${r.items} messages read, ${count} expected`);
    return { ...r, growth: after.maxRss - before.rss, cpuMs: after.cpuMs - before.cpuMs };
  } finally {
    await w.stop();
  }
}

export async function cursorBench({ count }: { count: number }): Promise<void> {
  console.log(
    `\n## Server: an implementation yielding ${count.toLocaleString("en")} messages from a cursor (HTTP GET)\n`,
  );
  const streamed = await run("stream", count);
  console.log("| messages | MB sent | first byte | total | server RSS growth |");
  console.log("|---|---|---|---|---|");
  console.log(
    `| ${count.toLocaleString("en")} | ${fmt(streamed.bytes / 1e6, 0)} | ${fmt(streamed.firstByteMs, 1)} ms | ` +
      `${fmt(streamed.totalMs / 1000, 1)} s | ${fmt(mib(streamed.growth), 1)} MiB |`,
  );
  console.log(
    `\nRSS growth < 64 MiB: ${verdict(streamed.growth < 64 * 1048576)}; ` +
      `first byte < 50 ms: ${verdict(streamed.firstByteMs < 50)}.`,
  );
  await samePeer(Math.min(100_000, Math.max(1, Math.round(count / 10))));
}

type Run = Awaited<ReturnType<typeof run>>;

/** The cursor and the whole array at one count, alternated over 3 rounds: medians and ratios. */
async function samePeer(n: number): Promise<void> {
  console.log(
    `\nAt ${n.toLocaleString("en")} messages, the cursor against the whole array (medians of 3, alternated):\n`,
  );
  await peerTable<Run>(["stream", "whole"], ["cursor", "array"], 3, (m) => run(m as Mode, n), [
    ["server CPU time", (r) => r.cpuMs, "ms"],
    ["first byte", (r) => r.firstByteMs, "ms"],
    ["total", (r) => r.totalMs, "ms"],
    ["server RSS growth", (r) => mib(r.growth), "MiB"],
  ]);
}
