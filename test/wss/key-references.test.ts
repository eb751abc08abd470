/**
 * Certificates named rather than sent (SignOptions.keyReference): by X509IssuerSerial, as WCF and
 * WSS4J do by default, by subject key identifier or by thumbprint, signed by our client and
 * verified by our server, which finds the certificate among those it trusts or was given
 * (`verify.certificates`, beside a CA in `trust`). Judges: the issuer name, serial number and SKI
 * we write are those openssl reads from the certificate; xmlsec1 verifies an IssuerSerial-signed
 * request of ours; and we verify what python3-xmlsec signs naming its certificate by
 * X509IssuerSerial, by X509SKI (as a wsse:KeyIdentifier) and as zeep's `Signature` sends it.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { X509Certificate } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ApiClient,
  createApiHandler,
  SoapFault,
} from "../../generated-samples/message-service/index.js";
import { envelope } from "../../runtime/src/internal.js";
import {
  signEnvelope,
  signer,
  Verifier,
  x509Security,
  SecurityRefusal,
} from "../../runtime/src/wss/index.js";
import { serverPerTest } from "../support/loopback.js";
import { signerRecording } from "../support/signer-recording.js";
import { tempDir } from "../support/tmp.js";
import {
  makeKeys,
  opensslMissing,
  PYTHON,
  pythonXmlsecMissing,
  xmlsec1Missing,
  xmlsec1Verifies,
  type TestKeys,
} from "../support/wss-keys.js";

const missing = opensslMissing();
if (missing) console.log(`wss: ${missing}; the key reference tests are skipped.`);
const noXmlsec1 = xmlsec1Missing();
const noPython = pythonXmlsecMissing();
if (noXmlsec1) console.log(`wss: ${noXmlsec1}; its key reference judge is skipped.`);
if (noPython) console.log(`wss: ${noPython}; its key reference judge is skipped.`);

const servers = serverPerTest(afterEach);
const BODY = `<Ping xmlns="urn:ping">1</Ping>`;
const PEER = new URL("../interop/clients/zeep_wss.py", import.meta.url).pathname;
// A comma to escape and a multi-valued RDN, as real issuer names have.
const SUBJECT = "/C=DE/O=Acme, Inc./OU=Billing+L=Berlin/CN=named client";

const openssl = (...args: string[]): string =>
  execFileSync("openssl", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });

/** A leaf certificate issued by a CA made here, and the CA's. */
function issued(): { ca: TestKeys; leaf: TestKeys } {
  const ca = makeKeys("named-ca", { subject: "/O=Acme CA/CN=Acme Issuing CA" });
  const leaf = makeKeys("named-leaf");
  const dir = tempDir("wss-issued-");
  const csr = path.join(dir, "leaf.csr");
  const certPath = path.join(dir, "leaf-cert.pem");
  openssl("req", "-new", "-key", leaf.keyPath, "-subj", "/CN=issued client", "-out", csr);
  openssl(
    ...["x509", "-req", "-in", csr, "-CA", ca.certPath, "-CAkey", ca.keyPath],
    ...["-CAcreateserial", "-days", "2", "-out", certPath],
  );
  const cert = openssl("x509", "-in", certPath);
  return { ca, leaf: { ...leaf, certPath, cert } };
}

