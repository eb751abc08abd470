/**
 * The store's interface, and `open`, which picks its implementation: SQLite (sqlite-store.ts, the
 * embedded default) for a file path, PostgreSQL (postgres-store.ts, for several instances) for a
 * `postgres://` or `postgresql://` URL. Both apply the same numbered migrations and keep the same
 * semantics: DateArrived exactly as written next to a sortable UTC key (instants.ts), null text
 * fields NULL and empty ones '', e-mails unique ignoring ASCII case, passwords as salted scrypt
 * hashes.
 */
import type { AccountRecord } from "./passwords.js";
import type { SeedFile, SeedMessage } from "./seed-file.js";

export type { SeedFile, SeedMessage } from "./seed-file.js";
export type { AccountRecord } from "./passwords.js";
import { openSqlite } from "./sqlite-store.js";
export { MIGRATIONS, openSqlite, SqliteStore, SQLITE_BUSY_TIMEOUT_MS } from "./sqlite-store.js";

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

export interface MessageStore {
  /** Where the data lives, for messages: the file, or the URL without its password. */
  readonly description: string;
  /**
   * Adds an account with an scrypt hash of its password. Resolves false, changing nothing, when the
   * e-mail (ignoring case) or the user id is taken. Rejects for an empty e-mail or password or a
   * user id that is not an xs:int.
   */
  addAccount(email: string, password: string, userId: number): Promise<boolean>;
  /**
   * Adds messages to the account of `email`, all or none. Ids already present (in any account) are
   * left as they are. Resolves to how many were added; rejects for an unknown e-mail or an invalid
   * message.
   */
  importMessages(email: string, messages: readonly SeedMessage[]): Promise<number>;
  /**
   * Loads a seed (accounts with their messages), all or none: accounts are added by e-mail,
   * messages by id, each only if absent, so running it again changes nothing. Rejects for an
   * invalid seed.
   */
  seed(seed: SeedFile): Promise<void>;
  /** The account of `email` (ignoring case), to check a password against, if there is one. */
  findAccount(email: string): Promise<AccountRecord | undefined>;
  /** The account's messages, by DateArrived (as instants) and then Id. */
  listMessages(userId: number): Promise<StoredMessage[]>;
  /**
   * The account's messages with `startKey <= key <= endKey` (keys from instants.ts), by DateArrived
   * and then Id; empty when `startKey > endKey`.
   */
  listMessagesInRange(userId: number, startKey: string, endKey: string): Promise<StoredMessage[]>;
  /**
   * `listMessages`' messages read through a cursor as they are pulled, so that a streamed answer
   * holds one batch whatever the account's size. The cursor opens at the first `next()` and is
   * released when the rows end, on an error, or by `return()` (a client gone mid-stream).
   */
  streamMessages(userId: number): AsyncIterable<StoredMessage>;
  /** `listMessagesInRange`'s messages through a cursor, as `streamMessages`. */
  streamMessagesInRange(
    userId: number,
    startKey: string,
    endKey: string,
  ): AsyncIterable<StoredMessage>;
  /**
   * Deletes message `id` if the account owns it; false (deleting nothing) otherwise. Of concurrent
   * deletes of one message, from any number of processes, exactly one resolves true.
   */
  deleteMessage(userId: number, id: number): Promise<boolean>;
  /** Closes the connection(s); calling it again is harmless. */
  close(): Promise<void>;
}

export interface OpenOptions {
  /**
   * How long one database call may wait, in milliseconds: SQLite's busy timeout (for a lock held by
   * another process; it blocks the thread, so keep it short), PostgreSQL's wait for a pooled
   * connection and for a query's answer. Default: 1 000 for SQLite, 5 000 for PostgreSQL.
   */
  readonly timeoutMs?: number;
  /**
   * Where the store says what goes wrong that no call hears of (PostgreSQL: a connection lost while
   * idle, a failed ROLLBACK). Default: `console.error`.
   */
  readonly log?: (line: string) => void;
}

/** Whether `target` names a PostgreSQL database rather than a SQLite file. */
export const isPostgresUrl = (target: string): boolean => /^postgres(ql)?:\/\//i.test(target);

/** `target` fit for a message or a log: a PostgreSQL URL loses its password, if any. */
export function describeTarget(target: string): string {
  if (!isPostgresUrl(target)) return target;
  try {
    const url = new URL(target);
    if (url.password) url.password = "***";
    return url.href;
  } catch {
    return "(an unreadable postgres:// URL)";
  }
}

/**
 * Opens the store at `target` (a SQLite file, created with its folder if missing, or a PostgreSQL
 * URL) and applies the missing migrations.
 */
export async function open(target: string, options: OpenOptions = {}): Promise<MessageStore> {
  if (!isPostgresUrl(target)) return openSqlite(target, options);
  // Loaded only when asked for: `pg` is needed by PostgreSQL users alone.
  return (await import("./postgres-store.js")).openPostgres(target, options);
}

export { open as openStore };
