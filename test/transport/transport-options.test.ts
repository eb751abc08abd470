/**
 * What the transport does with its options before and around a request: a malformed proxy URL is
 * refused without its password, options that cannot go together are refused at construction, the
 * proxy is chosen for each URL, and credentials are sent as given (Basic's domain, a scheme's
 * challenge, the schemes a proxy offers).
 */
import { Agent } from "node:http";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTransport } from "../../runtime/src/transport/transport.js";
import { parseProxy } from "../../runtime/src/transport/proxy.js";
import {
  basicAuthorization,
  challengeToken,
  type HttpAuthentication,
} from "../../runtime/src/transport/auth.js";
import { clientFetch } from "../../runtime/src/transport/select.js";
import { basic } from "../../runtime/src/index.js";
import { listen, type Loopback } from "../support/loopback.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const c of closers.splice(0).reverse()) await c();
});

async function server(handler: Parameters<typeof listen>[0]): Promise<Loopback> {
  const lb = await listen(handler);
  closers.push(() => lb.close());
  return lb;
}

/** The error `f` throws or rejects with. */
async function errorOf(f: () => unknown): Promise<Error> {
  try {
    await f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected an error");
}

describe("a malformed proxy URL", () => {
  it("is refused when the transport is made, naming the proxy without its password", async () => {
    for (const proxy of [
      "http://puser:pa#sswd@127.0.0.1:3128",
      "http://puser:12/sswd@127.0.0.1:3128",
    ]) {
      const e = await errorOf(() => createTransport({ proxy }, {}));
      expect(e.message).toMatch(/^proxy http:\/\/127\.0\.0\.1:3128: not a valid URL/);
      expect(e.message).not.toContain("puser");
      expect(e.message).not.toContain("sswd");
      expect(e.cause).toBeUndefined();
      expect("input" in e).toBe(false);
    }
    // A '#' after a numeric password would have made user:12 the proxy.
    expect(() => parseProxy("http://user:12#ss@proxy.example:1")).toThrow(
      /^proxy http:\/\/proxy\.example:1: not a valid URL/,
    );
    expect(parseProxy("http://u:p%23ss@proxy.example:1").authorization).toBe(
      basicAuthorization("u", "p#ss"),
    );
  });

  it("from the environment, fails the request without the password or URL's own error", async () => {
    const send = createTransport({}, { http_proxy: "http://user:se/cret@127.0.0.1:1" });
    const e = await errorOf(() => send("http://service.example/"));
    expect(e.message).toMatch(/^proxy http:\/\/127\.0\.0\.1:1: not a valid URL/);
    expect(JSON.stringify({ ...e, message: e.message })).not.toContain("se/cret");
    expect(e.cause).toBeUndefined();
  });

  it("in the environment fails the client, rather than sending without the proxy", () => {
    vi.stubEnv("https_proxy", "socks5://127.0.0.1:1080");
    vi.stubEnv("no_proxy", "");
    vi.stubEnv("NO_PROXY", "");
    expect(() => clientFetch({}, "https://service.example/")).toThrow(
      /proxy socks5:\/\/127\.0\.0\.1:1080: only http:\/\/ proxies/,
    );
  });
});

describe("the proxy of each URL", () => {
  it("is used for a URL beside an endpoint that NO_PROXY exempts", async () => {
    const direct = await server((req, res) => res.end("direct"));
    const proxy = await server((req, res) => res.end(`proxied ${req.url}`));
    vi.stubEnv("http_proxy", proxy.url);
    vi.stubEnv("no_proxy", "127.0.0.1");
    vi.stubEnv("NO_PROXY", "127.0.0.1");
    const send = clientFetch({}, `${direct.url}/service.asmx`);
    expect(await (await send(`${direct.url}/a`)).text()).toBe("direct");
    const res = await send("http://elsewhere.example/b.xsd");
    expect(await res.text()).toBe("proxied http://elsewhere.example/b.xsd");
  });
});

describe("options that cannot go together", () => {
  it("refuses an agent beside tls or a proxy, at construction", async () => {
    const agent = new Agent();
    closers.push(async () => agent.destroy());
    expect(() => createTransport({ agent, tls: { ca: "x" } }, {})).toThrow(
      /agent option makes its own connections, which tls would not reach/,
    );
    expect(() => createTransport({ agent, proxy: "http://127.0.0.1:1" }, {})).toThrow(
      /which proxy would not reach/,
    );
    expect(() => clientFetch({ agent, tls: { ca: "x" } }, "http://x/")).toThrow(/tls/);
    // An https target behind the environment's proxy needs a tunnel the agent cannot open.
    const send = createTransport({ agent }, { https_proxy: "http://127.0.0.1:1" });
    await expect(send("https://service.example/")).rejects.toThrow(
      /agent option cannot tunnel to service\.example through the proxy http:\/\/127\.0\.0\.1:1/,
    );
  });

  it("refuses auth, a proxy, tls and an agent where there is no node:http", () => {
    const options = { auth: basic({ username: "u", password: "p" }), tls: { ca: "x" } };
    vi.stubGlobal("process", { ...process, versions: {} });
    try {
      expect(() => clientFetch(options, "http://x/")).toThrow(/^auth, tls need the Node transport/);
      expect(() => clientFetch({ proxy: "http://p:1" }, "http://x/")).toThrow(/^proxy need/);
      expect(clientFetch({ proxy: false }, "http://x/")).toBe(globalThis.fetch);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("keeps a connection-bound handshake's connection alive beside keepAlive: false", async () => {
    // A two-message scheme whose second message is accepted on the first one's connection only.
    const started = new WeakSet<Socket>();
    const lb = await server((req, res) => {
      const auth = req.headers.authorization;
      if (auth === "Pair one") started.add(req.socket);
      if (auth === "Pair two-abc" && started.has(req.socket)) return void res.end("in");
      res.writeHead(401, { "WWW-Authenticate": auth === "Pair one" ? "Pair abc" : "Pair" }).end();
    });
    const pair: HttpAuthentication = {
      scheme: "Pair",
      connectionBound: true,
      handshake: () => ({ step: (c) => (c === undefined ? "Pair one" : `Pair two-${c}`) }),
    };
    const send = createTransport({ auth: pair, keepAlive: false }, {});
    expect(await (await send(`${lb.url}/x`)).text()).toBe("in");
  });
});

describe("credentials as sent", () => {
  it("sends Basic's domain as DOMAIN\\name, unless the name has one", async () => {
    const step = (c: Parameters<typeof basic>[0]) =>
      basic(c).handshake(new URL("http://x/")).step(undefined);
    const sent = async (c: Parameters<typeof basic>[0]) =>
      Buffer.from((await step(c)).replace(/^Basic /, ""), "base64").toString("utf8");
    expect(await sent({ username: "alice", password: "p", domain: "CORP" })).toBe("CORP\\alice:p");
    expect(await sent({ username: "EU\\alice", password: "p", domain: "CORP" })).toBe(
      "EU\\alice:p",
    );
    expect(await sent({ username: "alice", password: "p" })).toBe("alice:p");
  });

  it("reads a challenge of a scheme whose name holds regular-expression characters", () => {
    expect(challengeToken(["A+B tok"], "A+B")).toBe("tok");
    expect(challengeToken(["AAB tok"], "A+B")).toBeUndefined();
  });

  it("names every scheme a proxy's 407 offers", async () => {
    const proxy = await server((req, res) => {
      res.writeHead(407, { "Proxy-Authenticate": ["Negotiate", 'Basic realm="p"'] }).end();
    });
    const send = createTransport({ proxy: proxy.url }, {});
    const e = await errorOf(() => send("http://service.example/"));
    expect(String(e.cause)).toMatch(
      /no proxy credentials were given; it offers Negotiate, Basic\)/,
    );
  });
});
