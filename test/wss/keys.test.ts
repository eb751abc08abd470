/**
 * The keys users have: PKCS#12 files as `openssl pkcs12 -export` writes them by default (PBES2 with
 * AES-256-CBC) and with `-legacy` (3DES and RC2-40, as Windows writes them), read with no
 * dependency, their MAC checked (a wrong passphrase named as such); and the mistakes refused when
 * the security is made, naming the option: a key that is not the certificate's, a certificate
 * where the key goes, a key where a certificate goes, an encrypted key without its passphrase.
 */
import { spawnSync } from "node:child_process";
import { createPrivateKey, X509Certificate } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { envelope } from "../../runtime/src/internal.js";
import { rc2DecryptBlock, rc2Subkeys } from "../../runtime/src/wss/rc2.js";
import { signEnvelope, signer, Verifier, x509Security } from "../../runtime/src/wss/index.js";
import { makeKeys, makePkcs12, opensslMissing, type TestKeys } from "../support/wss-keys.js";

const missing = opensslMissing();
if (missing) console.log(`wss: ${missing}; the PKCS#12 and key tests are skipped.`);

const BODY = `<Ping xmlns="urn:ping">1</Ping>`;

describe("RC2 (RFC 2268)", () => {
  // RFC 2268 section 5's vectors: key, effective bits, plaintext, ciphertext.
  it.each([
    ["0000000000000000", 63, "0000000000000000", "ebb773f993278eff"],
    ["ffffffffffffffff", 64, "ffffffffffffffff", "278b27e42e2f0d49"],
    ["3000000000000000", 64, "1000000000000001", "30649edf9be7d2c2"],
    ["88", 64, "0000000000000000", "61a8a244adacccf0"],
    ["88bca90e90875a", 64, "0000000000000000", "6ccf4308974c267f"],
    ["88bca90e90875a7f0f79c384627bafb2", 64, "0000000000000000", "1a807d272bbe5db1"],
    ["88bca90e90875a7f0f79c384627bafb2", 128, "0000000000000000", "2269552ab0f85ca6"],
  ] as const)("key %s, %i bits", (key, bits, plain, cipher) => {
    const block = Buffer.from(cipher, "hex");
    rc2DecryptBlock(rc2Subkeys(Buffer.from(key, "hex"), bits), block, 0);
    expect(block.toString("hex")).toBe(plain);
  });
});

describe.skipIf(missing !== undefined)("PKCS#12 and key mistakes", () => {
  let rsa: TestKeys;
  let ec: TestKeys;
  let other: TestKeys;
  beforeAll(() => {
    rsa = makeKeys("p12-rsa");
    ec = makeKeys("p12-ec", { ec: true });
    other = makeKeys("p12-other");
  });

  /** What `openssl pkcs12 -info` says the file is protected with. */
  const info = (pfx: Buffer, legacy: boolean): string => {
    const args = [
      "pkcs12",
      "-info",
      "-noout",
      "-passin",
      "pass:pw",
      ...(legacy ? ["-legacy"] : []),
    ];
    const r = spawnSync("openssl", args, { input: pfx, encoding: "utf8" });
    return `${r.stdout}${r.stderr}`;
  };

  it.each([
    ["default", false, ["PBES2, PBKDF2, AES-256-CBC", "MAC: sha256"]],
    [
      "legacy",
      true,
      ["pbeWithSHA1And40BitRC2-CBC", "pbeWithSHA1And3-KeyTripleDES-CBC", "MAC: sha1"],
    ],
  ] as const)("signs with an RSA and an EC key from a %s PKCS#12 file", (_what, legacy, says) => {
    for (const keys of [rsa, ec]) {
      const pfx = makePkcs12(keys, "pw", legacy);
      for (const s of says) expect(info(pfx, legacy)).toContain(s);
      const s = signer({ pfx, passphrase: "pw" });
      const signed = signEnvelope(envelope("1.1", BODY), s);
      const verified = new Verifier({ trust: [keys.cert] }).verify(signed);
      expect(verified.signer?.fingerprint256).toBe(new X509Certificate(keys.cert).fingerprint256);
    }
  });

  it.each([false, true])("a wrong passphrase is named as such (legacy: %s)", (legacy) => {
    const pfx = makePkcs12(rsa, "pw", legacy);
    expect(() => x509Security({ sign: { pfx, passphrase: "wrong" } })).toThrow(
      "the passphrase of sign.pfx is wrong (its MAC does not match)",
    );
  });

  it("a file that is no PKCS#12 is named", () => {
    expect(() => signer({ pfx: Buffer.from(rsa.cert), passphrase: "pw" })).toThrow(
      /^sign\.pfx cannot be read: it is not PKCS#12 DER/,
    );
  });

  it("a key that is not the certificate's is refused when the security is made", () => {
    expect(() => x509Security({ sign: { key: rsa.key, cert: other.cert } })).toThrow(
      /^sign\.key is not the private key of sign\.cert \(CN=p12-other, serial [0-9A-F]+\)/,
    );
  });

  it.each([
    [
      "a certificate as the key",
      () => ({ key: rsa.cert, cert: rsa.cert }),
      /^sign\.key holds CERTIFICATE, not a private key/,
    ],
    [
      "a key as the certificate",
      () => ({ key: rsa.key, cert: rsa.key }),
      /^sign\.cert holds PRIVATE KEY, not a certificate/,
    ],
    [
      "a PKCS#12 file as the key",
      () => ({ key: makePkcs12(rsa, "pw", false), cert: rsa.cert }),
      /^sign\.key is not PEM text, not a private key .* a PKCS#12 file goes in sign\.pfx$/,
    ],
  ])("%s is refused, named", (_what, credentials, message) => {
    expect(() => x509Security({ sign: credentials() })).toThrow(message);
  });

  it("a key where a trusted certificate goes is refused, named", () => {
    expect(() => x509Security({ verify: { trust: [rsa.cert, rsa.key] } })).toThrow(
      /^verify\.trust\[1\] holds PRIVATE KEY, not a certificate/,
    );
  });

  it("an encrypted PEM key without its passphrase, or with a wrong one, is named", () => {
    const encrypted = createPrivateKey(rsa.key).export({
      type: "pkcs8",
      format: "pem",
      cipher: "aes-256-cbc",
      passphrase: "right",
    });
    const sign = { key: encrypted, cert: rsa.cert };
    expect(() => x509Security({ sign })).toThrow(
      "sign.key is encrypted; give its passphrase as sign.passphrase",
    );
    // A wrong passphrase gets past the padding check 1 time in 256, then named less surely.
    const said = ["w1", "w2", "w3", "w4"].map((passphrase) => {
      try {
        x509Security({ sign: { ...sign, passphrase } });
      } catch (e) {
        return (e as Error).message;
      }
    });
    for (const m of said)
      expect(m).toMatch(
        /^sign\.passphrase does not decrypt sign\.key$|^sign\.key cannot be read with/,
      );
    expect(said).toContain("sign.passphrase does not decrypt sign.key");
    expect(() => x509Security({ sign: { ...sign, passphrase: "right" } })).not.toThrow();
  });
});
