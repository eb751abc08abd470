/**
 * Benchmark 4, the Message Retrieval Service: authenticated GetMessages returning Alice's five seed
 * messages over SOAP 1.1, 50 connections, against the generated server over an in-memory service
 * without a store or a KDF (the peer, measured in the same run). The service runs on SQLite, on
 * PostgreSQL (one process, then two processes on one database, the load split between them) when
 * PostgreSQL is installed, each server alone in its own process. Then ?WSDL's latency during a
 * flood of wrong passwords from 16 clients, and what `synchronous = FULL` costs a delete.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import * as path from "node:path";
import Database from "better-sqlite3";
import { open, openSqlite } from "../examples/message-service/store.js";
import { readSeedFile } from "../examples/message-service/seed-file.js";
import { MIGRATIONS } from "../examples/message-service/sqlite-store.js";
import { createDatabase, postgresMissing, startPostgres } from "../test/support/postgres.js";
import { drive, LOAD_TOOL } from "./load.js";
import { recordedSoapRequest, SEED_PATH, SOAP_ACTION } from "./data.js";
import { fail, fmt, ratio, verdict, Worker } from "./util.js";

const CONNECTIONS = 50;
const FLOOD_CONNECTIONS = 16;
const TARGET_RPS = 2_000;
const TARGET_P99_MS = 50;
/** Two processes' rate against one's that counts as more, beyond run-to-run noise. */
const MORE = 1.05;

interface Load {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** The share of all the machine's CPU time that was busy during the run (load tool included). */
  readonly busy: number;
}

/** CPU time of all cores so far: busy and total, in milliseconds. */
function cpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times: t } of cpus()) {
    busy += t.user + t.nice + t.sys + t.irq;
    total += t.user + t.nice + t.sys + t.irq + t.idle;
  }
  return { busy, total };
}

const soap = (base: string, body = recordedSoapRequest()) => ({
  url: base,
  method: "POST" as const,
  headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: SOAP_ACTION },
  body,
});

/** Runs `f` with servers started by service-worker.ts, one per argument list; stops them after. */
async function withServers<T>(args: string[][], f: (bases: string[]) => Promise<T>): Promise<T> {
  const workers = args.map((a) => new Worker("bench/service-worker.ts", a));
  try {
    const ports = await Promise.all(workers.map((w) => w.next<{ port: number }>()));
    return await f(ports.map(({ port }) => `http://127.0.0.1:${port}/api.asmx`));
  } finally {
    for (const w of workers) await w.stop();
  }
}

/** Fails unless `base` answers Alice's five messages. */
async function check(label: string, base: string): Promise<void> {
  const res = await fetch(base, soap(base));
  const ids = (await res.text()).match(/<Id>\d+<\/Id>/g)?.length ?? 0;
  if (res.status !== 200 || ids !== 5) fail(`${label}: ${res.status} with ${ids} messages`);
}

/** GetMessages on every base at once, the connections split evenly; a 2 s warm-up first. */
async function load(label: string, bases: string[], seconds: number): Promise<Load> {
  for (const b of bases) await check(label, b);
  const per = Math.floor(CONNECTIONS / bases.length);
  const run = (duration: number) => Promise.all(bases.map((b) => drive(soap(b), per, duration)));
  await run(2);
  const before = cpuTimes();
  const results = await run(seconds);
  const after = cpuTimes();
  for (const r of results) if (r.failed > 0) fail(`${label}: ${r.failed} failed requests`);
  return {
    rps: results.reduce((sum, r) => sum + r.rps, 0),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    busy: (after.busy - before.busy) / (after.total - before.total),
  };
}

/** ?WSDL's latency while 16 clients send wrong passwords to `base`. */
async function flood(base: string, seconds: number): Promise<{ p99: number; faults: number }> {
  const wrong = recordedSoapRequest().replace("alice-pass", "wrong-pass");
  const [attack, wsdl] = await Promise.all([
    drive(soap(base, wrong), FLOOD_CONNECTIONS, seconds),
    drive({ url: `${base}?WSDL` }, 2, seconds),
  ]);
  if (wsdl.failed > 0) fail(`?WSDL during the flood: ${wsdl.failed} failed requests`);
  return { p99: wsdl.p99, faults: attack.requests };
}

/** Microseconds per single-row DELETE commit, with `synchronous` at `level`, on a real disk. */
function deleteMicros(dir: string, level: "FULL" | "NORMAL", count: number): number {
  const db = new Database(path.join(dir, `sync-${level}.db`));
  try {
    db.pragma("journal_mode = WAL");
    db.pragma(`synchronous = ${level}`);
    db.exec(MIGRATIONS[0]!);
    db.prepare("INSERT INTO accounts VALUES (1, 'a@example.com', x'00', x'00')").run();
    const insert = db.prepare(
      "INSERT INTO messages VALUES (?, 1, 'd', 'k', NULL, NULL, NULL, NULL)",
    );
    db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(i);
    })();
    const del = db.prepare("DELETE FROM messages WHERE id = ? AND user_id = 1");
    const started = process.hrtime.bigint();
    for (let i = 0; i < count; i++) del.run(i);
    return Number(process.hrtime.bigint() - started) / 1000 / count;
  } finally {
    db.close();
  }
}

