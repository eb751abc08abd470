/**
 * Signed faults (issue 42, item 5): a server that signs its answers signs its faults, as WCF does,
 * and a verifying client gives a fault as the (typed) fault it is, saying whether its signature was
 * verified: an unsigned one is an unverified fault, not a refusal; a signed one whose signature
 * fails is a SecurityRefusal with the fault as its cause. A request the security refuses gets its
 * fault unsigned. Judge: the zeep client of docs/ws-security.md, read from the page and run, gets
 * our signed fault as a zeep Fault (it saw SignatureVerificationFailed while faults went unsigned).
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { X509Certificate } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ApiClient,
  createApiHandler,
  SoapFault,
  type ApiService,
} from "../../generated-samples/message-service/index.js";
import {
  createFeaturesHandler,
  FeaturesClient,
  InvalidOrderFault,
  XsdDateTime,
} from "../../generated-samples/xsd-features/index.js";
import { faultEnvelope } from "../../runtime/src/soap/envelope.js";
import {
  SecurityRefusal,
  signEnvelope,
  signer,
  x509Security,
} from "../../runtime/src/wss/index.js";
import { recordingServer, rejection, serverPerTest } from "../support/loopback.js";
import { tempDir } from "../support/tmp.js";
import {
  makeKeys,
  opensslMissing,
  PYTHON,
  pythonXmlsecMissing,
  type TestKeys,
} from "../support/wss-keys.js";

const missing = opensslMissing();
if (missing) console.log(`wss: ${missing}; the signed fault tests are skipped.`);
const noZeep = pythonXmlsecMissing();
if (noZeep) console.log(`wss: ${noZeep}; the zeep judge of signed faults is skipped.`);

const servers = serverPerTest(afterEach);
const MESSAGE = { Id: 7, UserId: 1, DateArrived: "2024-05-01T10:00:00Z", Sender: "Bob & Co" };

/** GetMessages answers, or throws the Client fault "No such account." for `nobody@…`. */
const service: ApiService = {
  getMessages: (input) => {
    if (input.email?.startsWith("nobody"))
      throw new SoapFault({ code: "Client", message: "No such account." });
    return [MESSAGE];
  },
  getMessagesInDateRange: () => [],
  deleteMessage: () => undefined,
};

