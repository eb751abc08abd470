/**
 * The client signs its SOAP 1.1 and 1.2 requests (ClientOptions.security with x509Security), and
 * Debian's xmlsec1, an implementation independent of ours, verifies what a loopback server
 * captured: RSA-SHA256 with SHA-256 digests by default, RSA-SHA1 and SHA-1 only when asked, ECDSA,
 * and a WS-Addressing header signed on request. A captured request changed after signing is
 * refused by the same judge, so its verdict can fail.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../generated-samples/message-service/index.js";
import { envelope } from "../../runtime/src/internal.js";
import { x509Security, type X509SecurityOptions } from "../../runtime/src/wss/index.js";
import { recordingServer, type Loopback, type RecordedRequest } from "../support/loopback.js";
import { tempDir } from "../support/tmp.js";
import { makeKeys, xmlsec1Missing, xmlsec1Verifies, type TestKeys } from "../support/wss-keys.js";

const missing = xmlsec1Missing();
if (missing) console.log(`wss: ${missing}; the xmlsec1 tests are skipped.`);

const NS = "http://api.example.com/messages/";
const WSA = "http://www.w3.org/2005/08/addressing";

describe.skipIf(missing !== undefined)("client signatures, judged by xmlsec1", () => {
  let rsa: TestKeys;
  let ec: TestKeys;
  let server: Loopback & { requests: RecordedRequest[] };
  const dir = (): string => tempDir("wss-captured-");

  beforeAll(async () => {
    rsa = makeKeys("client");
    ec = makeKeys("client-ec", { ec: true });
    server = await recordingServer((req, res) => {
      const soap12 = String(req.headers["content-type"]).startsWith("application/soap+xml");
      res.setHeader("Content-Type", soap12 ? "application/soap+xml" : "text/xml");
      res.end(envelope(soap12 ? "1.2" : "1.1", `<GetMessagesResponse xmlns="${NS}"/>`));
    });
  });
  afterAll(() => server.close());

  /** Calls GetMessages signed with `o`, and gives the request the server captured, in a file. */
  async function captured(port: "ApiSoap" | "ApiSoap12", o: X509SecurityOptions, extra = "") {
    const client = new ApiClient({
      endpoint: `${server.url}/api.asmx`,
      port,
      security: x509Security(o),
      extraSoapHeaders: extra,
    });
    await client.getMessages({ email: "a&b@example.com", password: "p<w>" });
    const file = path.join(dir(), "request.xml");
    writeFileSync(file, server.requests.at(-1)!.body);
    return { file, text: server.requests.at(-1)!.body.toString("utf8") };
  }

  it.each(["ApiSoap", "ApiSoap12"] as const)(
    "%s: RSA-SHA256 and SHA-256 by default",
    async (port) => {
      const { file, text } = await captured(port, { sign: { key: rsa.key, cert: rsa.cert } });
      expect(text).toContain('Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"');
      expect(text).toContain('Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"');
      expect(text).not.toContain("xmldsig#sha1");
      const verdict = xmlsec1Verifies(file, rsa.certPath, ["Body", "Timestamp"]);
      expect(verdict.output).toContain("SignedInfo References (ok/all): 2/2");
      expect(verdict.ok, verdict.output).toBe(true);
    },
  );

  it("RSA-SHA1 and SHA-1 only when asked", async () => {
    const o = {
      sign: { key: rsa.key, cert: rsa.cert },
      signature: "rsa-sha1",
      digest: "sha1",
    } as const;
    const { file, text } = await captured("ApiSoap", o);
    expect(text).toContain('Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1"');
    expect(text).toContain('Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"');
    const verdict = xmlsec1Verifies(file, rsa.certPath, ["Body", "Timestamp"]);
    expect(verdict.ok, verdict.output).toBe(true);
  });

  it("ECDSA with an EC key", async () => {
    const { file, text } = await captured("ApiSoap12", { sign: { key: ec.key, cert: ec.cert } });
    expect(text).toContain("xmldsig-more#ecdsa-sha256");
    const verdict = xmlsec1Verifies(file, ec.certPath, ["Body", "Timestamp"]);
    expect(verdict.ok, verdict.output).toBe(true);
  });

  it("signs a WS-Addressing header when asked", async () => {
    const to = `<wsa:To xmlns:wsa="${WSA}">urn:to</wsa:To>`;
    const o = {
      sign: { key: rsa.key, cert: rsa.cert },
      signedHeaders: [{ ns: WSA, local: "To" }],
    };
    const { file } = await captured("ApiSoap", o, to);
    const verdict = xmlsec1Verifies(file, rsa.certPath, ["Body", "Timestamp", `${WSA}:To`]);
    expect(verdict.output).toContain("SignedInfo References (ok/all): 3/3");
    expect(verdict.ok, verdict.output).toBe(true);
  });

  it("a request changed after signing is refused by the same judge", async () => {
    const { text } = await captured("ApiSoap", { sign: { key: rsa.key, cert: rsa.cert } });
    const file = path.join(dir(), "changed.xml");
    writeFileSync(file, text.replace("a&amp;b@example.com", "b&amp;b@example.com"));
    expect(text).toContain("a&amp;b@example.com");
    expect(xmlsec1Verifies(file, rsa.certPath, ["Body", "Timestamp"]).ok).toBe(false);
  });
});
