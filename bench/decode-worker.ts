/**
 * Child process for the client decode benchmark.
 *   time <url> <rounds> <count>: all three clients in one process, WARM_UP calls each, then `rounds`
 *     rounds of one call each, interleaved (the order rotates every round), gc before every call;
 *     then, per client, `rounds` back-to-back calls with no forced gc (steady state).
 *     Replies { times, steady, summaries, mismatches }.
 *   mem <kind> <url> <count>: one client alone in this process (only its own code loaded), one call.
 *     Replies its peak RSS, the RSS before the call, and the heap (plus external memory) the decoded
 *     result keeps alive; then the peak RSS after REPEATED_CALLS calls in all, each result let go
 *     before the next call.
 */
import {
  CLIENT_KINDS,
  createClient,
  type BenchClient,
  type ClientKind,
  type Summary,
} from "./clients.js";
import { messages, viewOf, type MessageView } from "./data.js";
import {
  REPEATED_CALLS,
  WARM_UP,
  type MemReport,
  type Mismatch,
  type TimeReport,
} from "./protocol.js";
import { gc, reply } from "./util.js";

const FIELDS = [
  "DateArrived",
  "UserId",
  "Sender",
  "MessageText",
  "MessageUrl",
  "Transcription",
] as const;

/** node-soap decodes xs:dateTime to a Date: the source lexical value as the ISO instant it should give (UTC, ms truncated). */
function isoOf(lexical: string): string {
  const [whole, frac = ""] = lexical.split(".");
  return `${whole}.${(frac + "000").slice(0, 3)}Z`;
}

function compare(
  kind: ClientKind,
  got: readonly MessageView[],
  want: readonly MessageView[],
): Mismatch[] {
  const out = new Map<string, { count: number; example: string }>();
  const note = (field: string, example: string) => {
    const e = out.get(field);
    if (e) e.count++;
    else out.set(field, { count: 1, example });
  };
  if (got.length !== want.length) note("count", `${got.length} messages, expected ${want.length}`);
  for (let i = 0; i < Math.min(got.length, want.length); i++) {
    const g = got[i]!;
    const w = want[i]!;
    if (g.id !== w.id) note("Id", `#${i}: ${g.id}, expected ${w.id}`);
    for (let f = 0; f < FIELDS.length; f++) {
      let expected = w.fields[f]!;
      if (kind === "node-soap" && f === 0) expected = isoOf(expected);
      const actual = g.fields[f];
      if (actual !== expected)
        note(
          FIELDS[f]!,
          `Id ${w.id}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`,
        );
    }
  }
  return [...out].map(([field, { count, example }]) => ({ field, count, example }));
}

const [mode, ...args] = process.argv.slice(2);

if (mode === "time") {
  const [url, roundsText, countText] = args as [string, string, string];
  const rounds = Number(roundsText);
  const clients = {} as Record<ClientKind, BenchClient<unknown>>;
  for (const k of CLIENT_KINDS) clients[k] = await createClient(k, url);
  const last = {} as Record<ClientKind, unknown>;
  for (const k of CLIENT_KINDS) {
    // Warm-up: WARM_UP calls each, so that every client runs settled JIT-compiled code when measured
    // (ours takes about five calls to stop re-optimizing as its code paths fill their type feedback).
    for (let w = 1; w < WARM_UP; w++) await clients[k].call();
    last[k] = await clients[k].call();
  }
  const times: Record<ClientKind, number[]> = { ours: [], "node-soap": [], fetch: [] };
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < CLIENT_KINDS.length; j++) {
      const k = CLIENT_KINDS[(j + r) % CLIENT_KINDS.length]!;
      last[k] = undefined;
      gc();
      const t0 = performance.now();
      last[k] = await clients[k].call();
      times[k].push(performance.now() - t0);
    }
  }
  // Steady state: each client alone, back-to-back calls with no forced GC (as an application calling
  // repeatedly runs), after one gc and one untimed call, so the previous client's garbage is gone.
  const steady: Record<ClientKind, number[]> = { ours: [], "node-soap": [], fetch: [] };
  for (const k of CLIENT_KINDS) {
    let held: unknown;
    gc();
    held = await clients[k].call();
    for (let r = 0; r < rounds; r++) {
      const t0 = performance.now();
      held = await clients[k].call();
      steady[k].push(performance.now() - t0);
    }
    if (clients[k].summary(held).count !== clients[k].summary(last[k]).count)
      throw new Error(`${k}: steady-state calls returned a different result`);
  }
  const want = messages(Number(countText)).map(viewOf);
  const summaries = {} as Record<ClientKind, Summary>;
  const mismatches: Record<ClientKind, Mismatch[]> = { ours: [], "node-soap": [], fetch: [] };
  for (const k of CLIENT_KINDS) {
    const c = clients[k];
    summaries[k] = c.summary(last[k]);
    if (c.views) mismatches[k] = compare(k, c.views(last[k]), want);
  }
  const report: TimeReport = { times, steady, summaries, mismatches };
  await reply(report);
} else if (mode === "mem") {
  const [kind, url] = args as [ClientKind, string];
  const client = await createClient(kind, url);
  gc();
  gc();
  const rssBeforeBytes = process.memoryUsage().rss;
  const heapOf = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  // The heap (plus external memory) after the call less before it, with the result held: what the
  // result keeps alive, and what the first call loaded for good (fetch's code, for ours and the
  // bytes alone: the bytes-only figure).
  const heapBefore = heapOf();
  let held: unknown = await client.call();
  const maxRssBytes = process.resourceUsage().maxRSS * 1024;
  gc();
  gc();
  const retainedHeapBytes = heapOf() - heapBefore;
  const summary = client.summary(held);
  // Then as an application calling again and again: each result let go before the next call.
  for (let i = 1; i < REPEATED_CALLS; i++) {
    held = undefined;
    held = await client.call();
  }
  if (client.summary(held).count !== summary.count)
    throw new Error(`${kind}: the repeated calls returned a different result`);
  const repeatedMaxRssBytes = process.resourceUsage().maxRSS * 1024;
  const report: MemReport = {
    kind,
    maxRssBytes,
    rssBeforeBytes,
    retainedHeapBytes,
    repeatedMaxRssBytes,
    summary,
  };
  await reply(report);
} else {
  throw new Error(`usage: decode-worker.ts time <url> <rounds> <count> | mem <kind> <url> <count>`);
}
// Keep-alive sockets would hold the process open for seconds: it is done.
process.exit(0);
