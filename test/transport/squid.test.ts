/**
 * Proxies for real: squid as a forward proxy with Basic authentication. curl checks the setup
 * first, so that a broken one is told apart from our failure.
 */
import { createServer as createHttps } from "node:https";
import type { TLSSocket } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTransport } from "../../runtime/src/transport/transport.js";
import { listen, type Loopback } from "../support/loopback.js";
import { run } from "../support/apache.js";
import { squidMissing, startSquid, type Squid } from "../support/squid.js";
import { makePki, opensslMissing, type Pki } from "../support/tls-ca.js";

const missing = squidMissing() ?? opensslMissing();
if (missing) console.warn(`skipping the squid tests: ${missing}`);

const PROXY_PASSWORD = "proxy-Pässword";

describe.skipIf(missing !== undefined)("through squid with Basic authentication", () => {
  let squid: Squid;
  let target: Loopback;
  let pki: Pki;
  let tlsUrl: string;
  let closeTls: () => Promise<void>;
  let authed: string;

  beforeAll(async () => {
    squid = await startSquid("pu", PROXY_PASSWORD);
    authed = squid.url.replace("//", `//pu:${encodeURIComponent(PROXY_PASSWORD)}@`);
    target = await listen((req, res) => res.end(`hello ${req.url}`));
    pki = makePki();
    const s = createHttps(
      { key: pki.serverKey, cert: pki.serverCert, ca: pki.ca, requestCert: true },
      (req, res) => res.end(`tls ${(req.socket as TLSSocket).getPeerCertificate().subject.CN}`),
    );
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    tlsUrl = `https://localhost:${(s.address() as { port: number }).port}/`;
    closeTls = () => new Promise((r) => (s.closeAllConnections(), s.close(() => r())));
    // Not spawnSync: the target runs in this process.
    const args = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-x", authed, target.url];
    const curl = await run("curl", args, { PATH: process.env["PATH"] });
    if (curl.code !== null && curl.stdout !== "200")
      throw new Error(`the squid setup is broken: curl through it got ${curl.stdout}`);
  });
  afterAll(async () => {
    await closeTls?.();
    await target?.close();
    await squid?.stop();
  });

  it("sends an http request through the proxy with its credentials", async () => {
    const before = squid.accessLog().length;
    const send = createTransport({ proxy: authed }, {});
    expect(await (await send(`${target.url}/a?b=1`)).text()).toBe("hello /a?b=1");
    expect(squid.accessLog().length).toBeGreaterThan(before);
  });

  it("tunnels https with CONNECT, the client certificate going through, from HTTPS_PROXY", async () => {
    const tls = { ca: pki.ca, cert: pki.clientCert, key: pki.clientKey };
    const send = createTransport({ tls }, { HTTPS_PROXY: authed });
    expect(await (await send(tlsUrl)).text()).toBe("tls test-client");
    // squid logs a tunnel when it closes, and this one is kept alive: that it goes through squid
    // shows in the 407 of the next test, for the same URL.
  });

  it("gives the proxy's 407 as an error naming it and the schemes, never the password", async () => {
    const wrong = squid.url.replace("//", "//pu:wrong-one@");
    for (const url of [target.url, tlsUrl]) {
      const e = await createTransport(
        { proxy: wrong, tls: { ca: pki.ca } },
        {},
      )(url).catch((x: unknown) => x);
      const text = String((e as Error).cause);
      expect(text).toMatch(
        /the proxy http:\/\/127\.0\.0\.1:\d+ refused .*407.*refused its credentials; it offers Basic/,
      );
      expect(text).not.toContain("wrong-one");
    }
  });

  it("goes direct for a host NO_PROXY names", async () => {
    const before = squid.accessLog().length;
    const send = createTransport({}, { http_proxy: authed, NO_PROXY: "127.0.0.1" });
    expect(await (await send(`${target.url}/direct`)).text()).toBe("hello /direct");
    // By what it names, not a count: squid logs an earlier test's kept-alive tunnel when it closes.
    expect(
      squid
        .accessLog()
        .slice(before)
        .filter((l) => l.includes("/direct")),
    ).toEqual([]);
  });
});
