/**
 * A throwaway squid forward proxy on a loopback port, with Basic authentication against an
 * htpasswd file (its basic_ncsa_auth helper), caching nothing. Stopped after the test file.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { freePort, waitListening } from "./apache.js";
import { tempDir } from "./tmp.js";

const HELPER = "/usr/lib/squid/basic_ncsa_auth";

/** Why squid cannot run here, or undefined. */
export function squidMissing(): string | undefined {
  const absent = ["/usr/sbin/squid", HELPER].filter((p) => !existsSync(p));
  return absent.length === 0 ? undefined : `missing ${absent.join(", ")} (install Debian's squid)`;
}

export interface Squid {
  readonly url: string;
  accessLog(): string[];
  stop(): Promise<void>;
}

/** Starts squid requiring `user` with `password` (Basic). */
export async function startSquid(user: string, password: string): Promise<Squid> {
  const dir = tempDir("squid-");
  // squid started as root runs as the proxy user, which writes its logs here.
  chmodSync(dir, 0o777);
  const hash = execFileSync("openssl", ["passwd", "-apr1", "-stdin"], { input: password })
    .toString()
    .trim();
  writeFileSync(path.join(dir, "passwd"), `${user}:${hash}\n`, { mode: 0o644 });
  const port = await freePort();
  const conf = [
    `http_port 127.0.0.1:${port}`,
    `pid_filename ${dir}/squid.pid`,
    `cache_log ${dir}/cache.log`,
    `access_log stdio:${dir}/access.log`,
    `coredump_dir ${dir}`,
    "cache deny all",
    "cache_mem 8 MB",
    "pinger_enable off",
    `auth_param basic program ${HELPER} ${dir}/passwd`,
    "auth_param basic realm proxy",
    "acl authed proxy_auth REQUIRED",
    "http_access allow authed",
    "http_access deny all",
    "shutdown_lifetime 0 seconds",
  ].join("\n");
  writeFileSync(path.join(dir, "squid.conf"), conf);
  const child: ChildProcess = spawn("/usr/sbin/squid", ["-N", "-f", path.join(dir, "squid.conf")], {
    stdio: "ignore",
  });
  process.once("exit", () => child.kill("SIGKILL"));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const read = (name: string) =>
    existsSync(path.join(dir, name)) ? readFileSync(path.join(dir, name), "utf8") : "";
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  try {
    await waitListening(port, child, () => read("cache.log"));
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    accessLog: () =>
      read("access.log")
        .split("\n")
        .filter((l) => l !== ""),
    stop,
  };
}
