/**
 * The signer's key and certificate, read once when the client or handler is made: PEM text, a
 * KeyObject, or a PKCS#12 file. What is wrong is said then, naming the option: a certificate
 * where the key goes, a key that is not the certificate's, a wrong passphrase; not at the first
 * call, and not as a peer's refusal.
 */
import { createPrivateKey, KeyObject, X509Certificate } from "node:crypto";
import { readPkcs12 } from "./pkcs12.js";

/** A key and certificate as PEM (or a KeyObject and X509Certificate). */
export interface PemCredentials {
  /** The private key: PEM text (PKCS#8, PKCS#1 or SEC 1), or a KeyObject. */
  readonly key: string | Buffer | KeyObject;
  /** The private key's passphrase, when its PEM is encrypted. */
  readonly passphrase?: string;
  /** The signer's certificate: PEM (or DER). */
  readonly cert: string | Buffer | X509Certificate;
}

/** A PKCS#12 file (`.p12`, `.pfx`) holding the key and its certificate. */
export interface Pkcs12Credentials {
  /** The file's bytes, e.g. `readFileSync("client.p12")`. */
  readonly pfx: Uint8Array;
  readonly passphrase: string;
}

/** The key and certificate a message is signed with. */
export type SigningCredentials = PemCredentials | Pkcs12Credentials;

export interface LoadedCredentials {
  readonly key: KeyObject;
  readonly cert: X509Certificate;
}

/** The credentials read and checked; `what` names the option (`sign`). */
export function loadCredentials(c: SigningCredentials, what = "sign"): LoadedCredentials {
  if ("pfx" in c) {
    if (!(c.pfx instanceof Uint8Array))
      throw new TypeError(`${what}.pfx must be the bytes of a PKCS#12 file (readFileSync(...))`);
    return readPkcs12(c.pfx, c.passphrase, `${what}.pfx`);
  }
  const key = privateKey(c.key, c.passphrase, what);
  const cert = certificateOption(c.cert, `${what}.cert`);
  if (!cert.checkPrivateKey(key))
    throw new Error(
      `${what}.key is not the private key of ${what}.cert (${cert.subject.replace(/\n/g, ", ")}, serial ${cert.serialNumber}): a peer would refuse every signature`,
    );
  return { key, cert };
}

const KEY_LABELS = ["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "ENCRYPTED PRIVATE KEY"];

/** The PEM labels of `value` (`CERTIFICATE`, `PRIVATE KEY`…), none when it is not PEM text. */
function pemLabels(value: string | Buffer): string[] {
  const text = typeof value === "string" ? value : value.toString("latin1");
  return [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----/g)].map((m) => m[1]!);
}

function privateKey(
  value: string | Buffer | KeyObject,
  passphrase: string | undefined,
  what: string,
): KeyObject {
  if (value instanceof KeyObject) {
    if (value.type !== "private")
      throw new TypeError(`${what}.key is a ${value.type} key, not a private key`);
    return value;
  }
  const labels = pemLabels(value);
  if (!labels.some((l) => KEY_LABELS.includes(l))) {
    const held = labels.length ? `holds ${labels.join(", ")}` : "is not PEM text";
    throw new Error(
      `${what}.key ${held}, not a private key (PEM "-----BEGIN PRIVATE KEY-----"); a PKCS#12 file goes in ${what}.pfx`,
    );
  }
  const encrypted =
    labels.includes("ENCRYPTED PRIVATE KEY") || /Proc-Type: 4,ENCRYPTED/.test(String(value));
  if (encrypted && passphrase === undefined)
    throw new Error(`${what}.key is encrypted; give its passphrase as ${what}.passphrase`);
  try {
    return createPrivateKey({ key: value, ...(passphrase !== undefined && { passphrase }) });
  } catch (e) {
    throw new Error(keyFailure(e, encrypted, what), { cause: e });
  }
}

/** What a failure to read a private key says: a bad decrypt is the passphrase's, else the key's. */
function keyFailure(e: unknown, encrypted: boolean, what: string): string {
  const code = (e as { code?: unknown } | null)?.code;
  if (encrypted && code === "ERR_OSSL_BAD_DECRYPT")
    return `${what}.passphrase does not decrypt ${what}.key`;
  const why = e instanceof Error ? e.message : String(e);
  // A wrong passphrase passes the padding check 1 time in 256, and then gives no key.
  return encrypted
    ? `${what}.key cannot be read with ${what}.passphrase (a damaged key, or a wrong passphrase): ${why}`
    : `${what}.key cannot be read as a private key: ${why}`;
}

/** A certificate option (`sign.cert`, `verify.trust[0]`): PEM, DER or an X509Certificate. */
export function certificateOption(
  value: string | Buffer | X509Certificate,
  what: string,
): X509Certificate {
  if (value instanceof X509Certificate) return value;
  const labels = pemLabels(value);
  if (labels.length && !labels.includes("CERTIFICATE"))
    throw new Error(
      `${what} holds ${labels.join(", ")}, not a certificate (PEM "-----BEGIN CERTIFICATE-----")`,
    );
  try {
    return new X509Certificate(value);
  } catch (e) {
    throw new Error(`${what} cannot be read as an X.509 certificate (PEM or DER)`, { cause: e });
  }
}
