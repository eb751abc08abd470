/**
 * MTOM's cost against inline base64 (issue 36): a document of 64 MiB uploaded and downloaded
 * again (client → server → client) with the documents fixture, as MTOM attachments and as inline
 * base64, each side in a process of its own for its peak RSS; and node-soap downloading the same MTOM
 * answer, against our client's download. Figures as ratios: RSS growth against the attachment's
 * size (target < 1.5× each side), MTOM's time against inline base64's (target ≤ 0.5×).
 */
import { fmt, mib, ratio, verdict, Worker } from "./util.js";

const WORKER = "bench/mtom-worker.ts";

interface Round {
  readonly uploadMs: number;
  readonly downloadMs: number;
  readonly growth: number;
}

/** One round trip of `mode`: a fresh server (answering as `answers`), a fresh client. */
async function roundTrip(mode: "mtom" | "inline", size: number) {
  const server = new Worker(WORKER, ["server", mode === "mtom" ? "always" : "never"]);
  try {
    const { port } = await server.next<{ port: number }>();
    const url = `http://127.0.0.1:${port}/documents`;
    server.send("rss");
    const before = (await server.next<{ maxRss: number }>()).maxRss;
    const client = new Worker(WORKER, ["client", mode, url, String(size)]);
    const round = await client.next<Round>(300_000);
    await client.stop();
    server.send("rss");
    const serverGrowth = (await server.next<{ maxRss: number }>()).maxRss - before;
    let peer: Round | undefined;
    if (mode === "mtom") {
      const ns = new Worker(WORKER, ["client", "node-soap", url, String(size)]);
      peer = await ns.next<Round>(300_000);
      await ns.stop();
    }
    return { round, serverGrowth, peer };
  } finally {
    await server.stop();
  }
}

export async function mtomBench({ mebibytes }: { mebibytes: number }): Promise<void> {
  const size = mebibytes * 1024 * 1024;
  console.log(`\n## MTOM: a ${mebibytes} MiB document uploaded and downloaded (loopback)\n`);
  const mtom = await roundTrip("mtom", size);
  const inline = await roundTrip("inline", size);
  const total = (r: Round) => r.uploadMs + r.downloadMs;
  const ms = (r: Round) => `${fmt(r.uploadMs, 0)} + ${fmt(r.downloadMs, 0)} ms`;
  const grew = (bytes: number) => `${fmt(mib(bytes))} MiB, ${ratio(bytes, size)} the attachment`;
  const timeRatio = total(mtom.round) / total(inline.round);
  console.log("| what | MTOM | inline base64 | ratio | target |");
  console.log("|---|---|---|---|---|");
  console.log(
    `| round trip (upload + download) | ${ms(mtom.round)} | ${ms(inline.round)} | MTOM ${fmt(timeRatio, 2)}× inline | ≤ 0.5×: ${verdict(timeRatio <= 0.5)} |`,
  );
  for (const [side, m, i] of [
    ["client", mtom.round.growth, inline.round.growth],
    ["server", mtom.serverGrowth, inline.serverGrowth],
  ] as const)
    console.log(
      `| ${side}: peak RSS growth | ${grew(m)} | ${grew(i)} | MTOM ${ratio(m, i)} inline | < 1.5× the attachment: ${verdict(m < 1.5 * size)} |`,
    );
  const p = mtom.peer!;
  console.log(
    `| download of the MTOM answer: ours vs node-soap | ${fmt(mtom.round.downloadMs, 0)} ms, ${grew(mtom.round.growth)} (round trip) | node-soap ${fmt(p.downloadMs, 0)} ms, ${grew(p.growth)} | ours ${ratio(mtom.round.downloadMs, p.downloadMs)} node-soap's time | lower |`,
  );
}
