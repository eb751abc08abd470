/**
 * The Node transport on loopback: kept-alive connections, proxies (an http target sent to the
 * proxy, an https one tunnelled with CONNECT), NO_PROXY as curl reads it, client certificates and
 * private CAs, the connect time-out, opt-in retries, and Basic's wrong password.
 */
import { createServer as createHttps } from "node:https";
import { connect as netConnect, createServer as createNet, type Socket } from "node:net";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createTransport } from "../../runtime/src/transport/transport.js";
import { noProxy, proxyFor } from "../../runtime/src/transport/proxy.js";
import { retryAfterMs, withRetries } from "../../runtime/src/transport/retry.js";
import { clientFetch } from "../../runtime/src/transport/select.js";
import { AuthenticationError, basic, ntlm } from "../../runtime/src/index.js";
import { listen, type Loopback } from "../support/loopback.js";
import { makePki, opensslMissing } from "../support/tls-ca.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function server(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const lb: Loopback = await listen(handler);
  closers.push(() => lb.close());
  return lb;
}

/** A forward proxy: absolute-URI requests relayed, CONNECT tunnelled; it records what it saw. */
async function forwardProxy(requireAuth?: string) {
  const seen: { method: string; url: string; auth: string | undefined }[] = [];
  const tunnels: Socket[] = [];
  const lb = await server((req, res) => {
    seen.push({ method: req.method!, url: req.url!, auth: req.headers["proxy-authorization"] });
    if (requireAuth && req.headers["proxy-authorization"] !== requireAuth) {
      res.writeHead(407, { "Proxy-Authenticate": 'Basic realm="proxy"' }).end();
      return;
    }
    res.end(`proxied ${req.url}`);
  });
  lb.server.on("connect", (req: IncomingMessage, client: Socket) => {
    seen.push({ method: "CONNECT", url: req.url!, auth: req.headers["proxy-authorization"] });
    if (requireAuth && req.headers["proxy-authorization"] !== requireAuth) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="p"\r\n\r\n',
      );
      return;
    }
    tunnels.push(client);
    const [host, port] = req.url!.split(":");
    const upstream = netConnect(Number(port), host!, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    tunnels.push(upstream);
  });
  // Tunnels leave the HTTP server's connections: they are ended before it closes.
  closers.push(async () => tunnels.forEach((t) => t.destroy()));
  return { url: lb.url, seen };
}

describe("connections", () => {
  it("keeps connections alive between requests", async () => {
    const sockets = new Set<unknown>();
    const lb = await server((req, res) => {
      sockets.add(req.socket);
      res.end("ok");
    });
    const send = createTransport({}, {});
    for (let i = 0; i < 3; i++) expect(await (await send(`${lb.url}/x`)).text()).toBe("ok");
    expect(sockets.size).toBe(1);
  });

  it("gives a 401 to Basic credentials as an AuthenticationError naming the schemes offered", async () => {
    const lb = await server((req, res) => {
      res.writeHead(401, { "WWW-Authenticate": ["Negotiate", 'Basic realm="x"'] }).end();
    });
    const send = createTransport({ auth: basic({ username: "u", password: "p" }) }, {});
    const e = await send(lb.url).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AuthenticationError);
    expect((e as AuthenticationError).offered).toEqual(["Negotiate", "Basic"]);
  });

  it("answers a server that does not offer NTLM with an AuthenticationError, not a loop", async () => {
    let count = 0;
    const lb = await server((req, res) => {
      count++;
      res.writeHead(401, { "WWW-Authenticate": "Basic" }).end();
    });
    const send = createTransport({ auth: ntlm({ username: "u", password: "p" }) }, {});
    await expect(send(lb.url)).rejects.toThrow(/401 Unauthorized.*offers Basic/);
    expect(count).toBe(1);
  });

  it("refuses a fetch hook beside options only the transport reads", () => {
    expect(() => clientFetch({ fetch, proxy: "http://p:1" }, "http://x/")).toThrow(
      /proxy configure the built-in transport/,
    );
  });

  it("gives up a connection not made within connectTimeoutMs", async () => {
    // A proxy that accepts the connection and never answers CONNECT: the tunnel never opens.
    const held: Socket[] = [];
    let ended = 0;
    const silent = createNet((s) => {
      held.push(s);
      s.on("end", () => ended++)
        .on("error", () => {})
        .resume();
    });
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    closers.push(
      () => new Promise((r) => (held.forEach((s) => s.destroy()), silent.close(() => r()))),
    );
    const port = (silent.address() as { port: number }).port;
    const send = createTransport({ proxy: `http://127.0.0.1:${port}`, connectTimeoutMs: 200 }, {});
    const e = await send("https://service.example/").catch((x: unknown) => x);
    expect(String((e as Error).cause)).toMatch(/no connection within 200 ms/);
    // The request to the proxy is given up too.
    await new Promise((r) => setTimeout(r, 50));
    expect(held).toHaveLength(1);
    expect(ended).toBe(1);
  });
});

