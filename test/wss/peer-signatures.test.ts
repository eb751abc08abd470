/**
 * Signed answers, judged both ways by zeep with python3-xmlsec: zeep
 * (`zeep.wsse.signature.BinarySignature`, RSA-SHA256) calls our server, which verifies its
 * signature and signs its answer, and zeep verifies that answer with xmlsec; our client verifies
 * answers that python3-xmlsec signed, and refuses them, with a SecurityRefusal naming what failed,
 * once changed, unsigned or expired. Each judge is also shown failing: zeep with the wrong
 * certificate.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { X509Certificate } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, createApiHandler } from "../../generated-samples/message-service/index.js";
import { SecurityRefusal } from "../../runtime/src/index.js";
import { envelope } from "../../runtime/src/internal.js";
import { x509Security } from "../../runtime/src/wss/index.js";
import { recordingServer, rejection, serverPerTest } from "../support/loopback.js";
import { signerRecording } from "../support/signer-recording.js";
import { makeKeys, PYTHON, pythonXmlsecMissing, type TestKeys } from "../support/wss-keys.js";

const missing = pythonXmlsecMissing();
if (missing) console.log(`wss: ${missing}; the zeep and python3-xmlsec tests are skipped.`);

const NS = "http://api.example.com/messages/";
const PEER = new URL("../interop/clients/zeep_wss.py", import.meta.url).pathname;
const servers = serverPerTest(afterEach);

const MESSAGE = { Id: 7, UserId: 1, DateArrived: "2024-05-01T10:00:00Z", Sender: "Bob & Co" };

describe.skipIf(missing !== undefined)("signatures judged by zeep with python3-xmlsec", () => {
  let ours: TestKeys;
  let theirs: TestKeys;

  beforeAll(() => {
    ours = makeKeys("our-server");
    theirs = makeKeys("zeep-peer");
  });

  /** zeep's call, run apart: our server answers it from this process, which must not block. */
  const zeepCall = async (
    url: string,
    port: string,
    serverCert: string,
  ): Promise<Record<string, unknown>> => {
    const args = [PEER, "call", `${url}/api.asmx?WSDL`, port, theirs.keyPath, theirs.certPath];
    const { stdout } = await promisify(execFile)(PYTHON, [...args, serverCert], {
      timeout: 60_000,
    });
    return JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
  };

  it.each(["ApiSoap", "ApiSoap12"])(
    "%s: zeep's signed call is verified by our server, and our signed answer by zeep",
    async (port) => {
      const signers: (X509Certificate | undefined)[] = [];
      const security = x509Security({
        sign: { key: ours.key, cert: ours.cert },
        verify: { trust: [theirs.cert] },
      });
      const server = await servers.serve(
        createApiHandler(signerRecording(signers, [MESSAGE]), { security }),
      );
      const result = await zeepCall(server.url, port, ours.certPath);
      expect(result["error"]).toBeUndefined();
      expect(JSON.stringify(result["value"])).toContain("Bob & Co");
      expect(signers.map((c) => c?.fingerprint256)).toEqual([
        new X509Certificate(theirs.cert).fingerprint256,
      ]);
      // The same answer checked against a certificate that did not sign it fails zeep's check.
      const wrong = await zeepCall(server.url, port, theirs.certPath);
      expect(String(wrong["error"])).toContain("SignatureVerificationFailed");
    },
  );

  /** A GetMessages answer signed by python3-xmlsec (zeep's BinarySignature). */
  const pythonSigned = (version: "1.1" | "1.2"): string =>
    execFileSync(PYTHON, [PEER, "sign", theirs.keyPath, theirs.certPath], {
      input: envelope(
        version,
        `<GetMessagesResponse xmlns="${NS}"><GetMessagesResult><Messages><DateArrived>2024-05-01T10:00:00Z</DateArrived>` +
          `<UserId>1</UserId><Sender>Alice</Sender><Id>3</Id></Messages></GetMessagesResult></GetMessagesResponse>`,
      ),
      encoding: "utf8",
    });

  /** Our client, verifying against `trusted`, calling a server that answers `answer`. */
  async function callAnswered(answer: string, trusted = theirs.cert, now?: () => Date) {
    const server = await recordingServer((_req, res) => {
      res.setHeader("Content-Type", "text/xml; charset=utf-8");
      res.end(answer);
    });
    const security = x509Security({ verify: { trust: [trusted], ...(now && { now }) } });
    const client = new ApiClient({ endpoint: `${server.url}/api.asmx`, security });
    return client.getMessages({ email: "a", password: "b" }).finally(() => server.close());
  }

  it("our client verifies an answer python3-xmlsec signed", async () => {
    const answer = pythonSigned("1.1");
    expect(answer).toContain("BinarySecurityToken");
    const result = await callAnswered(answer);
    expect(result?.map((m) => m?.Sender)).toEqual(["Alice"]);
  });

  it.each([
    ["changed", (a: string) => a.replace("<Sender>Alice<", "<Sender>Mallory<"), "digest"],
    [
      "unsigned",
      () => envelope("1.1", `<GetMessagesResponse xmlns="${NS}"/>`),
      "missing-signature",
    ],
  ])("our client refuses a python3-xmlsec answer %s", async (_what, change, reason) => {
    const e = await rejection(callAnswered(change(pythonSigned("1.1"))), SecurityRefusal);
    expect(e.reason).toBe(reason);
  });

  it("our client refuses a python3-xmlsec answer signed by a certificate it does not trust", async () => {
    const e = await rejection(callAnswered(pythonSigned("1.1"), ours.cert), SecurityRefusal);
    expect(e.reason).toBe("untrusted-certificate");
  });

  it("our client refuses a python3-xmlsec answer once its Timestamp has expired", async () => {
    const later = () => new Date(Date.now() + 3_600_000);
    const e = await rejection(
      callAnswered(pythonSigned("1.1"), theirs.cert, later),
      SecurityRefusal,
    );
    expect([e.reason, e.message]).toEqual(["expired-timestamp", "the Timestamp has expired"]);
  });
});
