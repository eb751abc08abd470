/**
 * `npm run attack -- fuzz [--count 100000] [--seconds 900]`: mutates the recorded ASMX requests
 * (fixtures/message-service/asmx/captures) and sends them to the service over loopback, 16 at a
 * time. It counts crashes, answers without a status, 5xx on the SOAP endpoint without a SOAP fault
 * (a 503 with Retry-After aside), stack traces in answers or in the log, and any change to the
 * store other than the deletes it was told succeeded. One summary line; exit 1 if any count is not
 * 0.
 */
import { readdirSync, readFileSync } from "node:fs";
import { option, seededTarget, serve } from "./service.js";
import { exchange, isWhole, join, split, type RawAnswer, type RequestParts } from "./wire.js";

const CAPTURES = "fixtures/message-service/asmx/captures/";
const STACK = /\n\s+at \S|\bat [\w.<>]+ \(.*:\d+:\d+\)/;

let seed = Number(process.env["FUZZ_SEED"] ?? 1);
const rand = (n: number): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return Math.floor((seed / 0x80000000) * n);
};
const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!;

const NASTY = [
  "\u0000",
  "\u0001",
  "\uFFFF",
  "\uD800",
  "]]>",
  "<!DOCTYPE x [<!ENTITY a 'b'>]>",
  "&#0;",
  "&unknown;",
  "<?xml version='1.0'?>",
  "%",
  "%E0%A4%A",
  "A".repeat(70_000),
  "-2147483649",
  "9".repeat(40),
  "<x>".repeat(200),
  "xmlns:soap='urn:x'",
];
const CONTENT_TYPES = [
  "text/xml",
  "text/xml; charset=utf-16",
  "text/xml; charset=x-unknown",
  'application/soap+xml; action="http://api.example.com/messages/DeleteMessage"',
  "application/x-www-form-urlencoded",
  "application/json",
  "",
];

function bytes(b: Buffer, f: (arr: number[]) => void): Buffer {
  const arr = [...b];
  f(arr);
  return Buffer.from(arr);
}

/**
 * The mutations: each takes a request and returns a changed one (and whether to keep its length).
 */
const MUTATIONS: readonly ((r: RequestParts) => [RequestParts, boolean?])[] = [
  (r) => [{ ...r, body: bytes(r.body, (a) => (a[rand(a.length || 1)] = rand(256))) }],
  (r) => {
    const at = rand(r.body.length + 1);
    const text = Buffer.from(pick(NASTY));
    return [{ ...r, body: Buffer.concat([r.body.subarray(0, at), text, r.body.subarray(at)]) }];
  },
  (r) => {
    const a = rand(r.body.length + 1);
    return [{ ...r, body: Buffer.concat([r.body.subarray(0, a), r.body.subarray(a + rand(40))]) }];
  },
  (r) => [{ ...r, body: r.body.subarray(0, rand(r.body.length + 1)) }],
  (r) => {
    const a = rand(r.body.length + 1);
    const piece = r.body.subarray(a, a + rand(200));
    return [
      { ...r, body: Buffer.concat([r.body.subarray(0, a), piece, piece, r.body.subarray(a)]) },
    ];
  },
  (r) => [
    { ...r, body: Buffer.from(r.body.toString("latin1").replace(/>[^<]*</, `>${pick(NASTY)}<`)) },
  ],
  (r) => [
    {
      ...r,
      headers: r.headers.map(([k, v]) => [k, /^content-type$/i.test(k) ? pick(CONTENT_TYPES) : v]),
    },
  ],
  (r) => [{ ...r, headers: [...r.headers, ["SOAPAction", `"${pick(NASTY).slice(0, 300)}"`]] }],
  (r) => [
    {
      ...r,
      headers: [
        ...r.headers.filter(([k]) => !/^content-length$/i.test(k)),
        ["Content-Length", String(rand(r.body.length + 50))],
      ],
    },
    true,
  ],
  (r) => [
    {
      ...r,
      headers: [...r.headers, ["Transfer-Encoding", "chunked"]],
      body: Buffer.concat([
        Buffer.from(`${rand(2) ? "zz" : (r.body.length + 5).toString(16)}\r\n`),
        r.body,
        Buffer.from("\r\n0\r\n\r\n"),
      ]),
    },
  ],
  (r) => {
    const [method, target, version] = r.line.split(" ");
    const at = rand((target?.length ?? 0) + 1);
    const t = `${target!.slice(0, at)}${pick(["%", "[", "//", "?", "&", "%00", "\u00e9", "=", "?wsdl=9", "?disco"])}${target!.slice(at)}`;
    return [
      {
        ...r,
        line: `${rand(4) ? method : pick(["PUT", "HEAD", "DELETE", "GET", "POST"])} ${t} ${version}`,
      },
    ];
  },
  (r) => [{ ...r, body: Buffer.from(r.body.toString("utf8"), rand(2) ? "utf16le" : "latin1") }],
];

function mutate(r: RequestParts): Buffer {
  let current = r;
  let keep = false;
  for (let k = 0, n = 1 + rand(3); k < n; k++) {
    const [next, keepLength] = pick(MUTATIONS)(current);
    current = next;
    keep ||= keepLength === true;
  }
  return join(current, keep);
}