describe("proxies", () => {
  it("sends an http target's request to the proxy, with Basic proxy authorization", async () => {
    const target = await server((req, res) => res.end("direct"));
    const proxy = await forwardProxy(`Basic ${Buffer.from("pu:pp").toString("base64")}`);
    const send = createTransport({ proxy: proxy.url.replace("//", "//pu:pp@") }, {});
    expect(await (await send(`${target.url}/a?b=1`)).text()).toBe(`proxied ${target.url}/a?b=1`);
    expect(proxy.seen[0]?.auth).toMatch(/^Basic /);
  });

  it("gives a proxy's 407 as an error naming the proxy, without its password", async () => {
    const proxy = await forwardProxy("Basic other");
    const send = createTransport({ proxy: proxy.url.replace("//", "//pu:secret-pp@") }, {});
    const e = await send("http://service.example/").catch((x: unknown) => x);
    const text = String((e as Error).cause);
    expect(text).toMatch(
      /the proxy http:\/\/127\.0\.0\.1:\d+ refused .*407.*refused its credentials.*offers Basic/,
    );
    expect(text).not.toContain("secret-pp");
  });

  it("reads the environment as curl: http_proxy in lower case only, NO_PROXY", () => {
    const url = new URL("http://svc.corp.example:8080/x");
    expect(proxyFor(url, undefined, { HTTP_PROXY: "http://p:1" })).toBeUndefined();
    expect(proxyFor(url, undefined, { http_proxy: "p:1" })?.port).toBe(1);
    expect(proxyFor(new URL("https://a/"), undefined, { HTTPS_PROXY: "http://p:2" })?.port).toBe(2);
    expect(proxyFor(url, undefined, { ALL_PROXY: "http://p:3" })?.port).toBe(3);
    expect(proxyFor(url, false, { http_proxy: "http://p:1" })).toBeUndefined();
    expect(
      proxyFor(url, undefined, { http_proxy: "http://p:1", NO_PROXY: "corp.example" }),
    ).toBeUndefined();
    expect(noProxy(url, "*")).toBe(true);
    expect(noProxy(url, ".example")).toBe(true);
    expect(noProxy(url, "xcorp.example")).toBe(false);
    expect(noProxy(url, "svc.corp.example:8080")).toBe(true);
    expect(noProxy(url, "svc.corp.example:80")).toBe(false);
    expect(noProxy(new URL("http://10.1.2.3/"), "10.0.0.0/8")).toBe(true);
    expect(noProxy(new URL("http://11.1.2.3/"), "10.0.0.0/8")).toBe(false);
    expect(noProxy(new URL("http://[::1]:81/"), "[::1]:81")).toBe(true);
  });
});

