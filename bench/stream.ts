/**
 * Client, GetMessages streamed (issue #47): `client.stream.getMessages` reading a response of
 * `count` messages (1,000,000, ~450 MB, with `stream --million`) from a server that generates it
 * as it goes (bench/stream-server.ts), its peak RSS growth (target < 64 MiB); its CPU time per
 * message against the whole call's on 10,000 messages (target within 1.2×; the verdict is the CPU
 * time's, wall time printed beside it); and node-soap beside it, on the largest of the sizes tried
 * that it survives. Each memory figure comes from a process of its own.
 */
import { loadavg } from "node:os";
import { fmt, median, mib, verdict, Worker } from "./util.js";

const SERVER = "bench/stream-server.ts";
const WORKER = "bench/stream-worker.ts";

interface MemoryRun {
  readonly n: number;
  readonly ms: number;
  readonly growth: number;
}

/** One call of `count` messages by `kind`, in a process of its own; or why it failed. */
async function memoryRun(kind: string, url: string, count: number): Promise<MemoryRun | string> {
  const w = new Worker(WORKER, ["memory", kind, url, String(count)]);
  try {
    const r = await w.next<MemoryRun | { error: string }>(600_000);
    return "error" in r ? `failed: ${r.error.slice(0, 160)}` : r;
  } catch (e) {
    const first = (e instanceof Error ? e.message : String(e)).split("\n").slice(0, 3).join(" ");
    return `failed (${first.slice(0, 160)})`;
  } finally {
    await w.stop();
  }
}

const perMessage = (r: MemoryRun) => `${fmt((r.ms * 1000) / r.n, 2)} µs/message`;

export async function streamBench({
  count,
  nodeSoapSizes,
  rounds,
}: {
  count: number;
  nodeSoapSizes: readonly number[];
  rounds: number;
}): Promise<void> {
  const server = new Worker(SERVER, []);
  try {
    const { port, bytesPerMessage } = await server.next<{
      port: number;
      bytesPerMessage: number;
    }>();
    const url = `http://127.0.0.1:${port}/api.asmx`;
    const size = `${count.toLocaleString("en")} messages (~${fmt(mib(count * bytesPerMessage), 0)} MiB)`;
    console.log(`\n## Client, GetMessages streamed: ${size}, generated as it is sent (loopback)\n`);
    const ours = await memoryRun("stream", url, count);
    console.log("| what | figure | target |");
    console.log("|---|---|---|");
    if (typeof ours === "string") console.log(`| ours, streamed | ${ours} | |`);
    else
      console.log(
        `| ours, streamed: peak RSS growth | ${fmt(mib(ours.growth))} MiB (${ours.n.toLocaleString("en")} messages in ${fmt(ours.ms / 1000, 1)} s, ${perMessage(ours)}) | < 64 MiB: ${verdict(ours.growth < 64 * 1048576)} |`,
      );
    const w = new Worker(WORKER, ["time", url, "10000", String(rounds)]);
    const times =
      await w.next<Record<"stream" | "whole" | "streamCpu" | "wholeCpu", number[]>>(600_000);
    await w.stop();
    const [s, h] = [median(times.streamCpu), median(times.wholeCpu)];
    const [sw, hw] = [median(times.stream), median(times.whole)];
    const load = loadavg()[0]!.toFixed(1);
    console.log(
      `| 10,000 messages: streamed vs whole call, CPU time of the calling process (medians of ${rounds}, interleaved; load average ${load}) | ${fmt(s / 10, 2)} vs ${fmt(h / 10, 2)} µs/message: ${fmt(s / h, 2)}× (wall ${fmt(sw / hw, 2)}×) | ≤ 1.2×: ${verdict(s / h <= 1.2)} |`,
    );
    for (const n of nodeSoapSizes) {
      const whole = await memoryRun("whole", url, n);
      const peer = await memoryRun("node-soap", url, n);
      const show = (r: MemoryRun | string) =>
        typeof r === "string" ? r : `${fmt(mib(r.growth))} MiB, ${perMessage(r)}`;
      console.log(
        `| ${n.toLocaleString("en")} messages, peak RSS growth and time: ours whole / node-soap | ${show(whole)} / ${show(peer)} | |`,
      );
      if (typeof peer === "string") break;
    }
  } finally {
    await server.stop();
  }
}
