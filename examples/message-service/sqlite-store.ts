/**
 * The SQLite store, through better-sqlite3: WAL mode with `synchronous = FULL`, so that an
 * acknowledged delete survives an OS crash or power loss, not only a process crash; ordered schema
 * migrations whose count is recorded in `PRAGMA user_version`.
 */
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { hashPassword, type AccountRecord } from "./passwords.js";
import { checkAccount, checkId, checkMessages, checkSeed, type SeedFile } from "./seed-file.js";
import { messageValues, toMessage, type MessageRow } from "./message-rows.js";
import { CURSOR_QUERIES, SqliteReaders, type CursorQuery } from "./sqlite-readers.js";
import type { MessageStore, OpenOptions, SeedMessage, StoredMessage } from "./store.js";

/** How long a call waits for a lock another process holds, by default, in milliseconds. */
export const SQLITE_BUSY_TIMEOUT_MS = 1_000;

/**
 * Schema migrations, in order. Migration i (0-based) brings the schema to version i + 1; never edit
 * one that has shipped, append a new one (and its PostgreSQL twin in postgres-store.ts).
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE accounts (
     user_id INTEGER PRIMARY KEY,
     email TEXT NOT NULL UNIQUE COLLATE NOCASE,
     salt BLOB NOT NULL,
     password_hash BLOB NOT NULL
   );
   CREATE TABLE messages (
     id INTEGER PRIMARY KEY,
     user_id INTEGER NOT NULL REFERENCES accounts(user_id),
     date_arrived TEXT NOT NULL,
     arrived_key TEXT NOT NULL,
     sender TEXT,
     message_text TEXT,
     message_url TEXT,
     transcription TEXT
   );
   CREATE INDEX messages_by_user_time ON messages (user_id, arrived_key, id);`,
];

const INSERT_MESSAGE =
  "INSERT OR IGNORE INTO messages (id, user_id, date_arrived, arrived_key, sender, message_text, message_url, transcription) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

/** A checked account with its password already hashed, ready for a synchronous transaction. */
interface HashedAccount extends AccountRecord {
  readonly email: string;
}

/**
 * The statements each request runs, compiled once per connection (better-sqlite3 keeps no cache).
 */
function requestStatements(db: Database.Database) {
  return {
    account: db.prepare("SELECT user_id, salt, password_hash FROM accounts WHERE email = ?"),
    all: db.prepare(CURSOR_QUERIES.all),
    range: db.prepare(CURSOR_QUERIES.range),
    delete: db.prepare("DELETE FROM messages WHERE id = ? AND user_id = ?"),
  };
}

export class SqliteStore implements MessageStore {
  private readonly db: Database.Database;
  private readonly sql: ReturnType<typeof requestStatements>;
  /** Connections for cursors; none for an in-memory database, which has only its own. */
  private readonly readers: SqliteReaders | undefined;
  readonly description: string;

  /** Opens (creating it and its folder if needed) and migrates the database at `file`. */
  constructor(file: string, options: OpenOptions = {}) {
    let db: Database.Database | undefined;
    try {
      if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      // better-sqlite3 waits for a lock synchronously (5 s by default): a short wait keeps a lock
      // held elsewhere from stalling every other request, and the call then fails as unavailable.
      db = new Database(file, { timeout: options.timeoutMs ?? SQLITE_BUSY_TIMEOUT_MS });
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = FULL");
      db.pragma("foreign_keys = ON");
      this.db = db;
      this.description = file;
      this.migrate();
      this.sql = requestStatements(db);
      this.readers =
        file === ":memory:"
          ? undefined
          : new SqliteReaders(file, options.timeoutMs ?? SQLITE_BUSY_TIMEOUT_MS);
    } catch (e) {
      db?.close();
      throw new Error(`cannot open the database ${file}: ${(e as Error).message}`, { cause: e });
    }
  }

  /** The journal mode in force: `wal` for a database file. */
  get journalMode(): string {
    return String(this.db.pragma("journal_mode", { simple: true }));
  }

  /**
   * The connection's `synchronous` level: 2 is FULL (a commit is synced to disk before it returns).
   */
  get synchronous(): number {
    return Number(this.db.pragma("synchronous", { simple: true }));
  }

  /** How many migrations have been applied. */
  get schemaVersion(): number {
    return Number(this.db.pragma("user_version", { simple: true }));
  }

