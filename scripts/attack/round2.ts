/**
 * `npm run attack` (no script named): issue #37's nine defects, each tried as a hostile client
 * would, against `startServer` of the tree in the working folder (so that an older checkout can be
 * measured by running this file from its folder), printing one line per case. Loopback only; the
 * PostgreSQL cases need Debian's `postgresql` and say so when it is missing. Minutes, not hours.
 */
import { connect, type Socket } from "node:net";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { scryptKdf, type Kdf } from "../../examples/message-service/passwords.js";
import type { ServerOptions, RunningServer } from "../../examples/message-service/server.js";
import { createDatabase, postgresMissing, startPostgres } from "../../test/support/postgres.js";
import { SEED_FILE, scratchDb, soapCall, type Call } from "./round2-wire.js";

type Start = (o: ServerOptions) => Promise<RunningServer>;
/** `startServer` of the tree in the working folder: set by `main`. */
let startServer: Start;

const ALICE = { email: "alice@example.com", password: "alice-pass" };
const MINUTE = 60_000;

/** Starts the service on a fresh seeded SQLite file (or `dbPath`), loopback a trusted proxy. */
const serve = (o: Partial<ServerOptions> = {}) =>
  startServer({
    port: 0,
    host: "127.0.0.1",
    dbPath: scratchDb(),
    seedPath: SEED_FILE,
    trustedProxies: ["127.0.0.1"],
    ...o,
  });

const countingKdf = () => {
  const kdf = Object.assign((p: string, s: Buffer) => (kdf.calls++, scryptKdf(p, s)), { calls: 0 });
  return kdf as Kdf & { calls: number };
};

const get = (url: string, creds: typeof ALICE, from?: string) =>
  soapCall(url, "GetMessages", creds, from);
const served = (c: Call) => c.status === 200;

async function lockout(): Promise<string> {
  let t = 0;
  const s = await serve({ auth: { now: () => t } });
  const owner = "203.0.113.1";
  let ok = 0;
  let calls = 0;
  const ownerCall = async () => (calls++, (ok += served(await get(s.url, ALICE, owner)) ? 1 : 0));
  const guess = async (tag: string) => {
    for (let i = 0; i < 10; i++)
      await get(s.url, { ...ALICE, password: `${tag}${i}` }, `198.51.100.${i}`);
  };
  await ownerCall();
  await guess("a");
  for (let i = 0; i < 5; i++) ((t += 4 * MINUTE), await ownerCall());
  await guess("b");
  t += 6 * MINUTE;
  await ownerCall();
  await s.close();
  return `1 lockout: 10 guesses from other addresses, then the owner every 4 min for 20 min and once after 6 idle min: owner served ${ok} of ${calls}`;
}

async function slowBodies(): Promise<string> {
  const s = await serve({ trustedProxies: [] });
  const port = Number(new URL(s.url).port);
  const body = "x".repeat(500);
  const head =
    "POST /api.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\n" +
    `SOAPAction: "http://api.example.com/messages/GetMessages"\r\nContent-Length: ${body.length}\r\n\r\nxx`;
  const slow: Socket[] = [];
  let refused = 0;
  for (let i = 0; i < 1100; i++) {
    const c = connect({ port, host: "127.0.0.1", localAddress: "127.0.0.2" });
    c.on("error", () => undefined);
    c.on(
      "data",
      (d: Buffer) => (refused += d.toString("latin1").startsWith("HTTP/1.1 503") ? 1 : 0),
    );
    c.once("connect", () => c.write(head));
    slow.push(c);
  }
  await new Promise((r) => setTimeout(r, 3_000));
  const other = await soapCall(s.url, "GetMessages", ALICE, undefined, "127.0.0.3");
  slow.forEach((c) => c.destroy());
  await s.close();
  return `2 slow bodies: 1100 slow-body connections from 127.0.0.2 (${refused} answered 503); GetMessages from 127.0.0.3: ${other.status || "no answer"}`;
}

async function enumeration(): Promise<string> {
  const s = await serve({ auth: { maxFailuresPerAddress: 3 } });
  const from = "198.51.100.50";
  for (let i = 0; i < 3; i++) await get(s.url, { email: `x${i}@example.com`, password: "p" }, from);
  const times: Record<"known" | "unknown", number[]> = { known: [], unknown: [] };
  for (let i = 0; i < 3000; i++) {
    const kind = i % 2 === 0 ? "known" : "unknown";
    const email = kind === "known" ? ALICE.email : `nobody${i % 7}@example.com`;
    const started = process.hrtime.bigint();
    await get(s.url, { email, password: `p${i}` }, from);
    times[kind].push(Number(process.hrtime.bigint() - started) / 1000);
  }
  await s.close();
  const median = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1]!;
  const [k, u] = [median(times.known), median(times.unknown)];
  return `3 enumeration: 1500 throttled answers each, median known ${k.toFixed(0)} µs, unknown ${u.toFixed(0)} µs, known − unknown ${(k - u).toFixed(0)} µs`;
}

