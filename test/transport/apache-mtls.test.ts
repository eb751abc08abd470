/**
 * Client certificates through a real TLS front: Apache httpd with mod_ssl and
 * `SSLVerifyClient require`, its certificates from a throwaway CA, in front of the Message
 * Retrieval Service. curl --cert checks the setup first.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, type ApiPortName } from "../../generated-samples/message-service/index.js";
import { TransportError } from "../../runtime/src/index.js";
import { apacheMissing, run, startApache, type Apache } from "../support/apache.js";
import { startMessageService } from "./fronted.js";
import { makePki, opensslMissing, type Pki } from "../support/tls-ca.js";

const missing =
  apacheMissing(["mod_ssl.so", "mod_proxy.so", "mod_proxy_http.so"]) ?? opensslMissing();
if (missing)
  console.warn(
    `skipping the client-certificate tests through Apache: ${missing}; install Debian's apache2 openssl curl (as .ci/run does)`,
  );

const ALICE = { email: "alice@example.com", password: "alice-pass" };
const PORTS: readonly ApiPortName[] = ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"];
const PASSPHRASE = "pfx-passphrase";

describe.skipIf(missing !== undefined)("client certificates through Apache mod_ssl", () => {
  let apache: Apache;
  let service: Awaited<ReturnType<typeof startMessageService>>;
  let pki: Pki;
  let endpoint: string;
  let pfx: Buffer;

  beforeAll(async () => {
    service = await startMessageService();
    pki = makePki();
    // Apache's children run as nobody when it was started as root: they read the server's key.
    chmodSync(pki.dir, 0o755);
    for (const f of readdirSync(pki.dir)) chmodSync(path.join(pki.dir, f), 0o644);
    const p12 = path.join(pki.dir, "client.p12");
    execFileSync("openssl", [
      "pkcs12",
      "-export",
      "-inkey",
      pki.clientKeyPath,
      "-in",
      pki.clientCertPath,
      "-passout",
      `pass:${PASSPHRASE}`,
      "-out",
      p12,
    ]);
    pfx = readFileSync(p12);
    const backend = new URL(service.url).origin;
    apache = await startApache(["ssl", "proxy", "proxy_http"], () =>
      [
        "SSLEngine on",
        `SSLCertificateFile ${pki.serverCertPath}`,
        `SSLCertificateKeyFile ${pki.serverKeyPath}`,
        `SSLCACertificateFile ${pki.caPath}`,
        "SSLVerifyClient require",
        "SSLVerifyDepth 2",
        `ProxyPass / ${backend}/`,
        `ProxyPassReverse / ${backend}/`,
      ].join("\n"),
    );
    endpoint = `https://127.0.0.1:${apache.port}/api.asmx`;
    const curl = (...extra: string[]) =>
      run(
        "curl",
        [
          "-s",
          "-o",
          "/dev/null",
          "-w",
          "%{http_code}",
          "--cacert",
          pki.caPath,
          ...extra,
          `${endpoint}?WSDL`,
        ],
        { PATH: process.env["PATH"] },
      );
    const reference = await curl("--cert", pki.clientCertPath, "--key", pki.clientKeyPath);
    if (reference.code !== 0 || reference.stdout !== "200")
      throw new Error(
        `the mTLS setup is broken: curl --cert got ${reference.stdout} (exit ${reference.code}) ${reference.stderr}`,
      );
    const without = await curl();
    if (without.stdout === "200")
      throw new Error("the mTLS setup is broken: curl without --cert got 200");
  });
  afterAll(async () => {
    await apache?.stop();
    await service?.close();
  });

  it.each(PORTS)("returns the messages over %s with tls: { ca, cert, key }", async (port) => {
    const tls = { ca: pki.ca, cert: pki.clientCert, key: pki.clientKey };
    const client = new ApiClient({ endpoint, port, tls });
    const lists = await Promise.all(Array.from({ length: 5 }, () => client.getMessages(ALICE)));
    for (const list of lists) expect(list?.map((m) => m?.Id)).toEqual([101, 102, 103, 104, 105]);
  });

  it("returns the messages with tls: { ca, pfx, passphrase }", async () => {
    const client = new ApiClient({ endpoint, tls: { ca: pki.ca, pfx, passphrase: PASSPHRASE } });
    expect(await client.getMessages(ALICE)).toHaveLength(5);
  });

  it("fails without a client certificate, saying the server asked for one", async () => {
    const client = new ApiClient({ endpoint, tls: { ca: pki.ca } });
    const error = await client.getMessages(ALICE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(
      /failed: the server requires a client certificate \(tls: \{ cert, key \} or \{ pfx \}\) \(ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED\)/,
    );
  });

  it("fails on a certificate nobody here trusts, naming the reason", async () => {
    const client = new ApiClient({ endpoint, tls: { cert: pki.clientCert, key: pki.clientKey } });
    const error = await client.getMessages(ALICE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/signed by a CA not trusted here \(tls: \{ ca \}\)/);
  });
});
