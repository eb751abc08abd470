/**
 * WS-Security's cost per request: a GetMessages call (10 messages) from our client to our server in
 * one process, unsigned and signed both ways (the client signs, the server verifies and signs its
 * answer, the client verifies it), in CPU time per call, interleaved round by round; and signing
 * and verifying one request envelope alone; then what a keyless forger's worst 1 MiB message costs
 * the verifier beside an honest one (bench/wss-hostile.ts). RSA-2048 with SHA-256, keys made by
 * openssl.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { DOMParser } from "@xmldom/xmldom";
import { envelope } from "@wsdl-tsgen/runtime/internal";
import { readTree, signEnvelope, signer, Verifier, x509Security } from "@wsdl-tsgen/runtime/wss";
import { ApiClient, createApiHandler } from "../generated-samples/message-service/index.js";
import { fmt, median, ratio } from "./util.js";
import { hostileBench } from "./wss-hostile.js";

interface Keys {
  readonly key: string;
  readonly cert: string;
}

export function makeKeys(dir: string, name: string): Keys {
  const key = path.join(dir, `${name}.key`);
  const cert = path.join(dir, `${name}.pem`);
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert].concat([
      "-days",
      "2",
      "-subj",
      `/CN=${name}`,
    ]),
    { stdio: "ignore" },
  );
  return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
}

const MESSAGES = Array.from({ length: 10 }, (_, i) => ({
  Id: i,
  UserId: 1,
  DateArrived: "2024-01-01T00:00:00Z",
  Sender: "+15550100",
  MessageText: "Hello, call me back.",
}));

async function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

const url = (s: Server): string => `http://127.0.0.1:${(s.address() as AddressInfo).port}/api.asmx`;

/** CPU microseconds per call of `calls` sequential calls. */
async function cpuPerCall(client: ApiClient, calls: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) await client.getMessages({ email: "a", password: "b" });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

/** Microseconds per run of `f`, the median of `rounds` batches of `n`. */
function microsPerOp(f: () => void, n: number, rounds: number): number {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    for (let i = 0; i < n; i++) f();
    times.push(((performance.now() - t) * 1000) / n);
  }
  return median(times);
}

export async function wssBench(o: { rounds: number; calls: number }): Promise<void> {
  console.log("\n## WS-Security: sign and verify per request (RSA-2048, SHA-256)");
  const dir = mkdtempSync(path.join(tmpdir(), "bench-wss-"));
  try {
    const [c, s] = [makeKeys(dir, "client"), makeKeys(dir, "server")];
    const impl = {
      getMessages: () => MESSAGES,
      getMessagesInDateRange: () => [],
      deleteMessage: () => undefined,
    };
    const serverSecurity = x509Security({ sign: s, verify: { trust: [c.cert] } });
    const plain = await listen(createApiHandler(impl));
    const signed = await listen(createApiHandler(impl, { security: serverSecurity }));
    const clientSecurity = x509Security({ sign: c, verify: { trust: [s.cert] } });
    const clients = {
      unsigned: new ApiClient({ endpoint: url(plain) }),
      signed: new ApiClient({ endpoint: url(signed), security: clientSecurity }),
    };
    const results = { unsigned: [] as number[], signed: [] as number[] };
    await cpuPerCall(clients.unsigned, 50);
    await cpuPerCall(clients.signed, 50);
    for (let r = 0; r < o.rounds; r++)
      for (const k of ["unsigned", "signed"] as const)
        results[k].push(await cpuPerCall(clients[k], o.calls));
    plain.close();
    signed.close();
    const [u, g] = [median(results.unsigned), median(results.signed)];
    console.log(
      `  GetMessages, client and server in one process, CPU per call (median of ${o.rounds} rounds of ${o.calls}):`,
    );
    console.log(`    unsigned                ${fmt(u, 0)} µs`);
    console.log(`    signed both ways        ${fmt(g, 0)} µs   ${ratio(g, u)} the unsigned call`);
    const request = envelope(
      "1.1",
      `<GetMessages xmlns="http://api.example.com/messages/"><email>a</email><password>b</password></GetMessages>`,
    );
    const sg = signer(c);
    const one = signEnvelope(request, sg);
    const verifier = new Verifier({ trust: [c.cert], checks: { replay: false } });
    const sign = microsPerOp(() => signEnvelope(request, sg), 100, o.rounds);
    const verify = microsPerOp(() => verifier.verify(one), 100, o.rounds);
    console.log(
      `    signing one request     ${fmt(sign, 0)} µs   ${ratio(sign, u)} the unsigned call`,
    );
    console.log(
      `    verifying one request   ${fmt(verify, 0)} µs   ${ratio(verify, u)} the unsigned call`,
    );
    parseBench(signEnvelope(answer(), sg), o.rounds);
    hostileBench(c, o.rounds);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A GetMessagesResponse of 100 messages, unsigned. */
const answer = (): string => {
  const m = `<Messages><Id>1</Id><Sender>+15550100</Sender><MessageText>Hello &amp; bye</MessageText></Messages>`;
  return envelope(
    "1.1",
    `<GetMessagesResponse xmlns="http://api.example.com/messages/">${m.repeat(100)}</GetMessagesResponse>`,
  );
};

/**
 * Reading a signed answer into the tree signatures are checked on, against @xmldom/xmldom, the
 * parser under xml-crypto (node-soap's choice): the reason the runtime reads it itself.
 */
function parseBench(signed: string, rounds: number): void {
  const ours = microsPerOp(() => readTree(signed), 200, rounds);
  const xmldom = microsPerOp(
    () => new DOMParser().parseFromString(signed, "text/xml"),
    200,
    rounds,
  );
  console.log(
    `  reading a signed 100-message answer (${(signed.length / 1024).toFixed(1)} KiB) into a tree:`,
  );
  console.log(`    ours                    ${fmt(ours, 0)} µs`);
  console.log(`    @xmldom/xmldom          ${fmt(xmldom, 0)} µs   ${ratio(xmldom, ours)} ours`);
}
