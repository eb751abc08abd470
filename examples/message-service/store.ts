/**
 * The store: SQLite through better-sqlite3, in WAL mode, with ordered schema migrations. Accounts
 * keep an scrypt hash (compared in constant time); messages keep DateArrived exactly as written,
 * next to a sortable UTC key for ordering and range queries.
 */
import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { instantKey } from "./instants.js";

export interface SeedMessage {
  readonly Id: number;
  readonly DateArrived: string;
  readonly Sender: string | null;
  readonly MessageText: string | null;
  readonly MessageUrl: string | null;
  readonly Transcription: string | null;
}

export interface SeedFile {
  readonly accounts: readonly { readonly email: string; readonly password: string; readonly userId: number; readonly messages?: readonly SeedMessage[] }[];
}

export interface StoredMessage extends SeedMessage {
  readonly UserId: number;
}

/** Schema migrations, applied in order; `PRAGMA user_version` records how many have run. */
const MIGRATIONS: readonly string[] = [
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

const KEY_LENGTH = 32;
const hash = (password: string, salt: Buffer): Buffer => scryptSync(password, salt, KEY_LENGTH);
// Compared against when the e-mail is unknown, so that timing does not tell which accounts exist.
const DUMMY_SALT = randomBytes(16);
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

  constructor(file: string) {
    if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("foreign_keys = ON");
    this.migrate();
  }

  /** The journal mode in force (`wal`). */
  get journalMode(): string {
    return String(this.db.pragma("journal_mode", { simple: true }));
  }

  get schemaVersion(): number {
    return Number(this.db.pragma("user_version", { simple: true }));
  }

  private migrate(): void {
    const version = this.schemaVersion;
    for (let i = version; i < MIGRATIONS.length; i++) {
      this.db.transaction(() => {
        this.db.exec(MIGRATIONS[i]!);
        this.db.pragma(`user_version = ${i + 1}`);
      })();
    }
  }

  /** Adds an account; false when the e-mail or user id is taken. */
  addAccount(email: string, password: string, userId: number): boolean {
    if (!Number.isSafeInteger(userId)) throw new RangeError(`user id ${userId} is not an integer`);
    const salt = randomBytes(16);
    const r = this.db.prepare("INSERT OR IGNORE INTO accounts (user_id, email, salt, password_hash) VALUES (?, ?, ?, ?)").run(userId, email, salt, hash(password, salt));
    return r.changes === 1;
  }

  /** Adds messages to an account; ids already present are left as they are. Returns how many were added. */
  importMessages(email: string, messages: readonly SeedMessage[]): number {
    const account = this.db.prepare("SELECT user_id FROM accounts WHERE email = ?").get(email) as { user_id: number } | undefined;
    if (!account) throw new Error(`no account with e-mail ${email}`);
    const insert = this.db.prepare(
      "INSERT OR IGNORE INTO messages (id, user_id, date_arrived, arrived_key, sender, message_text, message_url, transcription) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    return this.db.transaction(() => {
      let added = 0;
      for (const m of messages) {
        added += insert.run(m.Id, account.user_id, m.DateArrived, instantKey(m.DateArrived), m.Sender, m.MessageText, m.MessageUrl, m.Transcription).changes;
      }
      return added;
    })();
  }

  /** Loads a seed file; running it again changes nothing. */
  seed(seed: SeedFile): void {
    this.db.transaction(() => {
      for (const a of seed.accounts) {
        this.addAccount(a.email, a.password, a.userId);
        this.importMessages(a.email, a.messages ?? []);
      }
    })();
  }

  /** The user id for a correct e-mail and password, else undefined. */
  authenticate(email: string, password: string): number | undefined {
    const row = this.db.prepare("SELECT user_id, salt, password_hash FROM accounts WHERE email = ?").get(email) as
      | { user_id: number; salt: Buffer; password_hash: Buffer }
      | undefined;
    const expected = row?.password_hash ?? DUMMY_HASH;
    const actual = hash(password, row?.salt ?? DUMMY_SALT);
    return timingSafeEqual(actual, expected) && row ? row.user_id : undefined;
  }

  /** The account's messages, by DateArrived and then Id. */
  listMessages(userId: number): StoredMessage[] {
    return (this.db.prepare("SELECT * FROM messages WHERE user_id = ? ORDER BY arrived_key, id").all(userId) as MessageRow[]).map(toMessage);
  }

  /** The account's messages with `startKey <= key <= endKey` (keys from `instantKey`). */
  listMessagesInRange(userId: number, startKey: string, endKey: string): StoredMessage[] {
    const rows = this.db.prepare("SELECT * FROM messages WHERE user_id = ? AND arrived_key BETWEEN ? AND ? ORDER BY arrived_key, id").all(userId, startKey, endKey);
    return (rows as MessageRow[]).map(toMessage);
  }

  /** Deletes a message of the account; false when the account has no message with that id. */
  deleteMessage(userId: number, id: number): boolean {
    return this.db.prepare("DELETE FROM messages WHERE id = ? AND user_id = ?").run(id, userId).changes === 1;
  }

  close(): void {
    this.db.close();
  }
}

export function openStore(file: string): MessageStore {
  return new MessageStore(file);
}