/** The message id of a delete request, read as the service reads it, if it is one. */
function deletedId(request: Buffer): number | undefined {
  const text = request.toString("latin1");
  if (!text.includes("DeleteMessage")) return undefined;
  const soap = /<(?:[\w.-]+:)?MessageId>([^<]*)</.exec(text)?.[1];
  const target = /^\S+ (\S+)/.exec(text)?.[1] ?? "";
  const form = `${target.slice(target.indexOf("?") + 1)}&${text.slice(text.indexOf("\r\n\r\n") + 4)}`;
  let param: string | undefined;
  for (const [k, v] of new URLSearchParams(form)) if (k.toLowerCase() === "messageid") param ??= v;
  const value = (soap ?? param ?? "").trim();
  return /^[+-]?\d+$/.test(value) ? Number(value) : undefined;
}

interface Tally {
  sent: number;
  /** Requests sent cut short (a body shorter than declared): not judged. */
  cutShort: number;
  /** Deletes in requests cut short and not answered 200: they may or may not have happened. */
  inDoubt: Set<number>;
  silent: number;
  bareServerErrors: number;
  stackTraces: number;
  statuses: Map<number, number>;
  acknowledged: Set<number>;
  examples: string[];
}

/** A request cut short: a GET may still be served (its body is not read), so its delete counts. */
function cutShort(t: Tally, request: Buffer, a: RawAnswer): void {
  t.cutShort++;
  const id = deletedId(request);
  if (id === undefined) return;
  if (a.status === 200) t.acknowledged.add(id);
  else t.inDoubt.add(id);
}

function judge(t: Tally, request: Buffer, a: RawAnswer): void {
  t.sent++;
  t.statuses.set(a.status, (t.statuses.get(a.status) ?? 0) + 1);
  const note = (what: string) =>
    t.examples.length < 5 &&
    t.examples.push(`${what}: ${request.toString("latin1").slice(0, 160)}`);
  if (a.status === 0) {
    t.silent++;
    note("no answer");
    if (process.env["FUZZ_DEBUG"])
      console.log(`no answer: ${JSON.stringify(request.toString("latin1"))}`);
  }
  const soapEndpoint = /^POST \/api\.asmx[ ?]/i.test(request.toString("latin1"));
  const retry = a.status === 503 && /retry-after:/i.test(a.headers);
  if (a.status >= 500 && soapEndpoint && !retry && !/Fault>/.test(a.body)) {
    t.bareServerErrors++;
    note(`${a.status} without a fault`);
  }
  if (STACK.test(a.body)) {
    t.stackTraces++;
    note("a stack trace");
  }
  const id = deletedId(request);
  if (a.status === 200 && id !== undefined) t.acknowledged.add(id);
  else if (a.status === 200 && request.includes("DeleteMessage") && process.env["FUZZ_DEBUG"])
    console.log(`unparsed delete: ${JSON.stringify(request.toString("latin1"))}`);
}

export async function main(): Promise<number> {
  const count = option("count", 100_000);
  const seconds = option("seconds", 900);
  const requests = readdirSync(CAPTURES)
    .filter((f) => f.endsWith(".request.http"))
    .map((f) => split(readFileSync(CAPTURES + f)));
  const target = await seededTarget();
  const before = await target.rows();
  const service = await serve(target.db);
  const url = new URL(service.url);
  const t: Tally = {
    sent: 0,
    cutShort: 0,
    inDoubt: new Set(),
    silent: 0,
    bareServerErrors: 0,
    stackTraces: 0,
    statuses: new Map(),
    acknowledged: new Set(),
    examples: [],
  };
  const until = performance.now() + seconds * 1000;
  let next = 0;
  const worker = async () => {
    while (next < count && performance.now() < until && service.child.exitCode === null) {
      next++;
      const request = mutate(pick(requests));
      // A whole request must be answered; one cut short is given up on, and may go unanswered.
      const whole = isWhole(request);
      const answer = await exchange(url, request, whole ? 15_000 : 5_000, !whole);
      if (whole) judge(t, request, answer);
      else cutShort(t, request, answer);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: 16 }, worker));
  const elapsed = (performance.now() - started) / 1000;
  const crashed = service.child.exitCode !== null || service.child.signalCode !== null;
  await service.stop();
  const after = await target.rows();
  let changed = 0;
  for (const [id, row] of before) {
    const gone = after.get(id) === undefined;
    if (after.get(id) === row || (gone && (t.acknowledged.has(id) || t.inDoubt.has(id)))) continue;
    changed++;
    t.examples.push(`message ${id} changed: ${row} -> ${after.get(id) ?? "deleted"}`);
  }
  for (const id of after.keys()) if (!before.has(id)) changed++;
  const logTraces = STACK.test(service.log()) ? 1 : 0;
  const statuses = [...t.statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}:${n}`)
    .join(" ");
  console.log(
    `fuzz: ${t.sent + t.cutShort} requests (${t.cutShort} cut short, not judged) in ${elapsed.toFixed(0)} s; crashes ${crashed ? 1 : 0}, no answer ${t.silent}, 5xx without a fault ${t.bareServerErrors}, stack traces in answers ${t.stackTraces}, in the log ${logTraces}, store changes besides ${t.acknowledged.size} acknowledged deletes ${changed}, ${target.kind} sound ${await target.integrity()}; statuses ${statuses}`,
  );
  for (const e of t.examples) console.log(`  e.g. ${JSON.stringify(e)}`);
  const log = service.log();
  const trace = log.search(STACK);
  if (trace !== -1)
    console.log(`  the log: ${JSON.stringify(log.slice(Math.max(0, trace - 300), trace + 300))}`);
  const bad =
    (crashed ? 1 : 0) + t.silent + t.bareServerErrors + t.stackTraces + logTraces + changed;
  return bad === 0 && t.sent + t.cutShort >= count ? 0 : 1;
}
