/** The SQLite store (examples/message-service/store.ts): schema, WAL, seeding, exact values, ordering, ranges, deletion, hashing. */
import { scryptSync } from "node:crypto";
import { existsSync } from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { instantKey } from "../../examples/message-service/instants.js";
import { MIGRATIONS, openSqlite, type SqliteStore } from "../../examples/message-service/store.js";
import { ALICE, bare, BOB, EDGE_MESSAGE, login, SEED, tempDir } from "./helpers.js";

async function seeded(): Promise<{ file: string; store: SqliteStore }> {
  const file = path.join(tempDir(), "m.db");
  const store = openSqlite(file);
  await store.seed(SEED);
  return { file, store };
}

/** Every row of every table, read through a separate connection. */
function dump(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    return {
      accounts: db.prepare("SELECT * FROM accounts ORDER BY user_id").all(),
      messages: db.prepare("SELECT * FROM messages ORDER BY id").all(),
    };
  } finally {
    db.close();
  }
}

const ids = (list: readonly { Id: number }[]) => list.map((m) => m.Id);

describe("schema and database file", () => {
  it("creates the parent folders, applies every migration once, and reopening keeps schema and data", async () => {
    const file = path.join(tempDir(), "nested", "deeper", "m.db");
    const store = openSqlite(file);
    expect(existsSync(file)).toBe(true);
    expect(MIGRATIONS.length).toBeGreaterThan(0);
    expect(store.schemaVersion).toBe(MIGRATIONS.length);
    await store.seed(SEED);
    await store.close();

    const again = openSqlite(file);
    expect(again.schemaVersion).toBe(MIGRATIONS.length);
    expect(ids(await again.listMessages(1001))).toEqual([101, 102, 103, 104, 105]);
    await again.close();
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    const tables = raw
      .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name")
      .all();
    raw.close();
    expect(tables).toEqual([
      { name: "accounts" },
      { name: "messages" },
      { name: "messages_by_user_time" },
      { name: "sqlite_autoindex_accounts_1" },
    ]);
  });

  it("refuses a database written by a newer schema, without changing it", async () => {
    const file = path.join(tempDir(), "m.db");
    openSqlite(file).close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    expect(() => openSqlite(file)).toThrow(
      `cannot open the database ${file}: the database has schema version ${MIGRATIONS.length + 1}, newer than this program's ${MIGRATIONS.length}`,
    );
    const check = new Database(file, { readonly: true });
    expect(check.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length + 1);
    await check.close();
  });

  it("runs in WAL mode, which is recorded in the file, with synchronous = FULL", async () => {
    const { file, store } = await seeded();
    expect(store.journalMode).toBe("wal");
    // FULL (2): a commit, an acknowledged delete included, is on disk before it returns.
    expect(store.synchronous).toBe(2);
    expect(existsSync(`${file}-wal`)).toBe(true);
    const other = new Database(file, { readonly: true });
    expect(other.pragma("journal_mode", { simple: true })).toBe("wal");
    other.close();
    await store.close();
  });
});