  /**
   * Applies the missing migrations in one IMMEDIATE transaction: all or none, and a second process
   * opening the same file at the same time waits instead of applying them twice.
   */
  private migrate(): void {
    this.db
      .transaction(() => {
        const version = this.schemaVersion;
        if (version > MIGRATIONS.length) {
          throw new Error(
            `the database has schema version ${version}, newer than this program's ${MIGRATIONS.length}`,
          );
        }
        for (let i = version; i < MIGRATIONS.length; i++) this.db.exec(MIGRATIONS[i]!);
        if (version < MIGRATIONS.length) this.db.pragma(`user_version = ${MIGRATIONS.length}`);
      })
      .immediate();
  }

  private insertAccount(a: HashedAccount): boolean {
    return (
      this.db
        .prepare(
          "INSERT OR IGNORE INTO accounts (user_id, email, salt, password_hash) VALUES (?, ?, ?, ?)",
        )
        .run(a.userId, a.email, a.salt, a.passwordHash).changes === 1
    );
  }

  private insertMessages(email: string, messages: readonly SeedMessage[]): number {
    const account = this.db.prepare("SELECT user_id FROM accounts WHERE email = ?").get(email) as
      { user_id: number } | undefined;
    if (!account) throw new Error(`no account with e-mail ${email}`);
    const insert = this.db.prepare(INSERT_MESSAGE);
    let added = 0;
    for (const m of messages) added += insert.run(...messageValues(m, account.user_id)).changes;
    return added;
  }

  async addAccount(email: string, password: string, userId: number): Promise<boolean> {
    checkAccount(email, password, userId, "account");
    return this.insertAccount({ email, userId, ...(await hashPassword(password)) });
  }

  async importMessages(email: string, messages: readonly SeedMessage[]): Promise<number> {
    const checked = checkMessages(messages, "messages");
    return this.db.transaction(() => this.insertMessages(email, checked))();
  }

  async seed(seed: SeedFile): Promise<void> {
    const checked = checkSeed(seed);
    // Hashed first: a better-sqlite3 transaction is synchronous and cannot wait for the KDF.
    const hashed = await Promise.all(
      checked.accounts.map(async (a) => ({ ...a, ...(await hashPassword(a.password)) })),
    );
    this.db.transaction(() => {
      for (const a of hashed) {
        this.insertAccount(a);
        this.insertMessages(a.email, a.messages ?? []);
      }
    })();
  }

  async findAccount(email: string): Promise<AccountRecord | undefined> {
    const row = this.sql.account.get(email) as
      { user_id: number; salt: Buffer; password_hash: Buffer } | undefined;
    return row && { userId: row.user_id, salt: row.salt, passwordHash: row.password_hash };
  }

  async listMessages(userId: number): Promise<StoredMessage[]> {
    const rows = this.sql.all.all(userId);
    return (rows as MessageRow[]).map(toMessage);
  }

  async listMessagesInRange(
    userId: number,
    startKey: string,
    endKey: string,
  ): Promise<StoredMessage[]> {
    const rows = this.sql.range.all(userId, startKey, endKey);
    return (rows as MessageRow[]).map(toMessage);
  }

  streamMessages(userId: number): AsyncIterable<StoredMessage> {
    return this.cursor("all", [userId]);
  }

  streamMessagesInRange(
    userId: number,
    startKey: string,
    endKey: string,
  ): AsyncIterable<StoredMessage> {
    return this.cursor("range", [userId, startKey, endKey]);
  }

  /** Cursors open now, each holding a read-only connection: 0 once every stream has ended. */
  get openCursors(): number {
    return this.readers?.busy ?? 0;
  }

  private cursor(q: CursorQuery, params: readonly unknown[]): AsyncIterable<StoredMessage> {
    if (this.readers) return this.readers.rows(q, params);
    // An in-memory database has its one connection, whose writes a cursor would stop: read whole.
    const rows = (): StoredMessage[] => (this.sql[q].all(...params) as MessageRow[]).map(toMessage);
    return (async function* () {
      yield* rows();
    })();
  }

  async deleteMessage(userId: number, id: number): Promise<boolean> {
    checkId(id, "message id");
    return this.sql.delete.run(id, userId).changes === 1;
  }

  async close(): Promise<void> {
    this.readers?.close();
    if (this.db.open) this.db.close();
  }
}

/** Opens the SQLite store at `file` (creating the file and its folder, applying migrations). */
export function openSqlite(file: string, options: OpenOptions = {}): SqliteStore {
  return new SqliteStore(file, options);
}
