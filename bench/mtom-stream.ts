/**
 * MTOM in bounded memory (issue 47): a document of 1 GiB (MTOM_STREAM_MIB to change it) uploaded
 * from a stream made as it is sent, and downloaded again into a Blob of a spooled file, each side
 * in a process of its own for its peak RSS. Target: RSS growth < 64 MiB on both sides, and the
 * bytes equal by sha256 (sent, as the server read them, as the client read them back).
 */
import { fmt, mib, verdict, Worker } from "./util.js";

const WORKER = "bench/mtom-stream-worker.ts";

interface Round {
  readonly uploadMs: number;
  readonly downloadMs: number;
  readonly growth: number;
  /** The growth once the upload was over. */
  readonly uploadGrowth: number;
  readonly sent: string;
  readonly received: string;
}

export async function mtomStreamBench({ mebibytes }: { mebibytes: number }): Promise<void> {
  const size = mebibytes * 1024 * 1024;
  console.log(`\n## MTOM, ${mebibytes} MiB both ways, streamed and spooled (loopback)\n`);
  const server = new Worker(WORKER, ["server", "", String(size)]);
  try {
    const { port } = await server.next<{ port: number }>();
    server.send("rss");
    const before = (await server.next<{ maxRss: number }>()).maxRss;
    const client = new Worker(WORKER, [
      "client",
      `http://127.0.0.1:${port}/documents`,
      String(size),
    ]);
    const r = await client.next<Round>(600_000);
    await client.stop();
    server.send("rss");
    const after = await server.next<{ maxRss: number; sha256: string }>();
    const serverGrowth = after.maxRss - before;
    const equal = r.sent === after.sha256 && r.sent === r.received;
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
      ["server", serverGrowth],
    ] as const)
      console.log(
        `| ${side}: peak RSS growth | ${fmt(mib(g))} MiB | < 64 MiB: ${verdict(g < 64 * 1024 * 1024)} |`,
      );
    console.log(
      `| bytes equal by sha256 (sent, server, back) | ${r.sent.slice(0, 16)}… | ${verdict(equal)} |`,
    );
  } finally {
    await server.stop();
  }
}
