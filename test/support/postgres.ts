/**
 * A throwaway PostgreSQL cluster for tests: `initdb` into a temporary folder, `pg_ctl start` on a
 * free port listening on 127.0.0.1 only, stopped and removed afterwards. Debian's `postgresql`
 * package provides the binaries (/usr/lib/postgresql/<version>/bin). PostgreSQL refuses to run as
 * root, so as root the binaries run as the `postgres` user through `runuser`.
 */
import { spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";

export const INSTALL_HINT =
  "install Debian's postgresql package (apt-get install postgresql) to run them";

/** The folder of initdb and pg_ctl: $PG_BIN, else the newest /usr/lib/postgresql/<v>/bin. */
function binDir(): string | undefined {
  const fromEnv = process.env["PG_BIN"];
  if (fromEnv) return existsSync(path.join(fromEnv, "initdb")) ? fromEnv : undefined;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], "bin");
}

const isRoot = () => process.getuid?.() === 0;

/** The uid and gid of the `postgres` user, when running as root; undefined otherwise. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (!isRoot()) return undefined;
  const id = (flag: string) => spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  const uid = id("-u");
  const gid = id("-g");
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Why the PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresMissing(): string | undefined {
  if (!binDir()) return `no PostgreSQL server binaries (initdb, pg_ctl) found; ${INSTALL_HINT}`;
  if (isRoot() && !postgresUser())
    return `running as root without a postgres user to run the server as; ${INSTALL_HINT}`;
  return undefined;
}

function run(bin: string, args: string[]): void {
  const user = postgresUser();
  const [cmd, argv] = user ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: "utf8", timeout: 60_000 });
  if (r.status !== 0)
    throw new Error(`${path.basename(bin)} failed (${r.status}): ${r.stderr || r.stdout}`);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface PgCluster {
  readonly port: number;
  /** The URL of database `db` (default `postgres`) as the superuser `postgres`, over TCP. */
  url(db?: string): string;
  /** Stops the server (immediately) and removes its folder. */
  stop(): void;
  /** Stops the server as a crash would (`pg_ctl stop -m immediate`), keeping its data. */
  crash(): void;
  /** Starts the server again after `crash`. */
  restart(): void;
  /** Freezes the server and all its processes (SIGSTOP), as a hung host would; `thaw` resumes. */
  freeze(): void;
  thaw(): void;
}

/** Creates and starts a cluster; throws with PostgreSQL's own message if that fails. */
export async function startPostgres(): Promise<PgCluster> {
  const bin = binDir()!;
  const dir = mkdtempSync(path.join(tmpdir(), "wsdl-tsgen-pg-"));
  const user = postgresUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, "data");
  const port = await freePort();
  const pgCtl = path.join(bin, "pg_ctl");
  const start = () =>
    run(pgCtl, [
      "-D",
      data,
      "-o",
      serverOptions(port, dir),
      "-l",
      log(dir),
      "-w",
      "-t",
      "60",
      "start",
    ]);
  try {
    run(path.join(bin, "initdb"), [
      "-D",
      data,
      "-U",
      "postgres",
      "-A",
      "trust",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ]);
    start();
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    port,
    url: (db = "postgres") => `postgres://postgres@127.0.0.1:${port}/${db}`,
    stop: () => {
      try {
        run(pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    crash: () => run(pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"]),
    restart: start,
    // Children first when freezing, the postmaster first when thawing: none acts on a half-frozen
    // cluster.
    freeze: () => {
      for (const pid of clusterPids(data)) process.kill(pid, "SIGSTOP");
    },
    thaw: () => {
      for (const pid of clusterPids(data).reverse()) process.kill(pid, "SIGCONT");
    },
  };
}

// Only loopback TCP, the socket in our own folder, and no fsync: a test cluster is thrown away.
const serverOptions = (port: number, dir: string) =>
  `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=100`;
const log = (dir: string) => path.join(dir, "log");

/** The cluster's processes: backends and helpers, then the postmaster (its pid file's first line). */
function clusterPids(data: string): number[] {
  const postmaster = Number(readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  const children = spawnSync("ps", ["-o", "pid=", "--ppid", String(postmaster)], {
    encoding: "utf8",
  });
  const pids = children.stdout.split(/\s+/).filter(Boolean).map(Number);
  return [...pids, postmaster];
}

let created = 0;
/**
 * A fresh, empty database on `cluster`; its URL. It collates text by ICU's en-US rules, as
 * production databases often do, not byte by byte, so that a query relying on byte order is caught.
 */
export async function createDatabase(cluster: PgCluster): Promise<string> {
  const { default: pg } = await import("pg");
  const name = `t${process.pid}_${++created}`;
  const client = new pg.Client({ connectionString: cluster.url() });
  await client.connect();
  try {
    await client.query(
      `CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'`,
    );
  } finally {
    await client.end();
  }
  return cluster.url(name);
}
