/**
 * MTOM in bounded memory (issue 47): a document of 1 GiB (MTOM_STREAM_MIB to change it) uploaded
 * from a stream made as it is sent, and downloaded again into a Blob of a spooled file, each side
 * in a process of its own for its peak RSS. Target: RSS growth < 64 MiB on both sides, and the
 * bytes equal by sha256 (sent, as the server read them, as the client read them back). Then its
 * peer at a size the in-memory path survives (MTOM_PEER_MIB, default 64): the same round trip with
 * Uint8Arrays and no spooling, alternated over rounds, as ratios of medians.
 */
import { fail, fmt, mib, peerTable, verdict, Worker } from "./util.js";

const WORKER = "bench/mtom-stream-worker.ts";

interface Round {
  readonly uploadMs: number;
  readonly downloadMs: number;
  readonly cpuMs: number;
  readonly growth: number;
  /** The growth once the upload was over. */
  readonly uploadGrowth: number;
  readonly sent: string;
  readonly received: string;
}

/** One round trip of `size` bytes by `mode`, its client and server each a process of its own. */
async function round(size: number, mode: "stream" | "memory") {
  const server = new Worker(WORKER, ["server", "", String(size), mode]);
  try {
    const { port } = await server.next<{ port: number }>();
    server.send("rss");
    const before = (await server.next<{ maxRss: number }>()).maxRss;
    const url = `http://127.0.0.1:${port}/documents`;
    const client = new Worker(WORKER, ["client", url, String(size), mode]);
    const r = await client.next<Round>(600_000);
    await client.stop();
    server.send("rss");
    const after = await server.next<{ maxRss: number; sha256: string }>();
    const equal = r.sent === after.sha256 && r.sent === r.received;
    if (!equal) fail(`${mode}: the bytes differ (sent, server, back)`);
    return { ...r, serverGrowth: after.maxRss - before };
  } finally {
    await server.stop();
  }
}

export async function mtomStreamBench(o: { mebibytes: number; peerMebibytes: number }) {
  const { mebibytes } = o;
  console.log(`\n## MTOM, ${mebibytes} MiB both ways, streamed and spooled (loopback)\n`);
  const r = await round(mebibytes * 1024 * 1024, "stream");
  const rate = (ms: number) => `${fmt(ms, 0)} ms (${fmt(mebibytes / (ms / 1000), 0)} MiB/s)`;
  console.log("| what | figure | target |");
  console.log("|---|---|---|");
  console.log(`| upload (client stream → server Blob) | ${rate(r.uploadMs)} | |`);
  console.log(`| download (server stream → client Blob, hashed) | ${rate(r.downloadMs)} | |`);
  console.log(
    `| client: peak RSS growth by the end of the upload | ${fmt(mib(r.uploadGrowth))} MiB | |`,
  );
  for (const [side, g] of [
    ["client", r.growth],
    ["server", r.serverGrowth],
  ] as const)
    console.log(
      `| ${side}: peak RSS growth | ${fmt(mib(g))} MiB | < 64 MiB: ${verdict(g < 64 * 1024 * 1024)} |`,
    );
  console.log(`| bytes equal by sha256 (sent, server, back) | ${r.sent.slice(0, 16)}… | met |`);
  await samePeer(o.peerMebibytes);
}

type Trip = Awaited<ReturnType<typeof round>>;

/** Streamed against in memory at one size both survive, alternated over 3 rounds, as ratios. */
async function samePeer(mebibytes: number): Promise<void> {
  console.log(
    `\nAt ${mebibytes} MiB, streamed and spooled against in memory (medians of 3, alternated):\n`,
  );
  const size = mebibytes * 1024 * 1024;
  await peerTable<Trip>(
    ["stream", "memory"],
    ["streamed", "in memory"],
    3,
    (m) => round(size, m as "stream" | "memory"),
    [
      ["client CPU time (upload and download)", (t) => t.cpuMs, "ms"],
      ["upload", (t) => t.uploadMs, "ms"],
      ["download", (t) => t.downloadMs, "ms"],
      ["client peak RSS growth", (t) => mib(t.growth), "MiB"],
      ["server peak RSS growth", (t) => mib(t.serverGrowth), "MiB"],
    ],
  );
}
