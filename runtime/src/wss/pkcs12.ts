/**
 * PKCS#12 (RFC 7292) files, read with no dependency: the MAC (when the file has one) checked with
 * the PKCS#12 key derivation, then the key and certificates decrypted, whether written by OpenSSL
 * 3 by default (PBES2: PBKDF2 with HMAC-SHA-256 and AES-256-CBC) or the legacy way of Windows and
 * `openssl pkcs12 -legacy` (pbeWithSHAAnd3-KeyTripleDES-CBC for the key,
 * pbeWithSHAAnd40BitRC2-CBC for the certificates).
 */
import {
  createDecipheriv,
  createHash,
  createHmac,
  createPrivateKey,
  pbkdf2Sync,
  timingSafeEqual,
  X509Certificate,
  type KeyObject,
} from "node:crypto";
import {
  child,
  children,
  contentOf,
  DerError,
  encodedOf,
  expectTag,
  intOf,
  octetsOf,
  oidOf,
  readDer,
  TAG,
  unsignedOf,
  type Der,
} from "./der.js";
import { rc2CbcDecrypt } from "./rc2.js";

/** What a PKCS#12 file holds: a private key and its certificate (other certificates are left). */
export interface Pkcs12Contents {
  readonly key: KeyObject;
  readonly cert: X509Certificate;
}

/** A PKCS#12 file that cannot be read; `message` says why, naming the option (`what`). */
class Pkcs12Error extends Error {}

const OID = {
  data: "1.2.840.113549.1.7.1",
  envelopedData: "1.2.840.113549.1.7.3",
  encryptedData: "1.2.840.113549.1.7.6",
  keyBag: "1.2.840.113549.1.12.10.1.1",
  shroudedKeyBag: "1.2.840.113549.1.12.10.1.2",
  certBag: "1.2.840.113549.1.12.10.1.3",
  x509Certificate: "1.2.840.113549.1.9.22.1",
  pbes2: "1.2.840.113549.1.5.13",
  pbkdf2: "1.2.840.113549.1.5.12",
} as const;

/** The hashes a MAC, PBKDF2's PRF and the PKCS#12 KDF may use, by digest and HMAC OID. */
const HASHES: Readonly<Record<string, string>> = {
  "1.3.14.3.2.26": "sha1",
  "2.16.840.1.101.3.4.2.4": "sha224",
  "2.16.840.1.101.3.4.2.1": "sha256",
  "2.16.840.1.101.3.4.2.2": "sha384",
  "2.16.840.1.101.3.4.2.3": "sha512",
  "1.2.840.113549.2.7": "sha1",
  "1.2.840.113549.2.8": "sha224",
  "1.2.840.113549.2.9": "sha256",
  "1.2.840.113549.2.10": "sha384",
  "1.2.840.113549.2.11": "sha512",
};

/** PBES2's ciphers: Node's name and key length. */
const CIPHERS: Readonly<Record<string, readonly [string, number]>> = {
  "2.16.840.1.101.3.4.1.2": ["aes-128-cbc", 16],
  "2.16.840.1.101.3.4.1.22": ["aes-192-cbc", 24],
  "2.16.840.1.101.3.4.1.42": ["aes-256-cbc", 32],
  "1.2.840.113549.3.7": ["des-ede3-cbc", 24],
};

/** PKCS#12's own password-based schemes (RFC 7292 appendix C): cipher, key length, RC2 bits. */
const LEGACY: Readonly<Record<string, readonly [string, number, number]>> = {
  "1.2.840.113549.1.12.1.3": ["des-ede3-cbc", 24, 0],
  "1.2.840.113549.1.12.1.4": ["des-ede-cbc", 16, 0],
  "1.2.840.113549.1.12.1.5": ["rc2", 16, 128],
  "1.2.840.113549.1.12.1.6": ["rc2", 5, 40],
};

/** The most iterations a file may ask for: more is a way to stall whoever opens it. */
const MAX_ITERATIONS = 10_000_000;

