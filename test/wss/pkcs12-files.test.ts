/**
 * PKCS#12 files and encrypted keys that fail for a reason other than a wrong passphrase, each named
 * for what it is: a file whose MAC proves the passphrase right but whose key does not decrypt, a
 * safe of a kind not read (envelopedData), a hash or cipher not supported (named with the option),
 * a file without a MAC, and a damaged encrypted PEM key; the underlying error kept as `cause`.
 */
import { execFileSync } from "node:child_process";
import { createHmac, createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  bigIntOf,
  child,
  children,
  contentOf,
  octetsOf,
  oidOf,
  readDer,
  type Der,
} from "../../runtime/src/wss/der.js";
import { signer, x509Security } from "../../runtime/src/wss/index.js";
import { tempDir } from "../support/tmp.js";
import { makeKeys, opensslMissing, type TestKeys } from "../support/wss-keys.js";

const missing = opensslMissing();
if (missing) console.log(`wss: ${missing}; the PKCS#12 file tests are skipped.`);

const DATA = "1.2.840.113549.1.7.1";
const SHROUDED_KEY_BAG = "1.2.840.113549.1.12.10.1.2";
const CERT_BAG = "1.2.840.113549.1.12.10.1.3";

/** `openssl pkcs12 -export` of `keys` with passphrase `pw` and `args`. */
function exported(keys: TestKeys, ...args: string[]): Buffer {
  const file = path.join(tempDir("wss-p12-files-"), "out.p12");
  const base = ["pkcs12", "-export", "-inkey", keys.keyPath, "-in", keys.certPath];
  execFileSync("openssl", [...base, ...args, "-passout", "pass:pw", "-out", file]);
  return readFileSync(file);
}

/** The authenticated safe's content (a view into `pfx`) and the file's MacData. */
function authSafe(pfx: Buffer): { content: Buffer; macData: Der | undefined } {
  const [, info, macData] = children(readDer(pfx));
  return { content: octetsOf(child(child(info!, 1, "c"), 0, "d"), "data"), macData };
}

/** The ContentInfos of the file's safes. */
const safes = (pfx: Buffer): Der[] => children(readDer(authSafe(pfx).content));

/** The value of the first bag of `type` in the file's unencrypted safes. */
function bagValue(pfx: Buffer, type: string): Der {
  for (const info of safes(pfx)) {
    if (oidOf(child(info, 0, "type")) !== DATA) continue;
    const safe = octetsOf(child(child(info, 1, "safe"), 0, "safe"), "safe");
    for (const bag of children(readDer(safe)))
      if (oidOf(child(bag, 0, "bag type")) === type) return child(child(bag, 1, "bag"), 0, "bag");
  }
  throw new Error(`no bag of type ${type}`);
}

/** The file's MAC made again for "pw" (SHA-256, by OpenSSL's own PKCS12KDF), over what it holds. */
function remac(pfx: Buffer): void {
  const { content, macData } = authSafe(pfx);
  const [digestInfo, salt, iterations] = children(macData!);
  expect(oidOf(child(child(digestInfo!, 0, "alg"), 0, "oid"))).toBe("2.16.840.1.101.3.4.2.1");
  const bmp = Buffer.from("\0p\0w\0\0", "latin1").toString("hex");
  const kdf = ["kdf", "-keylen", "32", "-kdfopt", "digest:SHA256", "-kdfopt", `hexpass:${bmp}`];
  const saltHex = octetsOf(salt!, "salt").toString("hex");
  kdf.push("-kdfopt", `hexsalt:${saltHex}`, "-kdfopt", `iter:${bigIntOf(iterations!)}`);
  const out = execFileSync("openssl", [...kdf, "-kdfopt", "id:3", "PKCS12KDF"], {
    encoding: "utf8",
  });
  const key = Buffer.from(out.trim().replace(/:/g, ""), "hex");
  createHmac("sha256", key)
    .update(content)
    .digest()
    .copy(octetsOf(child(digestInfo!, 1, "m"), "m"));
}

