/**
 * A throwaway MIT Kerberos realm on a loopback port, from Debian's krb5-kdc and krb5-user: its
 * database, a user principal, `HTTP/localhost` with a keytab for Apache, and krb5kdc in the
 * foreground. The environment it gives (KRB5_CONFIG) points clients and servers at it alone.
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { daemon, freePort, gssapiProxyConf, run, waitListening } from "./apache.js";
import { tempDir } from "./tmp.js";

export const REALM = "EXAMPLE.TEST";

const TOOLS = [
  "/usr/sbin/krb5kdc",
  "/usr/sbin/kdb5_util",
  "/usr/sbin/kadmin.local",
  "/usr/bin/kinit",
];

export const KDC_MISSING_HINT =
  "install Debian's krb5-kdc krb5-admin-server krb5-user libkrb5-dev (as .ci/run does)";

/** Why a realm cannot be made here, or undefined. */
export function kdcMissing(): string | undefined {
  const absent = TOOLS.filter((p) => !existsSync(p));
  return absent.length === 0 ? undefined : `missing ${absent.join(", ")}`;
}

export interface Realm {
  readonly dir: string;
  /** KRB5_CONFIG (and KRB5_KDC_PROFILE) of the realm, for every process that takes part. */
  readonly env: Readonly<Record<string, string>>;
  /** The keytab of HTTP/localhost, readable by Apache's children. */
  readonly keytab: string;
  /** A credential cache holding `principal`'s ticket, obtained with kinit. */
  kinit(principal: string, password: string): Promise<string>;
  stop(): Promise<void>;
}

/** A realm with the user principals `users` (name and password) and HTTP/localhost, started. */
export async function startRealm(users: readonly (readonly [string, string])[]): Promise<Realm> {
  const dir = tempDir("krb5-");
  chmodSync(dir, 0o755);
  const port = await freePort();
  const p = (name: string) => path.join(dir, name);
  writeFileSync(p("krb5.conf"), krb5Conf(port));
  writeFileSync(p("kdc.conf"), kdcConf(dir, port));
  writeFileSync(p("kadm5.acl"), "");
  const env = { KRB5_CONFIG: p("krb5.conf"), KRB5_KDC_PROFILE: p("kdc.conf") };
  const tool = async (cmd: string, args: string[]) => {
    const r = await run(cmd, args, { PATH: process.env["PATH"], ...env });
    if (r.code !== 0) throw new Error(`${cmd} ${args[0]} failed: ${r.stderr || r.stdout}`);
  };
  // The master password only guards this throwaway database.
  await tool("/usr/sbin/kdb5_util", ["create", "-s", "-r", REALM, "-P", "master-of-a-test"]);
  const admin = (query: string) => tool("/usr/sbin/kadmin.local", ["-r", REALM, "-q", query]);
  for (const [name, password] of users) await admin(`addprinc -pw ${password} ${name}`);
  await admin("addprinc -randkey HTTP/localhost");
  await admin(`ktadd -k ${p("http.keytab")} HTTP/localhost`);
  chmodSync(p("http.keytab"), 0o644);
  const { child: kdc, output, stop } = daemon("/usr/sbin/krb5kdc", ["-n", "-r", REALM], env);
  const log = () => output() + (existsSync(p("kdc.log")) ? readFileSync(p("kdc.log"), "utf8") : "");
  await waitListening(port, kdc, log).catch(async (e: unknown) => {
    await stop();
    throw e;
  });
  let caches = 0;
  const kinit = async (principal: string, password: string) => {
    const ccache = `FILE:${p(`ccache-${++caches}`)}`;
    const r = await runWithInput("/usr/bin/kinit", ["-c", ccache, principal], env, password);
    if (r.code !== 0) throw new Error(`kinit ${principal} failed: ${r.output}`);
    return ccache;
  };
  return { dir, env, keytab: p("http.keytab"), kinit, stop };
}

function krb5Conf(port: number): string {
  return [
    "[libdefaults]",
    `  default_realm = ${REALM}`,
    "  dns_lookup_kdc = false",
    "  dns_lookup_realm = false",
    "  rdns = false",
    "  dns_canonicalize_hostname = false",
    "[realms]",
    `  ${REALM} = {`,
    `    kdc = 127.0.0.1:${port}`,
    "  }",
    "[domain_realm]",
    `  localhost = ${REALM}`,
    "",
  ].join("\n");
}

function kdcConf(dir: string, port: number): string {
  return [
    "[kdcdefaults]",
    `  kdc_ports = ${port}`,
    `  kdc_tcp_ports = ${port}`,
    "[realms]",
    `  ${REALM} = {`,
    `    database_name = ${dir}/principal`,
    `    key_stash_file = ${dir}/stash`,
    `    acl_file = ${dir}/kadm5.acl`,
    `    kdc_ports = ${port}`,
    `    kdc_tcp_ports = ${port}`,
    "  }",
    "[logging]",
    `  kdc = FILE:${dir}/kdc.log`,
    "",
  ].join("\n");
}

/** Runs `cmd` with `input` on its standard input (a password, never an argument). */
function runWithInput(
  cmd: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  input: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      env: { PATH: process.env["PATH"], ...env },
      stdio: ["pipe", "pipe", "pipe"],
      timeout: 20_000,
    });
    let output = "";
    child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    child.once("error", (e) => resolve({ code: null, output: String(e) }));
    child.once("close", (code) => resolve({ code, output }));
    child.stdin!.end(`${input}\n`);
  });
}

/** The status `curl --negotiate -u :` gets from `url` with the ticket in `ccache`. */
export async function negotiateReference(
  url: string,
  ccache: string,
  env: Readonly<Record<string, string>>,
): Promise<number | string> {
  const r = await run(
    "curl",
    ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--negotiate", "-u", ":", url],
    { PATH: process.env["PATH"], ...env, KRB5CCNAME: ccache },
  );
  if (r.code !== 0) return `curl --negotiate did not run: exit ${r.code} ${r.stderr.trim()}`;
  return Number(r.stdout.trim());
}

/** The Apache configuration of a Kerberos-authenticating reverse proxy to `backend`. */
export function kerberosProxyConf(backend: string, keytab: string): string {
  return gssapiProxyConf(backend, "Kerberos", [
    "GssapiAllowedMech krb5",
    `GssapiCredStore keytab:${keytab}`,
  ]);
}