describe.skipIf(opensslMissing() !== undefined)("TLS", () => {
  async function mtlsServer() {
    const pki = makePki();
    const s = createHttps(
      {
        key: pki.serverKey,
        cert: pki.serverCert,
        ca: pki.ca,
        requestCert: true,
        rejectUnauthorized: true,
      },
      (req, res) =>
        res.end(
          `hello ${(req.socket as import("node:tls").TLSSocket).getPeerCertificate().subject.CN}`,
        ),
    );
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    closers.push(() => new Promise((r) => (s.closeAllConnections(), s.close(() => r()))));
    return { pki, url: `https://localhost:${(s.address() as { port: number }).port}/` };
  }

  it("sends a client certificate and trusts a private CA", async () => {
    const { pki, url } = await mtlsServer();
    const send = createTransport(
      { tls: { ca: pki.ca, cert: pki.clientCert, key: pki.clientKey } },
      {},
    );
    expect(await (await send(url)).text()).toBe("hello test-client");
  });

  it("tunnels an https target through the proxy with CONNECT", async () => {
    const { pki, url } = await mtlsServer();
    const proxy = await forwardProxy();
    const tls = { ca: pki.ca, cert: pki.clientCert, key: pki.clientKey };
    const send = createTransport({ tls }, { HTTPS_PROXY: proxy.url });
    expect(await (await send(url)).text()).toBe("hello test-client");
    expect(proxy.seen[0]).toMatchObject({ method: "CONNECT", url: new URL(url).host });
  });

  it("refuses a certificate nobody trusts, and a server refuses a client without one", async () => {
    const { pki, url } = await mtlsServer();
    const untrusted = await createTransport({}, {})(url).catch((x: unknown) => x);
    expect(String((untrusted as Error).cause)).toMatch(/self-signed|unable to (get|verify)/i);
    const noCert = await createTransport(
      { tls: { ca: pki.ca } },
      {},
    )(url).then(
      async (r) => r.text(),
      (x: unknown) => x,
    );
    expect(noCert).toBeInstanceOf(Error);
  });
});

describe("retries", () => {
  const refused = () =>
    new TypeError("fetch failed", {
      cause: Object.assign(new Error("x"), { code: "ECONNREFUSED" }),
    });
  const reset = () =>
    new TypeError("fetch failed", { cause: Object.assign(new Error("x"), { code: "ECONNRESET" }) });
  const busy = () => new Response("", { status: 503, headers: { "Retry-After": "0" } });

  it("retries a refused connection, with any operation, and only as many times as asked", async () => {
    let n = 0;
    const send = async () => (++n < 3 ? Promise.reject(refused()) : new Response("ok"));
    expect((await withRetries({ retries: 2, backoffMs: 1 }, false, undefined, send)).status).toBe(
      200,
    );
    n = -10;
    await expect(
      withRetries({ retries: 2, backoffMs: 1 }, false, undefined, send),
    ).rejects.toThrow();
    expect(n).toBe(-7);
  });

  it("never retries a reset (the service may have acted), nor without retry options", async () => {
    let n = 0;
    const send = async () => (n++, Promise.reject(reset()));
    await expect(
      withRetries({ retries: 3, backoffMs: 1 }, true, undefined, send),
    ).rejects.toThrow();
    expect(n).toBe(1);
    n = 0;
    await expect(
      withRetries(undefined, true, undefined, async () => (n++, Promise.reject(refused()))),
    ).rejects.toThrow();
    expect(n).toBe(1);
  });

  it("retries a 503 with Retry-After only for an idempotent call", async () => {
    let n = 0;
    const send = async () => (++n < 2 ? busy() : new Response("ok"));
    expect((await withRetries({ backoffMs: 1 }, false, undefined, send)).status).toBe(503);
    n = 0;
    expect((await withRetries({ backoffMs: 1 }, true, undefined, send)).status).toBe(200);
    expect(retryAfterMs("120")).toBe(120_000);
    expect(retryAfterMs(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
    expect(retryAfterMs(null)).toBeUndefined();
  });

  it("does not wait longer than maxDelayMs for a Retry-After", async () => {
    let n = 0;
    const send = async () => (
      n++,
      new Response("", { status: 503, headers: { "Retry-After": "3600" } })
    );
    expect((await withRetries({ maxDelayMs: 1000 }, true, undefined, send)).status).toBe(503);
    expect(n).toBe(1);
  });
});
