/**
 * What the attack scripts share: the service started as a user starts it (the CLI, in a process of
 * its own, so that it can be killed), a seeded SQLite database in a temporary folder, and the
 * store's state read behind the service's back. Loopback only; every child dies with the script.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import Database from "better-sqlite3";
import { createDatabase, postgresMissing, startPostgres } from "../../test/support/postgres.js";
import { startServiceProcess, type ServiceProcess } from "../../test/support/service-process.js";

const CLI = "examples/message-service/cli.ts";

export type { ServiceProcess };

/** Runs one CLI command to completion; throws with its stderr when it fails. */
function cli(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CLI, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${args[0]} failed (${code}): ${out}`)),
    );
  });
}

/** Starts `serve --port 0` on `db` (killed when the script exits) and waits for its URL. */
export function serve(db: string): Promise<ServiceProcess> {
  return startServiceProcess(["--db", db]);
}

/** A temporary folder removed when the script exits. */
function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "mrs-attack-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Where the scripts keep the messages: a SQLite file, or with `--postgres` a database on a
 * throwaway PostgreSQL cluster (stopped when the script exits).
 */
export interface Target {
  /** What `--db` is given: the file, or the database URL. */
  readonly db: string;
  readonly kind: "SQLite" | "PostgreSQL";
  /** Every stored message row, by id, as text: to tell exactly what changed. */
  rows(): Promise<Map<number, string>>;
  /**
   * SQLite's `integrity_check` ("ok" when sound); on PostgreSQL, "ok" when the table can be read.
   */
  integrity(): Promise<string>;
}

/** The seeded target the script's options ask for. */
export async function seededTarget(extra = 0): Promise<Target> {
  if (!process.argv.includes("--postgres")) {
    const dir = scratch();
    const db = await seed(path.join(dir, "messages.db"), extra, dir);
    return {
      db,
      kind: "SQLite",
      rows: () => Promise.resolve(storedRows(db)),
      integrity: () => Promise.resolve(integrity(db)),
    };
  }
  const missing = postgresMissing();
  if (missing) throw new Error(`--postgres: ${missing}`);
  const cluster = await startPostgres();
  process.on("exit", () => cluster.stop());
  const db = await seed(await createDatabase(cluster), extra, scratch());
  const rows = async () => {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    try {
      const r = await client.query<{ id: number }>("SELECT * FROM messages ORDER BY id");
      return new Map(r.rows.map((row) => [row.id, JSON.stringify(row)]));
    } finally {
      await client.end();
    }
  };
  return { db, kind: "PostgreSQL", rows, integrity: () => rows().then(() => "ok") };
}

/** Seeds `db` with the recorded seed (alice and bob, 8 messages) and `extra` messages for alice. */
async function seed(db: string, extra: number, dir: string): Promise<string> {
  await cli(["seed", "--db", db, "--file", "fixtures/message-service/asmx/seed.json"]);
  if (extra > 0) {
    const file = path.join(dir, "extra.json");
    const messages = Array.from({ length: extra }, (_, i) => ({
      Id: 100_000 + i,
      DateArrived: `2024-06-01T00:00:${String(i % 60).padStart(2, "0")}`,
      MessageText: `message ${i}`,
    }));
    writeFileSync(file, JSON.stringify(messages));
    await cli(["import", "--db", db, "--email", "alice@example.com", "--file", file]);
  }
  return db;
}

/** Every stored message row, by id, as text: to tell exactly what changed. */
function storedRows(db: string): Map<number, string> {
  const sqlite = new Database(db, { readonly: true });
  try {
    const rows = sqlite.prepare("SELECT * FROM messages ORDER BY id").all() as { id: number }[];
    return new Map(rows.map((r) => [r.id, JSON.stringify(r)]));
  } finally {
    sqlite.close();
  }
}

/** `PRAGMA integrity_check` of the database file: "ok" when it is sound. */
function integrity(db: string): string {
  const sqlite = new Database(db);
  try {
    return String(sqlite.pragma("integrity_check", { simple: true }));
  } finally {
    sqlite.close();
  }
}

/** Reads `--name value` from argv, else `fallback`. */
export function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i === -1 ? undefined : Number(process.argv[i + 1]);
  return v !== undefined && Number.isFinite(v) && v > 0 ? v : fallback;
}
