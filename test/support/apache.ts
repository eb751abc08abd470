/**
 * A throwaway Apache httpd on a loopback port, from Debian's apache2 and its modules: an
 * authenticating reverse proxy (mod_auth_gssapi with gss-ntlmssp, as IIS stands in front of ASMX)
 * or a TLS front with client certificates (mod_ssl). Stopped after the test file.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import * as path from "node:path";
import { tempDir } from "./tmp.js";

const MODULES = "/usr/lib/apache2/modules";
const NTLMSSP = "/usr/lib/x86_64-linux-gnu/gssntlmssp/gssntlmssp.so";

/** Why Apache with `modules` (file names under MODULES) cannot run here, or undefined. */
export function apacheMissing(
  modules: readonly string[],
  extra: readonly string[] = [],
): string | undefined {
  const need = ["/usr/sbin/apache2", ...modules.map((m) => path.join(MODULES, m)), ...extra];
  const absent = need.filter((p) => !existsSync(p));
  return absent.length === 0 ? undefined : `missing ${absent.join(", ")}`;
}

export const NTLM_MISSING_HINT =
  "install Debian's apache2 libapache2-mod-auth-gssapi gss-ntlmssp (as .ci/run does)";

/** Whether Apache with NTLM can run here (undefined when it can). */
export const ntlmApacheMissing = () =>
  apacheMissing(["mod_auth_gssapi.so", "mod_proxy.so", "mod_proxy_http.so"], [NTLMSSP]);

/** A free loopback port (taken and given back; Apache binds it a moment later). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Apache {
  readonly port: number;
  readonly dir: string;
  /**
   * The access log: one line per request, `<client port> <status> <keep-alive count> <request>`.
   */
  accessLog(): string[];
  errorLog(): string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const c of running) c.kill("SIGKILL");
});

/** `cmd` started in the foreground with `env` (and PATH): its output so far, and how to stop it. */
export function daemon(
  cmd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; output: () => string; stop: () => Promise<void> } {
  const child = spawn(cmd, args, {
    env: { PATH: process.env["PATH"], ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    running.delete(child);
  };
  return { child, output: () => out, stop };
}

/**
 * Starts apache2 in the foreground with `body` after a base configuration (event MPM, the
 * modules named, Listen on a free loopback port, logs in its folder), environment `env`.
 */
export async function startApache(
  modules: readonly string[],
  body: (dir: string) => string,
  env: NodeJS.ProcessEnv = {},
): Promise<Apache> {
  const dir = tempDir("apache-");
  // Apache's children run as nobody when started as root: they must read the folder's files.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const root = process.getuid?.() === 0;
  const load = ["mpm_event", "authn_core", "authz_core", "authz_user", ...modules].map(
    (m) => `LoadModule ${m}_module ${MODULES}/mod_${m}.so`,
  );
  const conf = [
    `ServerRoot ${dir}`,
    `DefaultRuntimeDir ${dir}`,
    `PidFile ${dir}/httpd.pid`,
    `ErrorLog ${dir}/error.log`,
    "LogLevel info",
    `Listen 127.0.0.1:${port}`,
    "ServerName localhost",
    ...load,
    ...(root ? ["User nobody", "Group nogroup"] : []),
    `LogFormat "%{remote}p %>s %k %r" short`,
    `CustomLog ${dir}/access.log short`,
    "KeepAlive On",
    "MaxKeepAliveRequests 0",
    "KeepAliveTimeout 30",
    body(dir),
  ].join("\n");
  writeFileSync(path.join(dir, "httpd.conf"), conf);
  const { child, output, stop } = daemon(
    "/usr/sbin/apache2",
    ["-f", path.join(dir, "httpd.conf"), "-DFOREGROUND"],
    env,
  );
  const read = (name: string) => {
    const p = path.join(dir, name);
    return existsSync(p) ? readFileSync(p, "utf8") : "";
  };
  try {
    await waitListening(port, child, () => output() + read("error.log"));
  } catch (e) {
    await stop();
    throw e;
  }
  const accessLog = () =>
    read("access.log")
      .split("\n")
      .filter((l) => l !== "");
  return { port, dir, accessLog, errorLog: () => read("error.log"), stop };
}

/** Resolves once `port` accepts connections; rejects when `child` exits first or after 20 s. */
export async function waitListening(
  port: number,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`apache2 exited ${child.exitCode}: ${output()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, "127.0.0.1");
      s.once("connect", () => (s.destroy(), resolve(true)));
      s.once("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`apache2 did not listen on ${port}: ${output()}`);
}

/**
 * The Apache configuration of an NTLM-authenticating reverse proxy to `backend` (its origin),
 * with gss-ntlmssp reading the users file NTLM_USER_FILE names.
 */
export function ntlmProxyConf(backend: string): string {
  return gssapiProxyConf(backend, "Windows", ["GssapiAllowedMech ntlmssp"]);
}

/** An authenticating reverse proxy to `backend` through mod_auth_gssapi with `directives`. */
export function gssapiProxyConf(
  backend: string,
  realm: string,
  directives: readonly string[],
): string {
  return [
    "<Location />",
    "  AuthType GSSAPI",
    `  AuthName "${realm}"`,
    ...directives.map((d) => `  ${d}`),
    "  GssapiConnectionBound On",
    "  Require valid-user",
    "</Location>",
    "ProxyPreserveHost On",
    `ProxyPass / ${backend}/`,
    `ProxyPassReverse / ${backend}/`,
  ].join("\n");
}

/** Writes gss-ntlmssp's users file (`DOMAIN:user:password` lines) in `dir`; gives its path. */
export function ntlmUsersFile(
  dir: string,
  users: readonly (readonly [string, string, string])[],
): string {
  // Read by Apache's children, which run as nobody when Apache was started as root.
  chmodSync(dir, 0o755);
  const file = path.join(dir, "ntlm-users");
  writeFileSync(file, users.map((u) => u.join(":")).join("\n") + "\n", { mode: 0o644 });
  return file;
}

const REFERENCE = `
import os, sys, requests, requests_ntlm
r = requests.get(sys.argv[1], auth=requests_ntlm.HttpNtlmAuth(os.environ["REF_USER"], os.environ["REF_PASSWORD"]))
print(r.status_code)
`;

/**
 * The status python3-requests-ntlm gets from `url` with these credentials (given through the
 * environment, never argv), or a reason it could not run. Its MD4 needs OpenSSL's legacy provider.
 */
export async function ntlmReference(
  url: string,
  user: string,
  password: string,
  dir: string,
): Promise<number | string> {
  const cnf = path.join(dir, "openssl-legacy.cnf");
  writeFileSync(
    cnf,
    "openssl_conf = init\n[init]\nproviders = p\n[p]\ndefault = d\nlegacy = l\n[d]\nactivate = 1\n[l]\nactivate = 1\n",
  );
  // Not spawnSync: the service behind Apache may run in this process.
  const r = await run("/usr/bin/python3", ["-c", REFERENCE, url], {
    PATH: process.env["PATH"],
    OPENSSL_CONF: cnf,
    REF_USER: user,
    REF_PASSWORD: password,
  });
  if (r.code !== 0)
    return `python3-requests-ntlm did not run: ${r.stderr.trim().split("\n").pop()}`;
  return Number(r.stdout.trim());
}

/** Runs `cmd` to its end (20 s at most): its exit code and output. */
export function run(
  cmd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"], timeout: 20_000 });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", (e) => resolve({ code: null, stdout, stderr: String(e) }));
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}
