/**
 * Throwaway keys and certificates made by openssl for the WS-Security tests, and the independent
 * judges they are checked by: Debian's xmlsec1 and python3-xmlsec (with zeep). A judge that is not
 * installed is reported by its `…Missing` function, so its tests skip saying what to install.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { tempDir } from "./tmp.js";

export interface TestKeys {
  readonly keyPath: string;
  readonly certPath: string;
  readonly key: string;
  readonly cert: string;
}

/**
 * A new self-signed certificate and its key (RSA 2048, or EC P-256), valid for `days`, in a
 * temporary folder.
 */
export function makeKeys(
  name: string,
  o: { ec?: boolean; days?: number; subject?: string } = {},
): TestKeys {
  const dir = tempDir("wss-keys-");
  const keyPath = path.join(dir, `${name}-key.pem`);
  const certPath = path.join(dir, `${name}-cert.pem`);
  const newkey = o.ec
    ? ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
    : ["-newkey", "rsa:2048"];
  execFileSync(
    "openssl",
    ["req", "-x509", ...newkey, "-nodes", "-keyout", keyPath, "-out", certPath].concat([
      "-days",
      String(o.days ?? 2),
      "-subj",
      o.subject ?? `/CN=${name}`,
    ]),
    { stdio: "ignore" },
  );
  return {
    keyPath,
    certPath,
    key: readFileSync(keyPath, "utf8"),
    cert: readFileSync(certPath, "utf8"),
  };
}

const works = (cmd: string, ...args: string[]): boolean => {
  const r = spawnSync(cmd, args, { stdio: "ignore" });
  return r.status === 0;
};

/** Why openssl cannot make keys here, or undefined. */
export const opensslMissing = (): string | undefined =>
  works("openssl", "version") ? undefined : "openssl is not installed (apt-get install openssl)";

/** Why xmlsec1 cannot judge here, or undefined. */
export const xmlsec1Missing = (): string | undefined =>
  opensslMissing() ??
  (works("xmlsec1", "--version")
    ? undefined
    : "xmlsec1 is not installed (apt-get install xmlsec1)");

/** Debian's python3-xmlsec and python3-zeep install into the system Python. */
export const PYTHON = "/usr/bin/python3";

/** Why python3-xmlsec with zeep cannot judge here, or undefined. */
export const pythonXmlsecMissing = (): string | undefined =>
  opensslMissing() ??
  (works(PYTHON, "-c", "import xmlsec, zeep")
    ? undefined
    : "python3-xmlsec or python3-zeep is not installed (apt-get install python3-xmlsec python3-zeep)");

/**
 * xmlsec1's verdict on a signed envelope: verified with `certPath`'s key, the Ids being the `Id`
 * attributes (wsu:Id) of the elements named.
 */
export function xmlsec1Verifies(
  file: string,
  certPath: string,
  idElements: readonly string[],
): {
  ok: boolean;
  output: string;
} {
  const ids = idElements.flatMap((e) => ["--id-attr:Id", e]);
  const r = spawnSync("xmlsec1", ["--verify", "--pubkey-cert-pem", certPath, ...ids, file], {
    encoding: "utf8",
  });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

/**
 * `keys` as a PKCS#12 file written by `openssl pkcs12 -export`: as OpenSSL 3 writes it by default
 * (PBES2, AES-256-CBC, a SHA-256 MAC) or with `-legacy` (3DES for the key, RC2-40 for the
 * certificate, a SHA-1 MAC), as Windows does.
 */
export function makePkcs12(keys: TestKeys, passphrase: string, legacy: boolean): Buffer {
  const file = path.join(tempDir("wss-p12-"), legacy ? "legacy.p12" : "default.p12");
  const args = ["pkcs12", "-export", "-inkey", keys.keyPath, "-in", keys.certPath];
  if (legacy) args.push("-legacy");
  execFileSync("openssl", [...args, "-out", file, "-passout", `pass:${passphrase}`], {
    stdio: "ignore",
  });
  return readFileSync(file);
}
