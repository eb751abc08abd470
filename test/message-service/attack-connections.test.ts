/**
 * Issue #37, defects 7 and 2: over the connection limit the newest connection is answered 503 with
 * Retry-After, never closed without an answer (a connection just accepted is not idle); and one
 * address's slow senders hold at most its own share of connections and bodies in progress, so other
 * addresses are served. Raw sockets on loopback, from 127.0.0.2 and 127.0.0.3 as other addresses.
 */
import { openRaw } from "../support/raw-socket.js";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ALICE } from "./helpers.js";
import { serveOnSocket, soap11 } from "./wire.js";

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

/** A connection to `port` from `localAddress`, once connected. */
const open = (port: number, localAddress = "127.0.0.1") => openRaw(port, sockets, localAddress);

const wsdlRequest = "GET /api.asmx?WSDL HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";

/** A SOAP GetMessages request whose headers are sent and whose body is not, yet. */
function slowBodyHead(): string {
  const body = soap11("GetMessages", { email: ALICE.email, password: ALICE.password });
  return (
    "POST /api.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\n" +
    'SOAPAction: "http://api.example.com/messages/GetMessages"\r\n' +
    `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`
  );
}

const status = (answer: string) => /^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1];

describe("the connection limit answers, never drops (defect 7)", () => {
  it("60 simultaneous new connections against a limit of 20: each gets 200 or 503 with Retry-After", async () => {
    const { url } = await serveOnSocket({ limits: { maxConnections: 20 } });
    const port = Number(new URL(url).port);
    const all = await Promise.all(Array.from({ length: 60 }, () => open(port)));
    // Accepted, not yet sent a request: none of them is idle, so none may be closed to make room.
    await new Promise((r) => setTimeout(r, 200));
    expect(all.filter((c) => c.socket.destroyed)).toHaveLength(0);
    for (const c of all) c.socket.write(wsdlRequest);
    const answers = await Promise.all(all.map((c) => c.closed));
    const statuses = answers.map(status);
    expect(statuses.filter((s) => s === undefined)).toHaveLength(0);
    expect(statuses.filter((s) => s === "200").length).toBeGreaterThanOrEqual(20);
    for (const a of answers.filter((a) => status(a) === "503"))
      expect(a).toMatch(/\r\nRetry-After: 1\r\n/i);
  });

  it("a refused connection that sends nothing is answered 503 before it is closed", async () => {
    const { url } = await serveOnSocket({ limits: { maxConnections: 1 } });
    const port = Number(new URL(url).port);
    const first = await open(port);
    first.socket.write(slowBodyHead());
    await new Promise((r) => setTimeout(r, 100));
    const silent = await open(port);
    expect(status(await silent.closed)).toBe("503");
  });
});

describe("refused connections are bounded per address", () => {
  it("an address keeps at most its cap of refused sockets waiting; the rest are answered at once", async () => {
    const { url } = await serveOnSocket({
      trustedProxies: [],
      limits: { maxConnections: 1, maxConnectionsPerAddress: 3 },
    });
    const port = Number(new URL(url).port);
    const first = await open(port, "127.0.0.2");
    first.socket.write(slowBodyHead());
    await new Promise((r) => setTimeout(r, 100));
    const silent = await Promise.all(Array.from({ length: 8 }, () => open(port, "127.0.0.2")));
    // Well before the 2 s grace period the waiting ones get.
    const deadline = Date.now() + 1_500;
    const early = () => silent.filter((c) => status(c.received()) === "503");
    while (early().length < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    const answered = early();
    expect(answered).toHaveLength(5);
    for (const c of answered) expect(c.received()).toMatch(/\r\nRetry-After: 1\r\n/i);
    // The three waiting still get their answer, at the grace period's end.
    const waiting = silent.filter((c) => !answered.includes(c));
    expect((await Promise.all(waiting.map((c) => c.closed))).map(status)).toEqual([
      "503",
      "503",
      "503",
    ]);
  });
});

describe("one address cannot take the service from the others (defect 2)", () => {
  it("slow bodies from one address hold only its share; another address is served", async () => {
    const { url } = await serveOnSocket({
      trustedProxies: [],
      limits: { maxConnections: 40, maxConnectionsPerAddress: 10, maxBodiesPerAddress: 4 },
    });
    const port = Number(new URL(url).port);
    const attacker = await Promise.all(Array.from({ length: 45 }, () => open(port, "127.0.0.2")));
    for (const c of attacker) c.socket.write(slowBodyHead());
    // Those over the address's caps are refused with 503 at once: 35 connections, 6 bodies.
    const deadline = Date.now() + 10_000;
    const refused = () => attacker.filter((c) => status(c.received()) === "503").length;
    while (refused() < 41 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(refused()).toBe(41);
    for (const c of attacker.filter((c) => status(c.received()) === "503"))
      expect(c.received()).toMatch(/\r\nRetry-After: 1\r\n/i);
    const other = await open(port, "127.0.0.3");
    other.socket.write(wsdlRequest);
    expect(status(await other.closed)).toBe("200");
  });
});
