/**
 * The example server's connection and time limits (examples/message-service/server.ts): over the
 * connection limit idle connections close first and then new ones get 503 with Retry-After; slow
 * headers get 408; idle keep-alive connections close; a full KDF queue answers a 503 SOAP fault
 * with Retry-After. Never silence. Real sockets on loopback, servers on port 0.
 */
import { openRaw } from "../support/raw-socket.js";
import type { Socket } from "node:net";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Kdf } from "../../examples/message-service/passwords.js";
import { scryptKdf } from "../../examples/message-service/passwords.js";
import {
  startServer,
  type RunningServer,
  type ServerOptions,
} from "../../examples/message-service/server.js";
import { BUSY } from "../../examples/message-service/service.js";
import { ALICE, BOB, SEED_PATH, tempDir } from "./helpers.js";

const running: RunningServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of running.splice(0)) await s.close();
});

async function serve(options: Partial<ServerOptions> = {}): Promise<{ url: URL; port: number }> {
  const server = await startServer({
    port: 0,
    host: "127.0.0.1",
    dbPath: path.join(tempDir(), "m.db"),
    seedPath: SEED_PATH,
    ...options,
  });
  running.push(server);
  const url = new URL(server.url);
  return { url, port: Number(url.port) };
}

/** A raw connection that collects what the server sends and notes when it closes. */
const rawConnection = (port: number) => openRaw(port, sockets);

const wsdlRequest = (keepAlive = true) =>
  `GET /api.asmx?WSDL HTTP/1.1\r\nHost: localhost\r\nConnection: ${keepAlive ? "keep-alive" : "close"}\r\n\r\n`;

const soapGetMessages = (creds: { email: string; password: string }) => {
  const body = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetMessages xmlns="http://api.example.com/messages/"><email>${creds.email}</email><password>${creds.password}</password></GetMessages></soap:Body></soap:Envelope>`;
  return {
    method: "POST",
    headers: {
      "Content-Type": "text/xml; charset=utf-8",
      SOAPAction: '"http://api.example.com/messages/GetMessages"',
    },
    body,
  };
};

describe("the connection limit", () => {
  it("closes the connection idle the longest to serve a new client", async () => {
    const { url, port } = await serve({ limits: { maxConnections: 2 } });
    const a = await rawConnection(port);
    a.socket.write(wsdlRequest());
    await a.until("</wsdl:definitions>");
    const b = await rawConnection(port);
    b.socket.write(wsdlRequest());
    await b.until("</wsdl:definitions>");
    const res = await fetch(`${url.href}?WSDL`);
    expect(res.status).toBe(200);
    await res.text();
    await a.closed;
    expect(b.socket.destroyed).toBe(false);
  });

  it("answers 503 with Retry-After when every connection is busy, and serves again after", async () => {
    const { url, port } = await serve({ limits: { maxConnections: 2 } });
    const busy = [await rawConnection(port), await rawConnection(port)];
    // Headers sent, body not: each request is in progress, waiting for its body. Node answers
    // "100 Continue" just before it hands the request over, so that says the server has it.
    for (const c of busy)
      c.socket.write(
        "POST /api.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n",
      );
    await Promise.all(busy.map((c) => c.until("100 Continue")));
    const refused = await rawConnection(port);
    refused.socket.write(wsdlRequest());
    const answer = await refused.until("\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toMatch(/\r\nRetry-After: 1\r\n/i);
    await refused.closed;
    for (const c of busy) c.socket.destroy();
    await Promise.all(busy.map((c) => c.closed));
    const res = await fetch(`${url.href}?WSDL`);
    expect(res.status).toBe(200);
  });
});

describe("time limits", () => {
  it("answers 408 to a connection whose headers do not arrive in time, and closes it", async () => {
    const { port } = await serve({ limits: { headersTimeoutMs: 200 } });
    const slow = await rawConnection(port);
    slow.socket.write("GET /api.asmx?WSDL HTTP/1.1\r\nHost: x\r\n");
    await slow.closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("closes an idle keep-alive connection after the keep-alive timeout, saying so", async () => {
    const { port } = await serve({ limits: { keepAliveTimeoutMs: 1000 } });
    const c = await rawConnection(port);
    c.socket.write(wsdlRequest());
    const head = await c.until("\r\n\r\n");
    expect(head).toMatch(/\r\nKeep-Alive: timeout=1\r\n/i);
    await c.closed;
  });

  it("refuses limits that are not integers of at least 1 (a KDF queue of 0 is allowed)", async () => {
    for (const limits of [{ maxConnections: 0 }, { headersTimeoutMs: 1.5 }])
      await expect(serve({ limits })).rejects.toThrow(/must be an integer of at least 1/);
    await expect(serve({ limits: { maxQueuedKdf: -1 } })).rejects.toThrow(
      /maxQueuedKdf must be an integer of at least 0, got -1/,
    );
  });
});

describe("the cap on concurrent KDF work", () => {
  it("answers a 503 SOAP fault with Retry-After beyond the queue, and the held login still succeeds", async () => {
    let release!: () => void;
    let entered!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const inKdf = new Promise<void>((r) => (entered = r));
    const kdf: Kdf = async (p, s) => (entered(), await held, scryptKdf(p, s));
    const { url } = await serve({
      limits: { maxConcurrentKdf: 1, maxQueuedKdf: 0 },
      auth: { kdf },
    });
    const first = fetch(url, soapGetMessages(ALICE));
    await inKdf;
    const second = await fetch(url, soapGetMessages(BOB));
    const text = await second.text();
    expect(second.status).toBe(503);
    expect(second.headers.get("retry-after")).toBe("1");
    expect(text).toContain("<faultcode>soap:Server</faultcode>");
    expect(text).toContain(BUSY);
    release();
    const ok = await first;
    expect(ok.status).toBe(200);
    expect((await ok.text()).match(/<Id>/g)).toHaveLength(5);
  });
});