describe.skipIf(missing !== undefined)("signed faults", () => {
  let ours: TestKeys;
  let theirs: TestKeys;
  beforeAll(() => {
    ours = makeKeys("fault-server");
    theirs = makeKeys("fault-client");
  });

  const serverSecurity = (sign = true) =>
    x509Security({
      ...(sign && { sign: { key: ours.key, cert: ours.cert } }),
      verify: { trust: [theirs.cert] },
    });
  const clientSecurity = () =>
    x509Security({
      sign: { key: theirs.key, cert: theirs.cert },
      verify: { trust: [ours.cert] },
    });

  /** Our client's GetMessages as `email`, and the answers' bodies. */
  async function call(url: string, email: string, port: "ApiSoap" | "ApiSoap12" = "ApiSoap") {
    const bodies: string[] = [];
    const client = new ApiClient({
      endpoint: `${url}/api.asmx`,
      port,
      security: clientSecurity(),
      trace: (e) => bodies.push(e.response?.body ?? ""),
    });
    const error = await client.getMessages({ email, password: "p" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    return { error, body: bodies[0]! };
  }

  it.each(["ApiSoap", "ApiSoap12"] as const)(
    "%s: the implementation's fault is signed, and given verified, with its signer",
    async (port) => {
      const lb = await servers.serve(createApiHandler(service, { security: serverSecurity() }));
      const { error, body } = await call(lb.url, "nobody@example.com", port);
      expect(body).toContain("<ds:Signature");
      expect(error).toBeInstanceOf(SoapFault);
      const f = error as SoapFault;
      expect([f.message, f.side, f.verified]).toEqual(["No such account.", "Client", true]);
      expect(f.signer?.fingerprint256).toBe(new X509Certificate(ours.cert).fingerprint256);
    },
  );

  it("a declared fault arrives as its generated class, verified", async () => {
    const handler = createFeaturesHandler(
      {
        order: () => {
          throw new InvalidOrderFault(
            { code: "Client", message: "Code is not accepted." },
            { Field: "Code", At: new XsdDateTime("2024-05-01T08:00:00Z") },
          );
        },
      },
      { security: serverSecurity() },
    );
    const lb = await servers.serve(handler);
    const client = new FeaturesClient({
      endpoint: `${lb.url}/features`,
      security: clientSecurity(),
    });
    const order = {
      Id: 1n,
      Placed: "2024-03-10T12:00:00Z",
      Price: { $value: "1", currency: "EUR" },
      Code: "x",
      Tags: [],
      Note: null,
      Markers: [],
      Attachment: [],
    };
    const f = await rejection(client.order(order as never), InvalidOrderFault);
    expect([f.faultDetail.Field, f.verified]).toEqual(["Code", true]);
    expect(f.signer?.subject).toBe("CN=fault-server");
  });

  it("an unsigned fault is given as the fault, unverified, not refused", async () => {
    const lb = await servers.serve(createApiHandler(service, { security: serverSecurity(false) }));
    const { error, body } = await call(lb.url, "nobody@example.com");
    expect(body).not.toContain("Signature");
    expect(error).toBeInstanceOf(SoapFault);
    expect([(error as SoapFault).message, (error as SoapFault).verified]).toEqual([
      "No such account.",
      false,
    ]);
    expect((error as SoapFault).signer).toBeUndefined();
  });

  /** Our verifying client, answered `answer` as a 500. */
  async function answered(answer: string, onSoapHeaders?: (h: object) => void) {
    const server = await recordingServer((_req, res) => {
      res.statusCode = 500;
      res.setHeader("Content-Type", "text/xml; charset=utf-8");
      res.end(answer);
    });
    const client = new ApiClient({
      endpoint: `${server.url}/api.asmx`,
      security: clientSecurity(),
    });
    return client
      .getMessages({ email: "a", password: "b" }, onSoapHeaders && { onSoapHeaders })
      .finally(() => server.close());
  }

  const signedFault = (keys: TestKeys): string =>
    signEnvelope(
      faultEnvelope("1.1", "soap:Client", "No such account."),
      signer({ key: keys.key, cert: keys.cert }),
    );

  it("a signed fault changed on the way is refused, the fault its cause", async () => {
    const changed = signedFault(ours).replace("No such account.", "Account closed.");
    const e = await rejection(answered(changed), SecurityRefusal);
    expect([e.reason, e.message]).toEqual([
      "digest",
      "the fault's signature failed: a signed part does not match its digest",
    ]);
    expect(e.cause).toBeInstanceOf(SoapFault);
    expect([(e.cause as SoapFault).message, (e.cause as SoapFault).verified]).toEqual([
      "Account closed.",
      false,
    ]);
  });

  it("the headers of a fault whose signature failed are not given to onSoapHeaders", async () => {
    const seen: object[] = [];
    const changed = signedFault(ours).replace("No such account.", "Account closed.");
    await rejection(
      answered(changed, (h) => seen.push(h)),
      SecurityRefusal,
    );
    expect(seen).toEqual([]);
    // A verified fault's headers are given, as an answer's are.
    await rejection(
      answered(signedFault(ours), (h) => seen.push(h)),
      SoapFault,
    );
    expect(seen).toHaveLength(1);
  });

  it("a fault made with a signer is verified: `verified` is whether it has one", () => {
    const signer = new X509Certificate(ours.cert);
    const f = new SoapFault({ code: "soap:Client", message: "m", signer });
    expect([f.verified, f.signer]).toEqual([true, signer]);
    expect(new SoapFault({ code: "soap:Client", message: "m" }).verified).toBe(false);
  });

  it("a verified request's MustUnderstand fault is signed like the others", async () => {
    const lb = await servers.serve(createApiHandler(service, { security: serverSecurity() }));
    const bodies: string[] = [];
    const client = new ApiClient({
      endpoint: `${lb.url}/api.asmx`,
      security: clientSecurity(),
      extraSoapHeaders: '<x:Odd xmlns:x="urn:odd" soap:mustUnderstand="1"/>',
      trace: (e) => bodies.push(e.response?.body ?? ""),
    });
    const f = await rejection(client.getMessages({ email: "a", password: "b" }), SoapFault);
    expect([f.code, f.verified]).toEqual(["soap:MustUnderstand", true]);
    expect(bodies[0]).toContain("<ds:Signature");
  });

  it("a fault signed by a certificate not trusted is refused", async () => {
    const e = await rejection(answered(signedFault(theirs)), SecurityRefusal);
    expect(e.reason).toBe("untrusted-certificate");
  });

  it("a request the security refuses gets its fault unsigned", async () => {
    const lb = await servers.serve(createApiHandler(service, { security: serverSecurity() }));
    const bodies: string[] = [];
    const unsigned = new ApiClient({
      endpoint: `${lb.url}/api.asmx`,
      trace: (e) => bodies.push(e.response?.body ?? ""),
    });
    const e = await rejection(unsigned.getMessages({ email: "a", password: "b" }), SoapFault);
    expect(e.message).toContain("the message is not signed");
    expect(bodies[0]).not.toContain("Signature");
  });

  describe.skipIf(noZeep !== undefined)("judged by the zeep client of docs/ws-security.md", () => {
    /** The page's zeep client, its constants set to this test's server and keys. */
    function zeepClient(wsdl: string): string {
      const doc = readFileSync(new URL("../../docs/ws-security.md", import.meta.url), "utf8");
      const marker =
        "<!-- zeep-client: run as it is by test/wss/signed-faults.test.ts -->\n```python\n";
      const start = doc.indexOf(marker);
      expect(start).toBeGreaterThan(-1);
      const code = doc.slice(start + marker.length, doc.indexOf("```\n", start + marker.length));
      const set = (text: string, name: string, value: string): string => {
        const line = new RegExp(`^${name} = ".*"$`, "m");
        expect(text).toMatch(line);
        return text.replace(line, `${name} = ${JSON.stringify(value)}`);
      };
      let out = set(code, "WSDL", wsdl);
      out = set(out, "CLIENT_KEY", theirs.keyPath);
      out = set(out, "CLIENT_CERT", theirs.certPath);
      out = set(out, "SERVICE_CERT", ours.certPath);
      const file = path.join(tempDir("wss-zeep-doc-"), "client.py");
      writeFileSync(file, out);
      return file;
    }

    /** Runs the page's client against our signing server; what it printed. */
    async function zeep(email: string): Promise<string> {
      const lb = await servers.serve(createApiHandler(service, { security: serverSecurity() }));
      let file = zeepClient(`${lb.url}/api.asmx?WSDL`);
      if (email !== "alice@example.com") {
        const code = readFileSync(file, "utf8").replace(
          'email="alice@example.com"',
          `email="${email}"`,
        );
        writeFileSync((file = `${file}.${email.split("@")[0]}.py`), code);
      }
      const { stdout } = await promisify(execFile)(PYTHON, [file], { timeout: 60_000 });
      return stdout.trim();
    }

    it("sees our signed answer", async () => {
      expect(await zeep("alice@example.com")).toBe("['Bob & Co']");
    });

    it("sees our signed fault as a zeep Fault, not a signature error", async () => {
      expect(await zeep("nobody@example.com")).toBe("fault: No such account.");
    });
  });
});
