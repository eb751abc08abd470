/**
 * `npm run bench`: speed and memory as ratios against peers measured in the same run.
 *  1. Client decode: a SOAP 1.1 GetMessages response of 10,000 messages, ours against node-soap.
 *  2. Server: GetMessages returning 100 messages, ours against node-soap (SOAP 1.1) and against a bare
 *     node:http server answering precomputed bytes; compared by server CPU time per request.
 * Everything runs on loopback and stops by itself.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import autocannon from "autocannon";
import { messages, NS, soapResponse, SOAP_REQUEST } from "./data.js";
import { fmt, median, ratio, runWorker } from "./util.js";

const quick = process.argv.includes("--quick");

async function decodeBench(): Promise<void> {
  const body = Buffer.from(soapResponse(messages(10_000)));
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "Content-Type": "text/xml; charset=utf-8", "Content-Length": body.length }).end(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api.asmx`;
  type R = { times: number[]; maxRssMiB: number; count: number; firstId: number; lastId: number };
  const runs = quick ? 2 : 5;
  const results: Record<string, R[]> = { ours: [], "node-soap": [], fetch: [] };
  for (let round = 0; round < 2; round++) {
    for (const kind of ["ours", "node-soap", "fetch"]) results[kind]!.push(await runWorker<R>("bench/decode-worker.ts", [kind, url, String(runs)]));
  }
  server.close();
  const ours = results["ours"]!;
  const peer = results["node-soap"]!;
  if (ours[0]!.count !== 10_000 || peer[0]!.count !== 10_000 || ours[0]!.firstId !== peer[0]!.firstId || ours[0]!.lastId !== peer[0]!.lastId) {
    throw new Error(`the clients disagree: ours ${JSON.stringify(ours[0])}, node-soap ${JSON.stringify(peer[0])}`);
  }
  const t = (k: string) => median(results[k]!.flatMap((r) => r.times));
  const mem = (k: string) => median(results[k]!.map((r) => r.maxRssMiB));
  console.log(`\n1. Client: decode GetMessages of 10,000 messages (${fmt(body.length / 1048576, 2)} MiB), median of ${2 * runs} calls each, own process each`);
  console.log(`   ours        ${fmt(t("ours"))} ms   peak RSS ${fmt(mem("ours"))} MiB`);
  console.log(`   node-soap   ${fmt(t("node-soap"))} ms   peak RSS ${fmt(mem("node-soap"))} MiB`);
  console.log(`   bytes only  ${fmt(t("fetch"))} ms   peak RSS ${fmt(mem("fetch"))} MiB`);
  const speedup = t("node-soap") / t("ours");
  console.log(`   => ours is ${ratio(t("node-soap"), t("ours"))} faster than node-soap (target ≥ 5×: ${speedup >= 5 ? "met" : "NOT met"}); peak memory ${ratio(mem("ours"), mem("node-soap"))} of node-soap's (target < 1: ${mem("ours") < mem("node-soap") ? "met" : "NOT met"})`);
}

interface ServerRun {
  rps: number;
  p99: number;
  cpuPerReq: number;
  non2xx: number;
}

async function serverRun(kind: string, style: "soap" | "get", duration: number): Promise<ServerRun> {
  let child!: import("node:child_process").ChildProcess;
  let onMsg: (m: unknown) => void = () => {};
  const done = runWorker<Record<string, never>>("bench/server-worker.ts", [kind], (c) => {
    child = c;
    c.on("message", (m) => onMsg(m));
  }).catch(() => ({}));
  const port = await new Promise<number>((resolve) => (onMsg = (m) => resolve((m as { port: number }).port)));
  const base = `http://127.0.0.1:${port}/api.asmx`;
  const request =
    style === "soap"
      ? { url: base, method: "POST", headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${NS}GetMessages"` }, body: SOAP_REQUEST }
      : { url: `${base}/GetMessages?email=alice%40example.com&password=alice-pass`, method: "GET" };
  await autocannon({ ...request, connections: 10, duration: 1 }); // warm-up
  child.send("begin");
  const r = await autocannon({ ...request, connections: 10, duration });
  const usage = await new Promise<{ cpuMicros: number }>((resolve) => {
    onMsg = (m) => resolve(m as { cpuMicros: number });
    child.send("end");
  });
  await done;
  // Requests counted by the load generator over the measured window (node-soap replaces 'request' listeners).
  return { rps: r.requests.average, p99: r.latency.p99, cpuPerReq: usage.cpuMicros / r.requests.total, non2xx: r.non2xx };
}

async function serverBench(): Promise<void> {
  const duration = quick ? 2 : 6;
  console.log(`\n2. Server: GetMessages returning 100 messages, 10 connections, ${duration} s per run, each server in its own process`);
  const rows: [string, ServerRun][] = [];
  for (const [label, kind, style] of [
    ["SOAP 1.1  ours     ", "ours", "soap"],
    ["SOAP 1.1  node-soap", "node-soap", "soap"],
    ["SOAP 1.1  bare     ", "bare", "soap"],
    ["HTTP GET  ours     ", "ours", "get"],
    ["HTTP GET  bare     ", "bare", "get"],
  ] as const) {
    const r = await serverRun(kind, style, duration);
    if (r.non2xx > 0) throw new Error(`${label.trim()}: ${r.non2xx} responses were not 2xx`);
    rows.push([label, r]);
    console.log(`   ${label}  ${fmt(r.rps, 0).padStart(6)} req/s   p99 ${fmt(r.p99, 0).padStart(4)} ms   server CPU ${fmt(r.cpuPerReq, 0).padStart(5)} µs/req`);
  }
  const get = (l: string) => rows.find(([label]) => label.trim() === l)![1];
  const ours = get("SOAP 1.1  ours");
  const peer = get("SOAP 1.1  node-soap");
  const bare = get("SOAP 1.1  bare");
  console.log(`   => SOAP 1.1: node-soap uses ${ratio(peer.cpuPerReq, ours.cpuPerReq)} our CPU per request (target ≥ 5×: ${peer.cpuPerReq / ours.cpuPerReq >= 5 ? "met" : "NOT met"}); ours is ${ratio(ours.cpuPerReq, bare.cpuPerReq)} the bare server's (target ≤ 2×: ${ours.cpuPerReq <= 2 * bare.cpuPerReq ? "met" : "NOT met"}); p99 ${fmt(ours.p99, 0)} vs bare ${fmt(bare.p99, 0)} ms`);
  const gOurs = get("HTTP GET  ours");
  const gBare = get("HTTP GET  bare");
  console.log(`   => HTTP GET: ours is ${ratio(gOurs.cpuPerReq, gBare.cpuPerReq)} the bare server's CPU per request; p99 ${fmt(gOurs.p99, 0)} vs ${fmt(gBare.p99, 0)} ms`);
}

const which = process.argv.find((a) => a === "decode" || a === "server");
if (!which || which === "decode") await decodeBench();
if (!which || which === "server") await serverBench();
