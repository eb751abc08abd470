/**
 * `npm run attack -- slow [--idle 20000] [--slow 50] [--hold 70]`: opens `idle` connections that
 * send nothing (from worker processes, 5,000 each, so the probe's own open-files limit does not cap
 * them) and `slow` connections that send a header line a byte a second, all from 127.0.0.2. Then it times a new
 * client's GetMessages, and how long the server keeps the slow ones. One summary line; exit 1 if
 * the new client is not answered within 10 s.
 */
import { fork, type ChildProcess } from "node:child_process";
import { connect, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { ApiClient } from "../../generated-samples/message-service/index.js";
import { percentile } from "./load.js";
import { option, seededTarget, serve } from "./service.js";

const PER_WORKER = 5_000;

/**
 * The idle and slow connections come from 127.0.0.2, the new client from 127.0.0.1: one address's
 * connections are capped (100 by default), so from the client's own address they would crowd it
 * out by design, and the probe measures whether others are still served.
 */
const attacker = (url: URL) => ({
  port: Number(url.port),
  host: url.hostname,
  localAddress: "127.0.0.2",
});

/**
 * In a worker: opens `count` idle connections and says how many connected; asked again, says how
 * many are still open (the server may shed some).
 */
async function holdIdle(url: URL, count: number): Promise<void> {
  let open = 0;
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          let connected = false;
          const s = connect(attacker(url), () => {
            connected = true;
            open++;
            resolve();
          });
          // Read (and drop) what the server sends: an unread 503 would hide its close from us.
          s.resume();
          s.on("error", () => resolve());
          s.on("close", () => {
            if (connected) open--;
            resolve();
          });
        }),
    ),
  );
  process.send!({ open });
  process.on("message", () => process.send!({ open }));
  process.on("disconnect", () => process.exit(0));
}

/** Opens a connection that sends one byte of a header a second; resolves with how long it lived. */
function slowHeaders(url: URL, holdMs: number): Promise<number> {
  return new Promise((resolve) => {
    const started = performance.now();
    const s = connect(attacker(url));
    const head = `GET /api.asmx?WSDL HTTP/1.1\r\nHost: x\r\nX-Slow: ${"y".repeat(1000)}`;
    let i = 0;
    const timer = setInterval(() => s.write(head[i++ % head.length]!), 1000);
    const done = () => {
      clearInterval(timer);
      s.destroy();
      resolve(performance.now() - started);
    };
    s.on("error", () => {});
    s.on("close", done);
    setTimeout(done, holdMs);
  });
}

export async function main(): Promise<number> {
  const idle = option("idle", 20_000);
  const slow = option("slow", 50);
  const holdMs = option("hold", 70) * 1000;
  const service = await serve((await seededTarget()).db);
  const url = new URL(service.url);
  const workers: ChildProcess[] = [];
  let accepted = 0;
  for (let left = idle; left > 0; left -= PER_WORKER) {
    const w = fork(
      fileURLToPath(import.meta.url),
      ["worker", service.url, String(Math.min(left, PER_WORKER))],
      { execArgv: ["--import", "tsx"] },
    );
    workers.push(w);
    accepted += await new Promise<number>((resolve) =>
      w.once("message", (m) => resolve((m as { open: number }).open)),
    );
  }
  const slowOnes = Array.from({ length: slow }, () => slowHeaders(url, holdMs));
  const started = performance.now();
  const client = new ApiClient({ endpoint: service.url, timeoutMs: 10_000 });
  const answer = await client
    .getMessages({ email: "bob@example.com", password: "bob-pass" })
    .then((list) => `${list?.length ?? 0} messages`)
    .catch((e: unknown) => `failed: ${String(e).slice(0, 100)}`);
  const newClientMs = performance.now() - started;
  const lived = await Promise.all(slowOnes);
  let stillOpen = 0;
  for (const w of workers) {
    w.send("count");
    stillOpen += await new Promise<number>((resolve) =>
      w.once("message", (m) => resolve((m as { open: number }).open)),
    );
  }
  for (const w of workers) w.kill();
  await service.stop();
  const closed = lived.filter((ms) => ms < holdMs - 500).length;
  console.log(
    `slow: ${accepted} of ${idle} idle connections connected, ${stillOpen} still open at the end; a new client got ${answer} in ${newClientMs.toFixed(0)} ms; ${closed} of ${slow} slow-header connections closed by the server within ${holdMs / 1000} s (median life ${(percentile(lived, 50) / 1000).toFixed(1)} s)`,
  );
  return answer.endsWith("messages") && newClientMs < 10_000 ? 0 : 1;
}

// Forked by main() to hold idle connections.
if (process.argv[2] === "worker")
  await holdIdle(new URL(process.argv[3]!), Number(process.argv[4]));
