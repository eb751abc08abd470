/**
 * `npm run attack -- load [--clients 50] [--seconds 60] [--messages 5000] [--postgres]
 * [--instances 1]`: clients over all four
 * bindings (client i on port i mod 4) list bob's messages, query alice's by date and delete alice's
 * messages, drawn at random so that clients race for the same ids. Then it accounts for every
 * delete: lost (acknowledged, still stored), double (acknowledged twice), phantom (gone, never
 * acknowledged, and no request for it ended without an answer). One summary line; exit 1 unless
 * all three are 0.
 */
import {
  ApiClient,
  HttpBindingError,
  SoapFault,
} from "../../generated-samples/message-service/index.js";
import { option, seededTarget, serve } from "./service.js";

const PORTS = ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"] as const;
const ALICE = { email: "alice@example.com", password: "alice-pass" };
const BOB = { email: "bob@example.com", password: "bob-pass" };
export const FIRST_ID = 100_000;

/** What the clients were told about deletes, and how long every call took. */
export class Ledger {
  readonly acknowledged = new Map<number, number>();
  /**
   * Deletes that ended without an answer (the connection broke): they may or may not have happened.
   */
  readonly inDoubt = new Set<number>();
  readonly latencies: number[] = [];
  requests = 0;
  errors = 0;
  /** The first few distinct error messages, to say what went wrong. */
  readonly errorKinds = new Set<string>();

  /** Lost, double and phantom deletes, given the ids still stored among `ids`. */
  account(stored: ReadonlySet<number>, ids: readonly number[]) {
    let lost = 0;
    let double = 0;
    let phantom = 0;
    for (const id of ids) {
      const acks = this.acknowledged.get(id) ?? 0;
      if (acks > 0 && stored.has(id)) lost++;
      if (acks > 1) double++;
      if (acks === 0 && !stored.has(id) && !this.inDoubt.has(id)) phantom++;
    }
    return { lost, double, phantom };
  }
}

let seed = Number(process.env["LOAD_SEED"] ?? 7);
const rand = (n: number): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return Math.floor((seed / 0x80000000) * n);
};

/** One call of a random kind; its outcome goes into the ledger. */
async function call(client: ApiClient, ledger: Ledger, messages: number): Promise<void> {
  const kind = rand(10);
  const id = FIRST_ID + rand(messages);
  const started = performance.now();
  try {
    if (kind < 6) {
      await client.deleteMessage({ ...ALICE, MessageId: id });
      ledger.acknowledged.set(id, (ledger.acknowledged.get(id) ?? 0) + 1);
    } else if (kind < 8) await client.getMessages(BOB);
    else {
      const day = "2024-06-01T00:00:";
      await client.getMessagesInDateRange({ ...ALICE, startDate: `${day}10`, endDate: `${day}11` });
    }
  } catch (e) {
    // "No message with id": someone else deleted it first. Anything else is an error, and a delete
    // that got no answer is in doubt.
    const answered = e instanceof SoapFault || e instanceof HttpBindingError;
    if (answered && /No message with id/.test(e.message)) return record(ledger, started);
    ledger.errors++;
    if (ledger.errorKinds.size < 3) ledger.errorKinds.add(String(e).slice(0, 120));
    if (kind < 6 && !answered) ledger.inDoubt.add(id);
  }
  record(ledger, started);
}

function record(ledger: Ledger, started: number): void {
  ledger.requests++;
  ledger.latencies.push(performance.now() - started);
}

/** Runs `clients` clients against `urls` (round robin) until `stop()` says so. */
export async function drive(
  urls: readonly string[],
  clients: number,
  messages: number,
  ledger: Ledger,
  stop: () => boolean,
): Promise<void> {
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      const client = new ApiClient({ endpoint: urls[i % urls.length]!, port: PORTS[i % 4]! });
      while (!stop()) await call(client, ledger, messages);
    }),
  );
}

export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

export async function main(): Promise<number> {
  const clients = option("clients", 50);
  const seconds = option("seconds", 60);
  const messages = option("messages", 5000);
  const instances = option("instances", 1);
  const target = await seededTarget(messages);
  const services = await Promise.all(Array.from({ length: instances }, () => serve(target.db)));
  const ledger = new Ledger();
  const until = performance.now() + seconds * 1000;
  const urls = services.map((s) => s.url);
  await drive(urls, clients, messages, ledger, () => performance.now() > until);
  await Promise.all(services.map((s) => s.stop()));
  const stored = new Set((await target.rows()).keys());
  const ids = Array.from({ length: messages }, (_, i) => FIRST_ID + i);
  const { lost, double, phantom } = ledger.account(stored, ids);
  const acked = ledger.acknowledged.size;
  console.log(
    `load: ${clients} clients over 4 bindings, ${instances} process(es) on ${target.kind}, ${ledger.requests} requests in ${seconds} s (${(ledger.requests / seconds).toFixed(0)}/s), p50 ${percentile(ledger.latencies, 50).toFixed(1)} ms, p99 ${percentile(ledger.latencies, 99).toFixed(1)} ms; ${acked} deletes acknowledged, lost ${lost}, double ${double}, phantom ${phantom}, in doubt ${ledger.inDoubt.size}, errors ${ledger.errors}`,
  );
  for (const e of ledger.errorKinds) console.log(`  e.g. ${e}`);
  return lost + double + phantom === 0 ? 0 : 1;
}
