/**
 * Issue #37's cases 4 and 5 for scripts/attack/round2.ts: PostgreSQL frozen with SIGSTOP for 8 s,
 * then stopped as by a crash (`pg_ctl stop -m immediate`), while clients call; what they were
 * answered, how long they waited, whether ?WSDL kept answering, and what the log took.
 */
import type { RunningServer, ServerOptions } from "../../examples/message-service/server.js";
import type { PgCluster } from "../../test/support/postgres.js";
import { soapCall, type Call } from "./round2-wire.js";

const ALICE = { email: "alice@example.com", password: "alice-pass" };

/** Counts what goes to stderr (the service's log) while `f` runs. */
async function logged<T>(
  f: () => Promise<T>,
): Promise<{ result: T; lines: number; bytes: number }> {
  const write = process.stderr.write.bind(process.stderr);
  let lines = 0;
  let bytes = 0;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    const text = String(chunk);
    bytes += Buffer.byteLength(text);
    lines += text.split("\n").length - 1;
    return true;
  }) as typeof process.stderr.write;
  try {
    return { result: await f(), lines, bytes };
  } finally {
    process.stderr.write = write;
  }
}

/** `status:count` pairs, 0 (no answer) as `none`. */
const histogram = (calls: Call[]) => {
  const by = new Map<number, number>();
  for (const c of calls) by.set(c.status, (by.get(c.status) ?? 0) + 1);
  return [...by].map(([s, n]) => `${s || "none"}:${n}`).join(" ");
};
const maxWait = (calls: Call[]) => (Math.max(...calls.map((c) => c.ms)) / 1000).toFixed(1);

async function wsdlStatus(url: string): Promise<string> {
  const started = performance.now();
  const res = await fetch(`${url}?WSDL`, { signal: AbortSignal.timeout(30_000) }).catch(
    () => undefined,
  );
  await res?.text();
  return `${res?.status ?? "no answer"} in ${(performance.now() - started).toFixed(0)} ms`;
}

export async function outageCases(
  serve: (o: Partial<ServerOptions>) => Promise<RunningServer>,
  cluster: PgCluster,
  createDatabase: (c: PgCluster) => Promise<string>,
): Promise<string[]> {
  const frozen = await serve({ dbPath: await createDatabase(cluster) });
  await soapCall(frozen.url, "GetMessages", ALICE);
  cluster.freeze();
  const thaw = setTimeout(() => cluster.thaw(), 8_000);
  const calls = Array.from({ length: 200 }, () => soapCall(frozen.url, "GetMessages", ALICE));
  await new Promise((r) => setTimeout(r, 1_000));
  const wsdl = await wsdlStatus(frozen.url);
  const answered = await Promise.all(calls);
  clearTimeout(thaw);
  cluster.thaw();
  await frozen.close();
  const four = `4 frozen PostgreSQL (8 s): 200 GetMessages answered ${histogram(answered)}, longest wait ${maxWait(answered)} s; ?WSDL during the freeze ${wsdl}`;

  const down = await serve({ dbPath: await createDatabase(cluster) });
  await soapCall(down.url, "GetMessages", ALICE);
  const outage = await logged(async () => {
    cluster.crash();
    const out: Call[] = [];
    for (let round = 0; round < 25; round++)
      out.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, () => soapCall(down.url, "GetMessages", ALICE)),
        )),
      );
    cluster.restart();
    const started = performance.now();
    while ((await soapCall(down.url, "GetMessages", ALICE)).status !== 200)
      await new Promise((r) => setTimeout(r, 100));
    return { out, recovered: performance.now() - started };
  });
  await down.close();
  const { out, recovered } = outage.result;
  const five = `5 PostgreSQL stopped (-m immediate): 500 GetMessages answered ${histogram(out)}, with Retry-After ${out.filter((c) => c.retryAfter !== undefined).length}; log ${outage.lines} lines, ${outage.bytes} bytes; served again ${recovered.toFixed(0)} ms after the restart`;
  return [four, five];
}