/** What each step of reading a file is given. */
interface Reading {
  readonly passphrase: string;
  /** The option the file came in (`sign.pfx`), named in every error. */
  readonly what: string;
  /** Whether a MAC proved the passphrase right: a decryption that fails is then the file's. */
  readonly macChecked: boolean;
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Reads `pfx` with `passphrase`; `what` names it in errors (`sign.pfx`). */
export function readPkcs12(pfx: Uint8Array, passphrase: string, what: string): Pkcs12Contents {
  let bags: Bag[];
  try {
    bags = readBags(pfx, passphrase, what);
  } catch (e) {
    if (e instanceof Pkcs12Error) throw e;
    const why = e instanceof DerError ? `it is not PKCS#12 DER (${e.message})` : messageOf(e);
    throw new Pkcs12Error(`${what} cannot be read: ${why}`, { cause: e });
  }
  const keys = bags.filter((b) => b.key);
  const certs = bags.flatMap((b) => (b.cert ? [b.cert] : []));
  if (keys.length !== 1)
    throw new Pkcs12Error(`${what} holds ${keys.length} private keys; expected one`);
  const key = keys[0]!.key!;
  const cert = certs.find((c) => c.checkPrivateKey(key));
  if (!cert) throw new Pkcs12Error(`${what} holds no certificate of its private key`);
  return { key, cert };
}

interface Bag {
  readonly key?: KeyObject;
  readonly cert?: X509Certificate;
}

function readBags(pfx: Uint8Array, passphrase: string, what: string): Bag[] {
  const top = expectTag(readDer(pfx), TAG.sequence, "the PFX");
  const [version, authSafe, macData] = children(top);
  if (!version || intOf(version, 3, "the version") !== 3)
    throw new DerError("its version is not 3");
  if (oidOf(child(authSafe!, 0, "the content type")) !== OID.data)
    throw new Pkcs12Error(`${what} is signed with a public key, not a passphrase: not supported`);
  const content = octetsOf(child(child(authSafe!, 1, "the content"), 0, "the data"), "the data");
  // A file with no MAC (`openssl pkcs12 -nomac`) is read unchecked, as OpenSSL's PKCS12_parse does.
  if (macData) checkMac(macData, content, passphrase, what);
  const r: Reading = { passphrase, what, macChecked: macData !== undefined };
  const bags: Bag[] = [];
  for (const info of children(expectTag(readDer(content), TAG.sequence, "the safes")))
    bags.push(...safeBags(safeOf(info, r), r));
  return bags;
}

/** The MAC over the safes, with the key the PKCS#12 KDF derives (id 3). */
function checkMac(macData: Der, content: Buffer, passphrase: string, what: string): void {
  const [digestInfo, salt, iterations] = children(macData);
  const algorithm = child(digestInfo!, 0, "the MAC algorithm");
  const hash = hashOf(child(algorithm, 0, "the MAC algorithm"), what);
  const expected = octetsOf(child(digestInfo!, 1, "the MAC"), "the MAC");
  const n = iterations ? intOf(iterations, MAX_ITERATIONS, "the MAC's iterations") : 1;
  const size = createHash(hash).digest().length;
  const salted = octetsOf(salt!, "the MAC's salt");
  const key = pkcs12Kdf(hash, bmpPassword(passphrase), salted, 3, n, size);
  const got = createHmac(hash, key).update(content).digest();
  if (got.length !== expected.length || !timingSafeEqual(got, expected))
    throw new Pkcs12Error(`the passphrase of ${what} is wrong (its MAC does not match)`);
}

/** A safe's SafeContents, decrypted when it is encrypted. */
function safeOf(info: Der, r: Reading): Buffer {
  const type = oidOf(child(info, 0, "a safe's type"));
  const inner = child(child(info, 1, "a safe"), 0, "a safe");
  if (type === OID.data) return octetsOf(inner, "a safe");
  if (type === OID.encryptedData) return decryptSafe(inner, r);
  // Skipped, its bags would be missed unsaid: a key in it would show as "0 private keys".
  const name = type === OID.envelopedData ? `envelopedData (${type})` : type;
  throw new Pkcs12Error(
    `${r.what} holds a safe of type ${name}, which is not supported (only data and encryptedData)`,
  );
}

/** An EncryptedData's safe, decrypted. */
function decryptSafe(encryptedData: Der, r: Reading): Buffer {
  const info = child(encryptedData, 1, "the encrypted content");
  const [, algorithm, data] = children(info);
  if (!data || (data.tag !== TAG.implicit0 && data.tag !== TAG.context0))
    throw new DerError("the encrypted content is missing");
  const bytes =
    data.tag === TAG.implicit0
      ? contentOf(data)
      : Buffer.concat(children(data).map((c) => octetsOf(c, "an encrypted part")));
  return decrypt(algorithm!, bytes, r);
}

function safeBags(safe: Buffer, r: Reading): Bag[] {
  const out: Bag[] = [];
  for (const bag of children(expectTag(readDer(safe), TAG.sequence, "the bags"))) {
    const type = oidOf(child(bag, 0, "a bag's type"));
    const value = child(child(bag, 1, "a bag"), 0, "a bag");
    if (type === OID.keyBag) out.push({ key: pkcs8Key(encodedOf(value)) });
    else if (type === OID.shroudedKeyBag) {
      const algorithm = child(value, 0, "the key's algorithm");
      const plain = decrypt(algorithm, octetsOf(child(value, 1, "the key"), "the key"), r);
      out.push({ key: pkcs8Key(plain) });
    } else if (
      type === OID.certBag &&
      oidOf(child(value, 0, "the certificate type")) === OID.x509Certificate
    ) {
      const der = octetsOf(
        child(child(value, 1, "the certificate"), 0, "the certificate"),
        "the certificate",
      );
      out.push({ cert: new X509Certificate(der) });
    }
  }
  return out;
}

const pkcs8Key = (der: Buffer): KeyObject =>
  createPrivateKey({ key: der, format: "der", type: "pkcs8" });

/** Decrypts `data` by the AlgorithmIdentifier `algorithm`. */
function decrypt(algorithm: Der, data: Buffer, r: Reading): Buffer {
  const oid = oidOf(child(algorithm, 0, "an encryption algorithm"));
  const params = child(algorithm, 1, "an encryption algorithm's parameters");
  const legacy = LEGACY[oid];
  if (!legacy && oid !== OID.pbes2)
    throw new Pkcs12Error(`${r.what} is encrypted by ${oid}, which is not supported`);
  try {
    return legacy ? pkcs12Pbe(legacy, params, data, r.passphrase) : pbes2(params, data, r);
  } catch (e) {
    if (e instanceof Pkcs12Error || e instanceof DerError) throw e;
    // Without a MAC, a wrong passphrase shows only as bad padding (or as garbage).
    const why = r.macChecked
      ? messageOf(e)
      : "the passphrase is wrong, or the file is damaged (it has no MAC to tell which)";
    throw new Pkcs12Error(`${r.what} cannot be decrypted: ${why}`, { cause: e });
  }
}

function pbes2(params: Der, data: Buffer, r: Reading): Buffer {
  const [kdf, scheme] = children(params);
  if (oidOf(child(kdf!, 0, "the key derivation")) !== OID.pbkdf2)
    throw new Pkcs12Error(`${r.what} uses a PBES2 key derivation other than PBKDF2: not supported`);
  const p = children(child(kdf!, 1, "PBKDF2's parameters"));
  const salt = octetsOf(p[0]!, "PBKDF2's salt");
  const iterations = intOf(p[1]!, MAX_ITERATIONS, "PBKDF2's iterations");
  // keyLength is optional and precedes the PRF; the PRF defaults to HMAC-SHA-1.
  const prf = p.slice(2).find((d) => d.tag === TAG.sequence);
  const hash = prf ? hashOf(child(prf, 0, "the PRF"), r.what) : "sha1";
  const cipherOid = oidOf(child(scheme!, 0, "the cipher"));
  const cipher = CIPHERS[cipherOid];
  if (!cipher)
    throw new Pkcs12Error(
      `${r.what} is encrypted by the PBES2 cipher ${cipherOid}, which is not supported`,
    );
  const iv = octetsOf(child(scheme!, 1, "the IV"), "the IV");
  const key = pbkdf2Sync(Buffer.from(r.passphrase, "utf8"), salt, iterations, cipher[1], hash);
  const d = createDecipheriv(cipher[0], key, iv);
  return Buffer.concat([d.update(data), d.final()]);
}

function pkcs12Pbe(
  [cipher, keyLength, rc2Bits]: readonly [string, number, number],
  params: Der,
  data: Buffer,
  passphrase: string,
): Buffer {
  const salt = octetsOf(child(params, 0, "the salt"), "the salt");
  const n = intOf(child(params, 1, "the iterations"), MAX_ITERATIONS, "the iterations");
  const password = bmpPassword(passphrase);
  const key = pkcs12Kdf("sha1", password, salt, 1, n, keyLength);
  const iv = pkcs12Kdf("sha1", password, salt, 2, n, 8);
  if (cipher === "rc2") return rc2CbcDecrypt(key, rc2Bits, iv, data);
  // Two-key 3DES is three-key 3DES with the first key again.
  const k = cipher === "des-ede-cbc" ? Buffer.concat([key, key.subarray(0, 8)]) : key;
  const d = createDecipheriv("des-ede3-cbc", k, iv);
  return Buffer.concat([d.update(data), d.final()]);
}

function hashOf(oidElement: Der, what: string): string {
  const oid = oidOf(oidElement);
  const hash = HASHES[oid];
  if (!hash) throw new Pkcs12Error(`${what} uses the hash ${oid}, which is not supported`);
  return hash;
}

/** A passphrase as PKCS#12 takes it: big-endian UTF-16 and two zero bytes. */
function bmpPassword(passphrase: string): Buffer {
  const b = Buffer.alloc(passphrase.length * 2 + 2);
  for (let i = 0; i < passphrase.length; i++) b.writeUInt16BE(passphrase.charCodeAt(i), i * 2);
  return b;
}

/** The key derivation of RFC 7292 appendix B.2: `n` bytes for purpose `id` (1 key, 2 IV, 3 MAC). */
function pkcs12Kdf(
  hash: string,
  password: Buffer,
  salt: Buffer,
  id: number,
  iterations: number,
  n: number,
): Buffer {
  const v = hash === "sha384" || hash === "sha512" ? 128 : 64;
  const fill = (b: Buffer): Buffer => {
    if (b.length === 0) return Buffer.alloc(0);
    const out = Buffer.alloc(v * Math.ceil(b.length / v));
    for (let i = 0; i < out.length; i++) out[i] = b[i % b.length]!;
    return out;
  };
  const i = Buffer.concat([fill(salt), fill(password)]);
  const d = Buffer.alloc(v, id);
  const out: Buffer[] = [];
  for (let got = 0; got < n;) {
    let a = createHash(hash).update(d).update(i).digest();
    for (let r = 1; r < iterations; r++) a = createHash(hash).update(a).digest();
    out.push(a);
    got += a.length;
    const b = unsignedOf(fill(a).subarray(0, v)) + 1n;
    for (let j = 0; j < i.length; j += v) {
      const sum = (unsignedOf(i.subarray(j, j + v)) + b) % (1n << BigInt(v * 8));
      Buffer.from(sum.toString(16).padStart(v * 2, "0"), "hex").copy(i, j);
    }
  }
  return Buffer.concat(out).subarray(0, n);
}