/** The machine's busy CPU time (all processes, load tool included) per request, in µs. */
const cpuPerRequest = (l: Load): number => (l.busy * cpus().length * 1e6) / l.rps;

function row(label: string, l: Load, peer: Load): void {
  console.log(
    `   ${label.padEnd(34)} ${fmt(l.rps, 0).padStart(7)} req/s  p50 ${fmt(l.p50, 0).padStart(3)} ms  p99 ${fmt(l.p99, 0).padStart(4)} ms  ${ratio(l.rps, peer.rps)} the peer's rate; machine ${fmt(l.busy * 100, 0)}% busy, ${fmt(cpuPerRequest(l), 0)} µs of its CPU per request`,
  );
}

/**
 * A seeded SQLite file in `dir`, and, when PostgreSQL is installed, a seeded database on a fresh
 * cluster.
 */
async function seededTargets(dir: string) {
  const seed = readSeedFile(SEED_PATH);
  const file = path.join(dir, "messages.db");
  const sqlite = openSqlite(file);
  if (sqlite.synchronous !== 2) fail("the SQLite store does not run with synchronous = FULL");
  await sqlite.seed(seed);
  await sqlite.close();
  const missing = postgresMissing();
  if (missing) return { file, missing };
  const cluster = await startPostgres();
  const url = await createDatabase(cluster);
  const store = await open(url);
  await store.seed(seed);
  await store.close();
  return { file, cluster, url };
}

export async function serviceBench(opts: { seconds: number }): Promise<void> {
  console.log(
    `\n4. Service: authenticated GetMessages → Alice's 5 messages (SOAP 1.1); ${LOAD_TOOL === "wrk" ? "wrk" : "autocannon (install Debian's wrk, whose load leaves the servers more CPU)"}, ${CONNECTIONS} connections, ${opts.seconds} s per run after a 2 s warm-up; each server alone in its process`,
  );
  const dir = mkdtempSync(path.join(tmpdir(), "wsdl-tsgen-bench-"));
  const targets = await seededTargets(dir);
  try {
    const s = opts.seconds;
    const peer = await withServers([["generated"]], (b) => load("generated", b, s));
    row("generated server, no store (peer)", peer, peer);
    const sqlite = await withServers([["service", targets.file]], (b) => load("SQLite", b, s));
    row("service on SQLite", sqlite, peer);
    console.log(
      `   targets: ≥ ${TARGET_RPS} req/s: ${verdict(sqlite.rps >= TARGET_RPS)}; p99 ≤ ${TARGET_P99_MS} ms: ${verdict(sqlite.p99 <= TARGET_P99_MS)}`,
    );
    if (targets.url === undefined) console.log(`   PostgreSQL: not measured (${targets.missing})`);
    else await postgresRows(targets.url, peer, s);
    const f = await withServers([["service", targets.file]], (b) => flood(b[0]!, s));
    console.log(
      `   ?WSDL during ${FLOOD_CONNECTIONS} clients' wrong passwords (${f.faults} faults sent): p99 ${fmt(f.p99, 0)} ms; ≤ ${TARGET_P99_MS} ms: ${verdict(f.p99 <= TARGET_P99_MS)}`,
    );
    const full = deleteMicros(dir, "FULL", 500);
    const normal = deleteMicros(dir, "NORMAL", 500);
    console.log(
      `   a delete's commit (SQLite, WAL): synchronous=FULL ${fmt(full, 0)} µs, NORMAL ${fmt(normal, 0)} µs: FULL costs ${ratio(full, normal)}`,
    );
  } finally {
    targets.cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresRows(url: string, peer: Load, seconds: number): Promise<void> {
  const one = await withServers([["service", url]], (b) => load("PostgreSQL", b, seconds));
  row("service on PostgreSQL, 1 process", one, peer);
  const two = await withServers(
    [
      ["service", url],
      ["service", url],
    ],
    (b) => load("PostgreSQL ×2", b, seconds),
  );
  row("service on PostgreSQL, 2 processes", two, peer);
  // A second process can only add throughput if the first left CPU unused. Rates move by about ±5%
  // from run to run here, so a smaller gain is not counted as one.
  const more = two.rps >= MORE * one.rps;
  const why = more
    ? ""
    : `: with one process the machine was already ${fmt(one.busy * 100, 0)}% busy (load tool, ` +
      `PostgreSQL and server on ${cpus().length} cores), and with two each request took ` +
      `${ratio(cpuPerRequest(two), cpuPerRequest(one))} the CPU`;
  console.log(
    `   two processes: ${ratio(two.rps, one.rps)} one's throughput; ` +
      `more than one (at least ${MORE}×): ${verdict(more)}${why}`,
  );
}
