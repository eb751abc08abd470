/**
 * The store: SQLite through better-sqlite3, in WAL mode, with ordered schema migrations whose count
 * is recorded in `PRAGMA user_version`. Accounts keep an scrypt hash with a random salt, compared in
 * constant time; messages keep DateArrived exactly as written, next to a sortable UTC key
 * (instants.ts) used for ordering and range queries. Null text fields stay NULL, empty ones ''.
 */
import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { instantKey } from "./instants.js";
import {
  checkAccount,
  checkId,
  checkMessages,
  checkSeed,
  type SeedFile,
  type SeedMessage,
} from "./seed-file.js";

export type { SeedFile, SeedMessage } from "./seed-file.js";

/** A message as stored: every field present, null where the message has no value. */
export interface StoredMessage {
  readonly Id: number;
  readonly UserId: number;
  /** Exactly as it was given, e.g. `2024-03-10T12:00:00.1234567`. */
  readonly DateArrived: string;
  readonly Sender: string | null;
  readonly MessageText: string | null;
  readonly MessageUrl: string | null;
  readonly Transcription: string | null;
}

/**
 * Schema migrations, in order. Migration i (0-based) brings the schema to version i + 1; never edit
 * one that has shipped, append a new one.
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

const SALT_BYTES = 16;
const KEY_LENGTH = 32;
const hash = (password: string, salt: Buffer): Buffer => scryptSync(password, salt, KEY_LENGTH);
// Compared against when the e-mail is unknown, so that timing does not tell which accounts exist.
const DUMMY_SALT = randomBytes(SALT_BYTES);
const DUMMY_HASH = hash("not a password", DUMMY_SALT);

interface MessageRow {
  id: number;
  user_id: number;
  date_arrived: string;
  sender: string | null;
  message_text: string | null;
  message_url: string | null;
  transcription: string | null;
}

const COLUMNS = "id, user_id, date_arrived, sender, message_text, message_url, transcription";

const toMessage = (r: MessageRow): StoredMessage => ({
  Id: r.id,
  UserId: r.user_id,
  DateArrived: r.date_arrived,
  Sender: r.sender,
  MessageText: r.message_text,
  MessageUrl: r.message_url,
  Transcription: r.transcription,
});

export class MessageStore {
  private readonly db: Database.Database;

  /** Opens (creating it and its folder if needed) and migrates the database at `file`. */
  constructor(file: string) {
    let db: Database.Database | undefined;
    try {
      if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      db = new Database(file);
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      db.pragma("foreign_keys = ON");
      this.db = db;
      this.migrate();
    } catch (e) {
      db?.close();
      throw new Error(`cannot open the database ${file}: ${(e as Error).message}`, { cause: e });
    }
  }

  /** The journal mode in force: `wal` for a database file. */
  get journalMode(): string {
    return String(this.db.pragma("journal_mode", { simple: true }));
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

  /**
   * Adds an account with an scrypt hash of its password. Returns false, changing nothing, when the
   * e-mail (ignoring case) or the user id is taken. Throws for an empty e-mail or password or a user
   * id that is not an xs:int.
   */
  addAccount(email: string, password: string, userId: number): boolean {
    checkAccount(email, password, userId, "account");
    const salt = randomBytes(SALT_BYTES);
    const r = this.db
      .prepare(
        "INSERT OR IGNORE INTO accounts (user_id, email, salt, password_hash) VALUES (?, ?, ?, ?)",
      )
      .run(userId, email, salt, hash(password, salt));
    return r.changes === 1;
  }

  /**
   * Adds messages to the account of `email`, all or none. Ids already present (in any account) are
   * left as they are. Returns how many were added. Throws for an unknown e-mail or an invalid message.
   */
  importMessages(email: string, messages: readonly SeedMessage[]): number {
    const checked = checkMessages(messages, "messages");
    const account = this.db.prepare("SELECT user_id FROM accounts WHERE email = ?").get(email) as
      { user_id: number } | undefined;
    if (!account) throw new Error(`no account with e-mail ${email}`);
    const insert = this.db.prepare(
      "INSERT OR IGNORE INTO messages (id, user_id, date_arrived, arrived_key, sender, message_text, message_url, transcription) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    return this.db.transaction(() => {
      let added = 0;
      for (const m of checked) {
        added += insert.run(
          m.Id,
          account.user_id,
          m.DateArrived,
          instantKey(m.DateArrived),
          m.Sender,
          m.MessageText,
          m.MessageUrl,
          m.Transcription,
        ).changes;
      }
      return added;
    })();
  }

  /**
   * Loads a seed (accounts with their messages), all or none: accounts are added by e-mail, messages
   * by id, each only if absent, so running it again changes nothing. Throws for an invalid seed.
   */
  seed(seed: SeedFile): void {
    const checked = checkSeed(seed);
    this.db.transaction(() => {
      for (const a of checked.accounts) {
        this.addAccount(a.email, a.password, a.userId);
        this.importMessages(a.email, a.messages ?? []);
      }
    })();
  }

  /** The user id for a correct e-mail (ignoring case) and password, else undefined. */
  authenticate(email: string, password: string): number | undefined {
    const row = this.db
      .prepare("SELECT user_id, salt, password_hash FROM accounts WHERE email = ?")
      .get(email) as { user_id: number; salt: Buffer; password_hash: Buffer } | undefined;
    // Unknown e-mails cost one scrypt too, against a dummy hash.
    const matches = timingSafeEqual(
      hash(password, row?.salt ?? DUMMY_SALT),
      row?.password_hash ?? DUMMY_HASH,
    );
    return matches && row ? row.user_id : undefined;
  }

  /** The account's messages, by DateArrived (as instants) and then Id. */
  listMessages(userId: number): StoredMessage[] {
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM messages WHERE user_id = ? ORDER BY arrived_key, id`)
      .all(userId);
    return (rows as MessageRow[]).map(toMessage);
  }

  /**
   * The account's messages with `startKey <= key <= endKey` (keys from instants.ts), by DateArrived
   * and then Id; empty when `startKey > endKey`.
   */
  listMessagesInRange(userId: number, startKey: string, endKey: string): StoredMessage[] {
    const rows = this.db
      .prepare(
        `SELECT ${COLUMNS} FROM messages WHERE user_id = ? AND arrived_key >= ? AND arrived_key <= ? ORDER BY arrived_key, id`,
      )
      .all(userId, startKey, endKey);
    return (rows as MessageRow[]).map(toMessage);
  }

  /** Deletes message `id` if the account owns it; false (deleting nothing) otherwise. */
  deleteMessage(userId: number, id: number): boolean {
    checkId(id, "message id");
    return (
      this.db.prepare("DELETE FROM messages WHERE id = ? AND user_id = ?").run(id, userId)
        .changes === 1
    );
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** Opens the store at `file` (creating the file and its folder, applying migrations). */
export function open(file: string): MessageStore {
  return new MessageStore(file);
}

export { open as openStore };