async function duplicates(): Promise<string> {
  const s = await serve();
  const res = await fetch(`${s.url}/DeleteMessage`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: `email=${encodeURIComponent(ALICE.email)}&password=${ALICE.password}&MessageId=103&MessageId=104`,
  });
  await res.text();
  const left = (await get(s.url, ALICE)).body.match(/<Id>\d+<\/Id>/g)?.join(",") ?? "";
  await s.close();
  return `6 duplicate parameters: MessageId=103&MessageId=104 answered ${res.status}; 103 ${left.includes(">103<") ? "kept" : "deleted"}, 104 ${left.includes(">104<") ? "kept" : "deleted"}`;
}

async function silentCloses(): Promise<string> {
  const s = await serve();
  const port = Number(new URL(s.url).port);
  const sockets = await Promise.all(
    Array.from(
      { length: 3000 },
      () =>
        new Promise<{ socket: Socket; got: () => string; closed: Promise<void> }>((resolve) => {
          let got = "";
          const socket = connect(port, "127.0.0.1");
          socket.on("error", () => undefined);
          socket.on("data", (d: Buffer) => (got += d.toString("latin1")));
          const closed = new Promise<void>((r) => socket.once("close", () => r()));
          socket.once("connect", () => resolve({ socket, got: () => got, closed }));
        }),
    ),
  );
  await new Promise((r) => setTimeout(r, 300));
  for (const c of sockets)
    if (!c.socket.destroyed)
      c.socket.write("GET /api.asmx?WSDL HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  await Promise.race([
    Promise.all(sockets.map((c) => c.closed)),
    new Promise((r) => setTimeout(r, 20_000)),
  ]);
  const by = (code: string) => sockets.filter((c) => c.got().startsWith(`HTTP/1.1 ${code}`)).length;
  const silent = sockets.filter((c) => c.got() === "").length;
  sockets.forEach((c) => c.socket.destroy());
  await s.close();
  return `7 connection limit: 3000 simultaneous new connections (limit 1000): 200 ${by("200")}, 503 ${by("503")}, closed without an answer ${silent}`;
}

async function burst(): Promise<string> {
  const kdf = countingKdf();
  const s = await serve({ auth: { kdf } });
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      get(s.url, { ...ALICE, password: `burst${i}` }, `198.51.100.${i}`),
    ),
  );
  await s.close();
  const verified = answers.filter((a) => a.body.includes("Invalid email or password.")).length;
  return `8 burst: 200 concurrent guesses at one account (limit 10): ${verified} verified, ${kdf.calls} hashes`;
}

async function fleet(): Promise<string> {
  const kdf = countingKdf();
  const s = await serve({ auth: { kdf } });
  const answers = await Promise.all(
    Array.from({ length: 150 }, (_, i) => get(s.url, ALICE, `10.20.0.${i}`)),
  );
  await s.close();
  const busy = answers.filter((a) => a.status === 503).length;
  return `9 fleet: 150 simultaneous logins with the same credentials on a fresh process: ${kdf.calls} hashes, ${answers.filter(served).length} served, ${busy} busy`;
}

/** Cases 4 and 5 on PostgreSQL: frozen with SIGSTOP, then stopped as by a crash. */
async function postgresCases(): Promise<string[]> {
  const missing = postgresMissing();
  if (missing) return [`4 and 5 skipped: ${missing}`];
  const cluster = await startPostgres();
  const lines = await import("./round2-outage.js").then((m) =>
    m.outageCases(serve, cluster, createDatabase),
  );
  cluster.stop();
  return lines;
}

const CASES = [lockout, duplicates, burst, enumeration, fleet, silentCloses, slowBodies];

export async function main(): Promise<number> {
  const server = pathToFileURL(path.resolve("examples/message-service/server.ts")).href;
  ({ startServer } = (await import(server)) as { startServer: Start });
  let failed = 0;
  for (const c of CASES) {
    const line = await c().catch((e: unknown) => (failed++, `${c.name} failed: ${String(e)}`));
    console.log(line);
  }
  for (const line of await postgresCases()) console.log(line);
  return failed === 0 ? 0 : 1;
}
