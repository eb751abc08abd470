/**
 * MTOM in bounded memory (issue 47): a document of 1 GiB (MTOM_STREAM_MIB to change it) uploaded
 * from a stream made as it is sent, and downloaded again into a Blob of a spooled file, each side
 * in a process of its own for its peak RSS. Target: RSS growth < 64 MiB on both sides, and the
 * bytes equal by sha256 (sent, as the server read them, as the client read them back). Then the
 * same signed and verified both ways (x509Security, RSA-2048; the upload a Blob of a file the
 * client writes first, the parts hashed as read): the same target, and the ratios to the unsigned
 * round. Then its peer at a size the in-memory path survives (MTOM_PEER_MIB, default 64): the
 * same round trip with Uint8Arrays and no spooling, alternated over rounds, as ratios of medians.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fail, fmt, mib, peerTable, ratio, verdict, Worker } from "./util.js";
import { makeKeys } from "./wss.js";

const WORKER = "bench/mtom-stream-worker.ts";

interface Round {
  readonly uploadMs: number;
  readonly downloadMs: number;
  /** The client's CPU time over the round trip. */
  readonly cpuMs: number;
  readonly growth: number;
  /** The growth once the upload was over. */
  readonly uploadGrowth: number;
  readonly sent: string;
  readonly received: string;
}

interface Measured extends Round {
  readonly serverGrowth: number;
  readonly equal: boolean;
}

/**
 * One round trip of `size` bytes by `mode`, its client and server each a process of its own;
 * signed when `keys` (a directory of makeKeys') is given.
 */
async function round(size: number, mode: "stream" | "memory", keys?: string): Promise<Measured> {
  const extra = [mode, ...(keys ? [keys] : [])];
  const server = new Worker(WORKER, ["server", "", String(size), ...extra]);
  try {
    const { port } = await server.next<{ port: number }>();
    server.send("rss");
    const before = (await server.next<{ maxRss: number }>()).maxRss;
    const url = `http://127.0.0.1:${port}/documents`;
    const client = new Worker(WORKER, ["client", url, String(size), ...extra]);
    const r = await client.next<Round>(600_000);
    await client.stop();
    server.send("rss");
    const after = await server.next<{ maxRss: number; sha256: string }>();
    const equal = r.sent === after.sha256 && r.sent === r.received;
    return { ...r, serverGrowth: after.maxRss - before, equal };
  } finally {
    await server.stop();
  }
}

/** The signed round, with keys made for it. */
async function signedRound(size: number): Promise<Measured> {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-mtom-keys-"));
  try {
    makeKeys(dir, "client");
    makeKeys(dir, "server");
    return await round(size, "stream", dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function mtomStreamBench(o: {
  mebibytes: number;
  peerMebibytes: number;
}): Promise<void> {
  const { mebibytes } = o;
  const size = mebibytes * 1024 * 1024;
  console.log(`\n## MTOM, ${mebibytes} MiB both ways, streamed and spooled (loopback)\n`);
  const plain = await round(size, "stream");
  const signed = await signedRound(size);
  const rate = (ms: number) => `${fmt(ms, 0)} ms (${fmt(mebibytes / (ms / 1000), 0)} MiB/s)`;
  console.log("| what | unsigned | signed (x509Security) | signed/unsigned | target |");
  console.log("|---|---|---|---|---|");
  const row = (what: string, f: (m: Measured) => number, show: (n: number) => string, t = "") =>
    console.log(
      `| ${what} | ${show(f(plain))} | ${show(f(signed))} | ${ratio(f(signed), f(plain))} | ${t} |`,
    );
  row("upload (client → server Blob)", (m) => m.uploadMs, rate);
  row("download (server → client Blob, hashed)", (m) => m.downloadMs, rate);
  const mb = (n: number) => `${fmt(mib(n))} MiB`;
  row("client: peak RSS growth by the end of the upload", (m) => m.uploadGrowth, mb);
  const limit = 64 * 1024 * 1024;
  const met = (g: (m: Measured) => number) =>
    `< 64 MiB: ${verdict(g(plain) < limit && g(signed) < limit)}`;
  row(
    "client: peak RSS growth",
    (m) => m.growth,
    mb,
    met((m) => m.growth),
  );
  row(
    "server: peak RSS growth",
    (m) => m.serverGrowth,
    mb,
    met((m) => m.serverGrowth),
  );
  const sha = (m: Measured) => `${m.sent.slice(0, 16)}…`;
  console.log(
    `| bytes equal by sha256 (sent, server, back) | ${sha(plain)} | ${sha(signed)} | | ${verdict(plain.equal && signed.equal)} |`,
  );
  console.log(
    "\nSigned: the upload's time includes writing the bytes to the client's file first; each " +
      "part is read twice (its digest, then the wire or the spool).",
  );
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
    async (m) => {
      const t = await round(size, m as "stream" | "memory");
      if (!t.equal) fail(`${m}: the bytes differ (sent, server, back)`);
      return t;
    },
    [
      ["client CPU time (upload and download)", (t) => t.cpuMs, "ms"],
      ["upload", (t) => t.uploadMs, "ms"],
      ["download", (t) => t.downloadMs, "ms"],
      ["client peak RSS growth", (t) => mib(t.growth), "MiB"],
      ["server peak RSS growth", (t) => mib(t.serverGrowth), "MiB"],
    ],
  );
}
