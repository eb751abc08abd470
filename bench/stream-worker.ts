/**
 * Child process for the streamed-result bench: `memory <kind> <url> <count>` runs one call of
 * `count` messages (kind: `stream`, our client's `client.stream.getMessages`; `whole`, its
 * `getMessages`; `node-soap`) and reports its time and peak RSS growth; `time <url> <count>
 * <rounds>` times our streamed and whole calls interleaved, per message. IPC: one report each.
 */
import { ACCOUNT } from "./data.js";
import { createClient } from "./clients.js";
import { gc, reply } from "./util.js";

const [mode, kind, ...rest] = process.argv.slice(2);

/** Our streamed call: counts the items, holding none. */
async function streamed(endpoint: string): Promise<number> {
  const { ApiClient } = await import("../generated-samples/message-service/index.js");
  const client = new ApiClient({ endpoint });
  let n = 0;
  let last = 0;
  for await (const m of client.stream.getMessages({ ...ACCOUNT })) {
    n++;
    last = m?.Id ?? last;
  }
  if (last === 0) throw new Error("no message read");
  return n;
}

async function call(k: string, endpoint: string): Promise<number> {
  if (k === "stream") return streamed(endpoint);
  const client = await createClient(k === "whole" ? "ours" : "node-soap", endpoint);
  return client.summary(await client.call()).count;
}

if (mode === "memory") {
  const [url, count] = rest as [string, string];
  // Warmed up on a small answer, so that the code loaded is not counted as the call's.
  await call(kind!, `${url}?count=100`);
  gc();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  try {
    const n = await call(kind!, `${url}?count=${count}`);
    const ms = performance.now() - started;
    await reply({ n, ms, growth: process.resourceUsage().maxRSS * 1024 - rssBefore });
  } catch (e) {
    // A call that fails (ours whole past maxResponseBytes, say) is a figure too.
    await reply({ error: e instanceof Error ? e.message : String(e) });
  }
} else {
  const url = kind!;
  const [count, rounds] = rest.map(Number) as [number, number];
  const endpoint = `${url}?count=${count}`;
  // Wall time and this process's CPU time (steadier on a shared machine; the server's is not
  // counted), per call, interleaved.
  const times: Record<"stream" | "whole" | "streamCpu" | "wholeCpu", number[]> = {
    stream: [],
    whole: [],
    streamCpu: [],
    wholeCpu: [],
  };
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  for (let r = -1; r < rounds; r++) {
    for (const k of ["whole", "stream"] as const) {
      gc();
      const started = performance.now();
      const cpuStarted = cpu();
      const n = await call(k, endpoint);
      if (n !== count) throw new Error(`${k}: ${n} messages, expected ${count}`);
      // Round -1 warms up.
      if (r >= 0) {
        times[k].push(performance.now() - started);
        times[`${k}Cpu`].push(cpu() - cpuStarted);
      }
    }
  }
  await reply(times);
}
process.exit(0);
