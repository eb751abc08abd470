/**
 * The PostgreSQL store's own concerns, on a throwaway cluster (test/support/postgres.ts): its
 * migrations, exactly-once deletes under concurrency from two stores and from two service processes
 * on one database, and the command line on PostgreSQL (--db and DATABASE_URL), passwords never
 * shown.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { Client, type QueryResultRow } from "pg";
import { describe, expect, it, vi } from "vitest";
import { main } from "../../examples/message-service/cli.js";
import { openPostgres, PG_MIGRATIONS } from "../../examples/message-service/postgres-store.js";
import { open, type MessageStore } from "../../examples/message-service/store.js";
import { createDatabase } from "../support/postgres.js";
import { usePostgres } from "../support/use-postgres.js";
import { startServiceProcess, type ServiceProcess } from "../support/service-process.js";
import { ALICE, bare, SEED, SEED_PATH, tempDir } from "./helpers.js";

const pg = usePostgres("PostgreSQL tests");
const missing = pg.missing;

/** Runs `sql` on `url` in a connection of its own. */
async function query<R extends QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** A seeded database with `count` more messages for Alice, ids 1000…; its URL. */
async function seededWithMessages(count: number): Promise<string> {
  const url = await createDatabase(pg.cluster());
  const store = await open(url);
  await store.seed(SEED);
  await store.importMessages(
    ALICE.email,
    Array.from({ length: count }, (_, i) => bare(1000 + i, "2024-06-01T00:00:00")),
  );
  await store.close();
  return url;
}

describe.skipIf(missing !== undefined)("PostgreSQL", () => {
  it("migrates once, even when two processes open a new database at the same time, and refuses a newer schema", async () => {
    const url = await createDatabase(pg.cluster());
    const [a, b] = await Promise.all([openPostgres(url), openPostgres(url)]);
    expect([await a.schemaVersion(), await b.schemaVersion()]).toEqual([
      PG_MIGRATIONS.length,
      PG_MIGRATIONS.length,
    ]);
    await Promise.all([a.close(), b.close()]);
    const tables = await query<{ tablename: string }>(
      url,
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    );
    expect(tables.map((t) => t.tablename)).toEqual(["accounts", "messages", "schema_version"]);
    await query(url, `UPDATE schema_version SET version = ${PG_MIGRATIONS.length + 1}`);
    await expect(open(url)).rejects.toThrow(
      `the database has schema version ${PG_MIGRATIONS.length + 1}, newer than this program's ${PG_MIGRATIONS.length}`,
    );
    expect(await query(url, "SELECT version FROM schema_version")).toEqual([
      { version: PG_MIGRATIONS.length + 1 },
    ]);
  });

  it("deletes each message exactly once when two stores delete them all at the same time", async () => {
    const url = await seededWithMessages(200);
    const stores: MessageStore[] = [await open(url), await open(url)];
    try {
      const ids = Array.from({ length: 200 }, (_, i) => 1000 + i);
      // Each id is deleted twice through each store, all at once.
      const results = await Promise.all(
        ids.map((id) => Promise.all([0, 1, 0, 1].map((s) => stores[s]!.deleteMessage(1001, id)))),
      );
      expect(results.map((r) => r.filter(Boolean).length)).toEqual(ids.map(() => 1));
      expect((await stores[0]!.listMessages(1001)).map((m) => m.Id)).toEqual([
        101, 102, 103, 104, 105,
      ]);
    } finally {
      for (const s of stores) await s.close();
    }
  });

  it("deletes each message exactly once when two service processes on one database are asked at the same time", async () => {
    const url = await seededWithMessages(40);
    const servers: ServiceProcess[] = [];
    try {
      servers.push(await startServiceProcess(["--db", url]));
      servers.push(await startServiceProcess(["--db", url]));
      const del = (server: ServiceProcess, id: number) =>
        fetch(`${server.url}/DeleteMessage`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ ...ALICE, MessageId: String(id) }).toString(),
        }).then(async (r) => ({ status: r.status, text: await r.text() }));
      const ids = Array.from({ length: 40 }, (_, i) => 1000 + i);
      const answers = await Promise.all(
        ids.map((id) => Promise.all([del(servers[0]!, id), del(servers[1]!, id)])),
      );
      for (const [a, b] of answers) {
        expect([a.status, b.status].sort()).toEqual([200, 500]);
        expect([a.text, b.text].join("")).toMatch(/No message with id \d+\./);
      }
      const left = await query<{ n: string }>(url, "SELECT count(*) AS n FROM messages");
      expect(left).toEqual([{ n: "8" }]);
    } finally {
      for (const s of servers) await s.stop();
    }
  });
});

/** Runs the command line in-process with `env` added; its status and what it printed. */
async function run(env: Record<string, string>, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const spies = [
    vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" "))),
    vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(a.join(" "))),
  ];
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  try {
    return { code: await main(args), out: out.join("\n"), err: err.join("\n") };
  } finally {
    for (const s of spies) s.mockRestore();
    vi.unstubAllEnvs();
  }
}

describe.skipIf(missing !== undefined)("the command line on PostgreSQL", () => {
  it("seeds through DATABASE_URL, adds accounts and imports through --db, idempotently", async () => {
    const url = await createDatabase(pg.cluster());
    expect(await run({ DATABASE_URL: url }, "seed", "--file", SEED_PATH)).toEqual({
      code: 0,
      out: `seeded ${url} from ${SEED_PATH}`,
      err: "",
    });
    expect((await run({ DATABASE_URL: url }, "seed", "--file", SEED_PATH)).code).toBe(0);
    const add = ["add-account", "--db", url, "--email", "carol@example.com", "--password", "pw"];
    expect((await run({}, ...add, "--user-id", "1003")).code).toBe(0);
    expect(
      await run(
        {},
        ...add.slice(0, 4),
        "CAROL@example.com",
        "--password",
        "x",
        "--user-id",
        "1004",
      ),
    ).toMatchObject({
      code: 1,
      err: "error: an account with e-mail CAROL@example.com or user id 1004 exists already",
    });
    const file = path.join(tempDir(), "msgs.json");
    writeFileSync(
      file,
      JSON.stringify(SEED.accounts[1]!.messages!.map((m) => ({ ...m, Id: m.Id + 100 }))),
    );
    const imp = ["import", "--db", url, "--email", "carol@example.com", "--file", file];
    expect((await run({}, ...imp)).out).toBe("imported 3 of 3 messages for carol@example.com");
    expect((await run({}, ...imp)).out).toMatch(/^imported 0 of 3 messages/);
    const rows = await query<{ user_id: number; n: string }>(
      url,
      "SELECT user_id, count(*) AS n FROM messages GROUP BY user_id ORDER BY user_id",
    );
    expect(rows).toEqual([
      { user_id: 1001, n: "5" },
      { user_id: 1002, n: "3" },
      { user_id: 1003, n: "3" },
    ]);
  });

  it("fails in one line that never shows the URL's password", async () => {
    const url = `postgres://someone:s3cret-pw@127.0.0.1:${pg.cluster().port}/nowhere`;
    const r = await run({}, "seed", "--db", url, "--file", SEED_PATH);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      new RegExp(
        `^error: cannot open the database postgres://someone:\\*\\*\\*@127\\.0\\.0\\.1:${pg.cluster().port}/nowhere: .+$`,
      ),
    );
    expect(r.err).not.toContain("s3cret");
  });
});