describe.skipIf(missing !== undefined)("certificates named by reference", () => {
  let named: TestKeys;
  let stranger: TestKeys;
  beforeAll(() => {
    named = makeKeys("named", { subject: SUBJECT });
    stranger = makeKeys("stranger");
  });

  /** Our client's GetMessages to our verifying server; the request sent, the signers seen. */
  async function call(
    keys: TestKeys,
    keyReference: "issuerSerial" | "keyIdentifier" | "thumbprint",
    verify: { trust: string[]; certificates?: string[] },
  ) {
    const signers: (X509Certificate | undefined)[] = [];
    const security = x509Security({ verify });
    const lb = await servers.serve(createApiHandler(signerRecording(signers), { security }));
    const sent: string[] = [];
    const client = new ApiClient({
      endpoint: `${lb.url}/api.asmx`,
      security: x509Security({ sign: { key: keys.key, cert: keys.cert }, keyReference }),
      trace: (e) => sent.push(e.requestBody),
    });
    const outcome = await client.getMessages({ email: "a", password: "b" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    return { outcome, signers, sent: sent[0]! };
  }

  it.each(["issuerSerial", "keyIdentifier", "thumbprint"] as const)(
    "%s: no token travels, and the server finds the certificate it trusts",
    async (ref) => {
      const { outcome, signers, sent } = await call(named, ref, { trust: [named.cert] });
      expect(outcome).toBeUndefined();
      expect(sent).not.toContain("BinarySecurityToken");
      expect(sent).toContain(ref === "issuerSerial" ? "<ds:X509IssuerSerial>" : "KeyIdentifier");
      expect(signers.map((s) => s?.fingerprint256)).toEqual([
        new X509Certificate(named.cert).fingerprint256,
      ]);
    },
  );

  it.each(["issuerSerial", "keyIdentifier"] as const)(
    "%s: a certificate the server neither trusts nor was given is refused",
    async (ref) => {
      const { outcome, signers } = await call(named, ref, { trust: [stranger.cert] });
      expect(outcome).toBeInstanceOf(SoapFault);
      expect((outcome as SoapFault).message).toContain(
        "the signature names a certificate that is not among those trusted or given",
      );
      expect(signers).toEqual([]);
    },
  );

  it("a leaf named by IssuerSerial is found among `certificates` and trusted through its CA", async () => {
    const { ca, leaf } = issued();
    const verify = { trust: [ca.cert], certificates: [leaf.cert] };
    const { outcome, signers } = await call(leaf, "issuerSerial", verify);
    expect(outcome).toBeUndefined();
    expect(signers[0]?.subject).toBe("CN=issued client");
    // Given but not issued by a trusted CA: found, and refused as untrusted.
    const notIssued = await call(named, "issuerSerial", {
      trust: [ca.cert],
      certificates: [named.cert],
    });
    expect((notIssued.outcome as SoapFault).message).toContain("is not trusted");
  });

  it("the issuer name, serial number and SKI written are those openssl reads", () => {
    const signed = signEnvelope(
      envelope("1.1", BODY),
      signer({ key: named.key, cert: named.cert }, { keyReference: "issuerSerial" }),
      {},
    );
    const issuer = openssl(
      "x509",
      "-in",
      named.certPath,
      "-noout",
      "-issuer",
      "-nameopt",
      "RFC2253",
    );
    const serial = openssl("x509", "-in", named.certPath, "-noout", "-serial");
    expect(issuer.trim()).toBe("issuer=CN=named client,OU=Billing+L=Berlin,O=Acme\\, Inc.,C=DE");
    expect(signed).toContain(
      `<ds:X509IssuerName>${issuer.trim().slice("issuer=".length)}</ds:X509IssuerName>`,
    );
    const decimal = BigInt(`0x${serial.trim().slice("serial=".length)}`).toString();
    expect(signed).toContain(`<ds:X509SerialNumber>${decimal}</ds:X509SerialNumber>`);
    const ski = openssl("x509", "-in", named.certPath, "-noout", "-ext", "subjectKeyIdentifier");
    const hex = ski.split("\n")[1]!.trim().replace(/:/g, "");
    const withSki = signEnvelope(
      envelope("1.1", BODY),
      signer({ key: named.key, cert: named.cert }, { keyReference: "keyIdentifier" }),
    );
    expect(withSki).toContain(
      `>${Buffer.from(hex, "hex").toString("base64")}</wsse:KeyIdentifier>`,
    );
  });

  it("a Reference to a token with no wsu:Id names nothing, not even as #undefined", () => {
    const signed = signEnvelope(
      envelope("1.1", BODY),
      signer({ key: named.key, cert: named.cert }),
    );
    const id = /<wsse:BinarySecurityToken [^>]*wsu:Id="([^"]+)"/.exec(signed)![1]!;
    const forged = signed
      .replace(` wsu:Id="${id}"`, "")
      .replace(`URI="#${id}"`, 'URI="#undefined"');
    expect(forged).not.toContain(id);
    const verifier = new Verifier({ trust: [named.cert] });
    expect(verifier.verify(signed).signer?.subject).toContain("CN=named client");
    let refused: unknown;
    try {
      verifier.verify(forged);
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(SecurityRefusal);
    expect((refused as SecurityRefusal).message).toBe(
      "the signature names no X.509 token of the Security header",
    );
  });

  it.skipIf(noXmlsec1 !== undefined)(
    "xmlsec1 verifies an IssuerSerial-signed message of ours",
    () => {
      const signed = signEnvelope(
        envelope("1.1", BODY),
        signer({ key: named.key, cert: named.cert }, { keyReference: "issuerSerial" }),
      );
      const file = path.join(tempDir("wss-issuer-serial-"), "signed.xml");
      writeFileSync(file, signed);
      const verdict = xmlsec1Verifies(file, named.certPath, ["Body", "Timestamp"]);
      expect(verdict.ok, verdict.output).toBe(true);
      writeFileSync(file, signed.replace('urn:ping">1<', 'urn:ping">2<'));
      expect(xmlsec1Verifies(file, named.certPath, ["Body", "Timestamp"]).ok).toBe(false);
    },
  );

  describe.skipIf(noPython !== undefined)("python3-xmlsec signs, naming its certificate", () => {
    const pythonSigned = (form: string): string =>
      execFileSync(PYTHON, [PEER, "sign-ref", named.keyPath, named.certPath, form], {
        input: envelope("1.1", BODY),
        encoding: "utf8",
      });

    it.each([
      ["issuer-serial", "<X509IssuerSerial>"],
      ["ski", "X509SubjectKeyIdentifier"],
      ["x509data", "<X509Certificate>"],
    ])("%s: verified by the certificate we trust, refused by another", (form, shows) => {
      const signed = pythonSigned(form);
      expect(signed).toContain(shows);
      expect(signed).not.toContain("BinarySecurityToken");
      const verified = new Verifier({ trust: [named.cert] }).verify(signed);
      expect(verified.signer?.subject).toContain("CN=named client");
      const e = (() => {
        try {
          new Verifier({ trust: [stranger.cert] }).verify(signed);
        } catch (err) {
          return err;
        }
      })();
      expect(e).toBeInstanceOf(SecurityRefusal);
      expect((e as SecurityRefusal).reason).toBe("untrusted-certificate");
    });
  });
});