/** What reading `pfx` with "pw" throws. */
function failure(pfx: Buffer): Error {
  try {
    signer({ pfx, passphrase: "pw" });
  } catch (e) {
    return e as Error;
  }
  throw new Error("read");
}

describe.skipIf(missing !== undefined)("PKCS#12 files that fail for another reason", () => {
  let keys: TestKeys;
  beforeAll(() => {
    keys = makeKeys("p12-files");
  });

  it("a key that does not decrypt though the MAC proves the passphrase is not called a wrong passphrase", () => {
    const pfx = exported(keys);
    const encrypted = octetsOf(child(bagValue(pfx, SHROUDED_KEY_BAG), 1, "key"), "key");
    // A bit of the next-to-last block flips the same bit of the last: its padding byte over 16.
    encrypted[encrypted.length - 17]! ^= 0x80;
    remac(pfx);
    const e = failure(pfx);
    expect(e.message).toMatch(/^sign\.pfx cannot be decrypted: .*bad decrypt/);
    expect(e.message).not.toContain("passphrase");
    expect(e.cause).toBeInstanceOf(Error);
  });

  it("a safe of type envelopedData is named, not skipped as if it held no key", () => {
    const pfx = exported(keys, "-nomac", "-keypbe", "NONE", "-certpbe", "NONE");
    const type = contentOf(child(safes(pfx)[0]!, 0, "type"));
    type[type.length - 1] = 3; // 1.2.840.113549.1.7.3, envelopedData
    expect(() => signer({ pfx, passphrase: "pw" })).toThrow(
      "sign.pfx holds a safe of type envelopedData (1.2.840.113549.1.7.3), which is not supported (only data and encryptedData)",
    );
  });

  it("an unreadable certificate is said with its cause", () => {
    const pfx = exported(keys, "-nomac", "-keypbe", "NONE", "-certpbe", "NONE");
    const der = octetsOf(child(child(bagValue(pfx, CERT_BAG), 1, "c"), 0, "c"), "cert");
    der[0] = 0x31;
    const e = failure(pfx);
    expect(e.message).toMatch(/^sign\.pfx cannot be read: (?!Error:)/);
    expect(e.cause).toBeInstanceOf(Error);
    expect(e.message).toContain((e.cause as Error).message);
  });

  it.each([
    [["-macalg", "md5"], "sign.pfx uses the hash 1.2.840.113549.2.5, which is not supported"],
    [
      ["-keypbe", "camellia-256-cbc"],
      "sign.pfx is encrypted by the PBES2 cipher 1.2.392.200011.61.1.1.1.4, which is not supported",
    ],
  ])("a form not supported (%j) is named with the option", (args, message) => {
    expect(() => signer({ pfx: exported(keys, ...args), passphrase: "pw" })).toThrow(message);
  });

  it("a file without a MAC is read; with a wrong passphrase, no MAC can say which it is", () => {
    const pfx = exported(keys, "-nomac");
    expect(signer({ pfx, passphrase: "pw" })).toBeDefined();
    expect(() => x509Security({ sign: { pfx, passphrase: "wrong" } })).toThrow(
      /^sign\.pfx cannot (be decrypted: the passphrase is wrong, or the file is damaged|be read)/,
    );
  });

  it("a damaged encrypted PEM key is not called a wrong passphrase, and keeps its cause", () => {
    const pem = createPrivateKey(keys.key)
      .export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "right" })
      .toString();
    const lines = pem.trim().split("\n");
    const cut = [...lines.slice(0, 4), lines.at(-1)!].join("\n");
    let e: Error | undefined;
    try {
      x509Security({ sign: { key: cut, cert: keys.cert, passphrase: "right" } });
    } catch (thrown) {
      e = thrown as Error;
    }
    expect(e?.message).toMatch(/^sign\.key cannot be read with sign\.passphrase \(.*\): \S/);
    expect(e?.cause).toBeInstanceOf(Error);
  });
});