describe("seeding and importing", () => {
  it("seeds idempotently: a second seed, even from a reopened store, changes no row, not even a password hash", async () => {
    const { file, store } = await seeded();
    await store.close();
    const before = dump(file);
    expect(before["accounts"]).toHaveLength(2);
    expect(before["messages"]).toHaveLength(8);
    const again = openSqlite(file);
    await again.seed(SEED);
    await again.seed(SEED);
    await again.close();
    expect(dump(file)).toEqual(before);
  });

  it("keeps DateArrived exactly as written, and null apart from the empty string", async () => {
    const { file, store } = await seeded();
    await store.importMessages(ALICE.email, [
      bare(106, "2024-03-11T00:00:00.1000000"),
      bare(107, "2024-03-11T02:00:00+02:00"),
      EDGE_MESSAGE,
    ]);
    const byId = new Map((await store.listMessages(1001)).map((m) => [m.Id, m]));
    expect(byId.get(102)?.DateArrived).toBe("2024-01-15T08:30:15.25");
    expect(byId.get(105)?.DateArrived).toBe("2024-03-10T12:00:00.1234567");
    expect(byId.get(106)?.DateArrived).toBe("2024-03-11T00:00:00.1000000");
    expect(byId.get(107)?.DateArrived).toBe("2024-03-11T02:00:00+02:00");
    expect(byId.get(108)).toStrictEqual({ ...EDGE_MESSAGE, UserId: 1001 });
    expect(byId.get(103)).toMatchObject({ Sender: null, Transcription: "" });
    expect(byId.get(105)?.Transcription).toBe("line one\nline two");
    expect(byId.get(102)?.MessageText).toBe(
      "Fish & chips <tonight>? \"Yes\" 'no' – Grüße, ñandú, 日本",
    );
    await store.close();
    const raw = new Database(file, { readonly: true });
    const types = raw.prepare(
      "SELECT typeof(sender) AS s, typeof(transcription) AS t, arrived_key AS k FROM messages WHERE id = ?",
    );
    expect(types.get(103)).toEqual({
      s: "null",
      t: "text",
      k: "2024-02-01T00:00:00.000000000000Z",
    });
    expect(types.get(107)).toEqual({
      s: "null",
      t: "null",
      k: "2024-03-11T00:00:00.000000000000Z",
    });
    raw.close();
  });

  it("rejects messages the service could not send back, and imports all or nothing", async () => {
    const { store } = await seeded();
    const good = bare(120, "2024-05-01T00:00:00");
    const cases: [unknown, RegExp][] = [
      [
        bare(121, "1/5/2024"),
        /messages\[1\]\.DateArrived: '1\/5\/2024' is not an xs:dateTime value/,
      ],
      [
        bare(121, "10000-01-01T00:00:00"),
        /messages\[1\]\.DateArrived: .*outside the years 0000 to 9999/,
      ],
      [
        bare(2147483648, "2024-05-01T00:00:00"),
        /messages\[1\]\.Id: must be an integer from -2147483648 to 2147483647/,
      ],
      [bare(1.5, "2024-05-01T00:00:00"), /messages\[1\]\.Id: must be an integer/],
      [
        { ...bare(121, "2024-05-01T00:00:00"), Sender: "a\u0001b" },
        /messages\[1\]\.Sender: holds a character that XML 1.0 cannot carry/,
      ],
      [
        { ...bare(121, "2024-05-01T00:00:00"), MessageText: "\ud800" },
        /messages\[1\]\.MessageText: holds a character/,
      ],
      [
        { ...bare(121, "2024-05-01T00:00:00"), Transcription: 5 },
        /messages\[1\]\.Transcription: must be a string or null/,
      ],
      [
        { ...bare(121, "2024-05-01T00:00:00"), UserId: 1002 },
        /messages\[1\]: unknown field 'UserId'/,
      ],
      [good, /messages\[1\]\.Id: the id 120 appears twice/],
    ];
    for (const [bad, message] of cases) {
      await expect(
        store.importMessages(ALICE.email, [good, bad as typeof good]),
        String(message),
      ).rejects.toThrow(message);
    }
    expect(ids(await store.listMessages(1001))).toEqual([101, 102, 103, 104, 105]);
    // A message may leave out its text fields: absent means null.
    expect(
      await store.importMessages(ALICE.email, [
        { Id: 122, DateArrived: "2024-05-01T00:00:00", Sender: "s" },
      ]),
    ).toBe(1);
    expect((await store.listMessages(1001)).at(-1)).toStrictEqual({
      Id: 122,
      UserId: 1001,
      DateArrived: "2024-05-01T00:00:00",
      Sender: "s",
      MessageText: null,
      MessageUrl: null,
      Transcription: null,
    });
    await store.close();
  });
});

describe("accounts", () => {
  it("stores a salted scrypt hash, never the password", async () => {
    const { file, store } = await seeded();
    expect(await store.addAccount("twin@example.com", "alice-pass", 1010)).toBe(true);
    await store.close();
    const accounts = dump(file)["accounts"] as {
      user_id: number;
      email: string;
      salt: Buffer;
      password_hash: Buffer;
    }[];
    expect(Object.keys(accounts[0]!).sort()).toEqual(["email", "password_hash", "salt", "user_id"]);
    const alice = accounts.find((a) => a.user_id === 1001)!;
    const twin = accounts.find((a) => a.user_id === 1010)!;
    for (const a of accounts) {
      expect(a.password_hash).toHaveLength(32);
      expect(a.salt).toHaveLength(16);
      expect(a.password_hash.toString("latin1")).not.toContain("pass");
    }
    expect(scryptSync("alice-pass", alice.salt, 32).equals(alice.password_hash)).toBe(true);
    // Same password, different salt, different hash.
    expect(twin.salt.equals(alice.salt)).toBe(false);
    expect(twin.password_hash.equals(alice.password_hash)).toBe(false);
  });

  it("authenticates the right password only; e-mails compare ignoring case", async () => {
    const { store } = await seeded();
    expect(await login(store, ALICE.email, ALICE.password)).toBe(1001);
    expect(await login(store, "ALICE@EXAMPLE.COM", ALICE.password)).toBe(1001);
    expect(await login(store, BOB.email, BOB.password)).toBe(1002);
    expect(await login(store, ALICE.email, BOB.password)).toBeUndefined();
    expect(await login(store, ALICE.email, "alice-pass ")).toBeUndefined();
    expect(await login(store, ALICE.email, "")).toBeUndefined();
    expect(await login(store, "nobody@example.com", ALICE.password)).toBeUndefined();
    await store.close();
  });

  it("adds an account only when e-mail (ignoring case) and user id are free", async () => {
    const { store } = await seeded();
    expect(await store.addAccount("Alice@Example.com", "other", 2000)).toBe(false);
    expect(await store.addAccount("new@example.com", "other", 1001)).toBe(false);
    expect(await login(store, ALICE.email, "other")).toBeUndefined();
    expect(await store.addAccount("new@example.com", "pw", 2000)).toBe(true);
    expect(await login(store, "new@example.com", "pw")).toBe(2000);
    await expect(store.addAccount("", "pw", 2001)).rejects.toThrow(
      /email: must be a non-empty string/,
    );
    await expect(store.addAccount("x@example.com", "", 2001)).rejects.toThrow(
      /password: must be a non-empty string/,
    );
    await expect(store.addAccount("x@example.com", "pw", 2 ** 31)).rejects.toThrow(
      /userId: must be an integer/,
    );
    await store.close();
  });
});

