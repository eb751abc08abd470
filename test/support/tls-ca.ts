/**
 * A throwaway certificate authority made by openssl: a server certificate for localhost and
 * 127.0.0.1 and a client certificate, both signed by it, for the TLS and client-certificate tests.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { tempDir } from "./tmp.js";

export interface Pki {
  readonly dir: string;
  readonly caPath: string;
  readonly ca: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly serverCertPath: string;
  readonly serverKeyPath: string;
  readonly clientCert: string;
  readonly clientKey: string;
  readonly clientCertPath: string;
  readonly clientKeyPath: string;
}

const EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];

/** Whether openssl can be run here (undefined when it can). */
export function opensslMissing(): string | undefined {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return undefined;
  } catch {
    return "openssl is not installed (Debian's openssl)";
  }
}

/** A CA and a server and a client certificate signed by it, in a temporary folder. */
export function makePki(): Pki {
  const dir = tempDir("pki-");
  const p = (name: string) => path.join(dir, name);
  const ssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "ignore" });
  ssl(
    "req",
    "-x509",
    ...EC,
    "-keyout",
    p("ca.key"),
    "-out",
    p("ca.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=Test CA",
  );
  const leaf = (name: string, subject: string, ext: string) => {
    writeFileSync(p(`${name}.ext`), ext);
    ssl(
      "req",
      "-new",
      ...EC,
      "-keyout",
      p(`${name}.key`),
      "-out",
      p(`${name}.csr`),
      "-subj",
      subject,
    );
    ssl(
      "x509",
      "-req",
      "-in",
      p(`${name}.csr`),
      "-CA",
      p("ca.pem"),
      "-CAkey",
      p("ca.key"),
      "-CAcreateserial",
      "-out",
      p(`${name}.pem`),
      "-days",
      "2",
      "-extfile",
      p(`${name}.ext`),
    );
  };
  leaf(
    "server",
    "/CN=localhost",
    "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n",
  );
  leaf("client", "/CN=test-client", "extendedKeyUsage=clientAuth\n");
  const read = (name: string) => readFileSync(p(name), "utf8");
  return {
    dir,
    caPath: p("ca.pem"),
    ca: read("ca.pem"),
    serverCert: read("server.pem"),
    serverKey: read("server.key"),
    serverCertPath: p("server.pem"),
    serverKeyPath: p("server.key"),
    clientCert: read("client.pem"),
    clientKey: read("client.key"),
    clientCertPath: p("client.pem"),
    clientKeyPath: p("client.key"),
  };
}