describe("listing and deleting", () => {
  it("orders by DateArrived as an instant, then by Id", async () => {
    const { store } = await seeded();
    await store.importMessages(ALICE.email, [
      bare(300, "2024-01-05T12:00:00+02:00"), // = 101's instant, larger id
      bare(99, "2024-01-05T10:00:00Z"), // = 101's instant, smaller id
      bare(301, "2024-03-10T12:00:00.12345671"), // just after 105
      bare(302, "2024-03-10T12:00:00.1234566"), // just before 105
      bare(303, "2024-01-16T01:00:00+05:00"), // 2024-01-15T20:00Z: after 102, although its day is later
      bare(304, "2024-01-15T21:00:00"),
    ]);
    expect(ids(await store.listMessages(1001))).toEqual([
      99, 101, 300, 102, 303, 304, 103, 104, 302, 105, 301,
    ]);
    expect(ids(await store.listMessages(1002))).toEqual([201, 202, 203]);
    expect(await store.listMessages(4242)).toEqual([]);
    await store.close();
  });

  it("lists a range including both ends, exact to the last fraction digit, with offsets", async () => {
    const { store } = await seeded();
    const range = async (start: string, end: string) =>
      ids(await store.listMessagesInRange(1001, instantKey(start), instantKey(end)));
    expect(await range("2024-01-10T00:00:00", "2024-02-29T23:59:59")).toEqual([102, 103, 104]);
    expect(await range("2024-01-15T08:30:15.25", "2024-02-01T00:00:00")).toEqual([102, 103]);
    expect(await range("2024-01-15T08:30:15.2500001", "2024-01-31T23:59:59.9999999")).toEqual([]);
    // 105 is 2024-03-10T12:00:00.1234567 (UTC): the same instant written with offsets is inside.
    expect(
      await range("2024-03-10T14:00:00.1234567+02:00", "2024-03-10T07:00:00.1234567-05:00"),
    ).toEqual([105]);
    expect(await range("2024-03-10T14:00:00.1234568+02:00", "2024-12-31T00:00:00")).toEqual([]);
    expect(await range("2024-01-01T00:00:00", "2024-03-10T12:00:00.1234566")).toEqual([
      101, 102, 103, 104,
    ]);
    expect(await range("2024-01-05T11:00:00+01:00", "2024-01-05T11:00:00+01:00")).toEqual([101]);
    expect(await range("2024-02-01", "2024-02-01")).toEqual([103]);
  });

  it("gives nothing for a range whose start is after its end, and only the account's own messages", async () => {
    const { store } = await seeded();
    expect(
      await store.listMessagesInRange(
        1001,
        instantKey("2024-03-01T00:00:00"),
        instantKey("2024-01-01T00:00:00"),
      ),
    ).toEqual([]);
    expect(
      ids(
        await store.listMessagesInRange(
          1002,
          instantKey("2023-01-01T00:00:00"),
          instantKey("2025-01-01T00:00:00"),
        ),
      ),
    ).toEqual([201, 202, 203]);
    await store.close();
  });

  it("deletes a message only for its owner, and only once", async () => {
    const { file, store } = await seeded();
    await store.close();
    const before = dump(file);
    const s = openSqlite(file);
    expect(await s.deleteMessage(1001, 201)).toBe(false);
    expect(await s.deleteMessage(1001, 999)).toBe(false);
    await s.close();
    expect(dump(file)).toEqual(before);
    const t = openSqlite(file);
    expect(await t.deleteMessage(1002, 201)).toBe(true);
    expect(await t.deleteMessage(1002, 201)).toBe(false);
    expect(ids(await t.listMessages(1002))).toEqual([202, 203]);
    expect(ids(await t.listMessages(1001))).toEqual([101, 102, 103, 104, 105]);
    await t.close();
  });
});
