/**
 * The PostgreSQL store, through `pg`, for several service instances on one database. Same schema
 * versions and semantics as the SQLite store (sqlite-store.ts): e-mails unique ignoring ASCII case
 * (SQLite's NOCASE), sortable keys compared byte by byte (COLLATE "C", whatever the database's
 * locale), DateArrived kept as written. A delete is one statement, so of concurrent deletes of one
 * message, in any number of processes, exactly one removes the row.
 */
import pg from "pg";
import { hashPassword, type AccountRecord } from "./passwords.js";
import { checkAccount, checkId, checkMessages, checkSeed, type SeedFile } from "./seed-file.js";
import { COLUMNS, messageValues, toMessage, type MessageRow } from "./message-rows.js";
import {
  describeTarget,
  type MessageStore,
  type OpenOptions,
  type SeedMessage,
  type StoredMessage,
} from "./store.js";

const FOLD = (sql: string) =>
  `translate(${sql}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;

/** The twins of sqlite-store.ts's MIGRATIONS, one for one. */
export const PG_MIGRATIONS: readonly string[] = [
  `CREATE TABLE accounts (
     user_id integer PRIMARY KEY,
     email text NOT NULL,
     salt bytea NOT NULL,
     password_hash bytea NOT NULL
   );
   CREATE UNIQUE INDEX accounts_email ON accounts (${FOLD("email")});
   CREATE TABLE messages (
     id integer PRIMARY KEY,
     user_id integer NOT NULL REFERENCES accounts(user_id),
     date_arrived text NOT NULL,
     arrived_key text COLLATE "C" NOT NULL,
     sender text,
     message_text text,
     message_url text,
     transcription text
   );
   CREATE INDEX messages_by_user_time ON messages (user_id, arrived_key, id);`,
];

// Any constant will do: it only has to be the same in every process migrating this schema.
const MIGRATION_LOCK = 0x6d7273;

type Client = pg.PoolClient;

/**
 * The statements every request runs, prepared once per connection under their names: parsing and
 * planning them per query took about half of PostgreSQL's CPU time per GetMessages.
 */
const STATEMENTS = {
  findAccount:
    "SELECT user_id, salt, password_hash FROM accounts " + `WHERE ${FOLD("email")} = ${FOLD("$1")}`,
  listMessages: `SELECT ${COLUMNS} FROM messages WHERE user_id = $1 ORDER BY arrived_key, id`,
  listMessagesInRange:
    `SELECT ${COLUMNS} FROM messages ` +
    "WHERE user_id = $1 AND arrived_key >= $2 AND arrived_key <= $3 ORDER BY arrived_key, id",
  deleteMessage: "DELETE FROM messages WHERE id = $1 AND user_id = $2",
} as const;

/**
 * Rows a cursor FETCHes at a time: memory holds one batch, and a round trip serves 500 messages.
 */
const FETCH_ROWS = 500;

export class PostgresStore implements MessageStore {
  readonly description: string;

  constructor(
    private readonly pool: pg.Pool,
    url: string,
    private readonly log: (line: string) => void = (line) => console.error(line),
  ) {
    this.description = describeTarget(url);
  }

  /**
   * A ROLLBACK that failed: said, not thrown (the caller has an error of its own, or none); true,
   * since its connection, in a transaction still perhaps, must not go back to the pool.
   */
  private rollbackFailed(e: unknown): true {
    const why = e instanceof Error ? e.message : String(e);
    this.log(`store: ${this.description}: ROLLBACK failed (${why}); the connection is dropped`);
    return true;
  }

  /** ROLLBACK on `client`: whether it failed (and was logged). */
  private rollback(client: Client): Promise<boolean> {
    return client.query("ROLLBACK").then(
      () => false,
      (e: unknown) => this.rollbackFailed(e),
    );
  }

  /** Runs `f` in one transaction on one connection: all or none. */
  async transaction<T>(f: (client: Client) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query("BEGIN");
      const result = await f(client);
      await client.query("COMMIT");
      return result;
    } catch (e) {
      broken = await this.rollback(client);
      throw e;
    } finally {
      client.release(broken);
    }
  }

  private run<R extends pg.QueryResultRow>(name: keyof typeof STATEMENTS, values: unknown[]) {
    return this.pool.query<R>({ name, text: STATEMENTS[name], values });
  }

  /** How many migrations have been applied. */
  async schemaVersion(): Promise<number> {
    const r = await this.pool.query<{ version: number }>("SELECT version FROM schema_version");
    return r.rows[0]?.version ?? 0;
  }

  /** Applies the missing migrations, all or none; concurrent openers wait on an advisory lock. */
  async migrate(): Promise<void> {
    await this.transaction(async (c) => {
      await c.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      await c.query("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)");
      const r = await c.query<{ version: number }>("SELECT version FROM schema_version");
      const version = r.rows[0]?.version ?? 0;
      if (version > PG_MIGRATIONS.length)
        throw new Error(
          `the database has schema version ${version}, newer than this program's ${PG_MIGRATIONS.length}`,
        );
      for (let i = version; i < PG_MIGRATIONS.length; i++) await c.query(PG_MIGRATIONS[i]!);
      if (r.rows.length === 0) await c.query("INSERT INTO schema_version VALUES ($1)", [0]);
      await c.query("UPDATE schema_version SET version = $1", [PG_MIGRATIONS.length]);
    });
  }

  private async insertAccount(c: Client, a: AccountRecord & { email: string }): Promise<boolean> {
    const r = await c.query(
      "INSERT INTO accounts (user_id, email, salt, password_hash) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
      [a.userId, a.email, a.salt, a.passwordHash],
    );
    return r.rowCount === 1;
  }

  private async insertMessages(c: Client, email: string, messages: readonly SeedMessage[]) {
    const r = await c.query<{ user_id: number }>(
      `SELECT user_id FROM accounts WHERE ${FOLD("email")} = ${FOLD("$1")}`,
      [email],
    );
    const account = r.rows[0];
    if (!account) throw new Error(`no account with e-mail ${email}`);
    let added = 0;
    for (const m of messages) {
      const ins = await c.query(
        "INSERT INTO messages (id, user_id, date_arrived, arrived_key, sender, message_text, message_url, transcription) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
        messageValues(m, account.user_id),
      );
      added += ins.rowCount ?? 0;
    }
    return added;
  }

  async addAccount(email: string, password: string, userId: number): Promise<boolean> {
    checkAccount(email, password, userId, "account");
    const a = { email, userId, ...(await hashPassword(password)) };
    return this.transaction((c) => this.insertAccount(c, a));
  }

  async importMessages(email: string, messages: readonly SeedMessage[]): Promise<number> {
    const checked = checkMessages(messages, "messages");
    return this.transaction((c) => this.insertMessages(c, email, checked));
  }

  async seed(seed: SeedFile): Promise<void> {
    const checked = checkSeed(seed);
    const hashed = await Promise.all(
      checked.accounts.map(async (a) => ({ ...a, ...(await hashPassword(a.password)) })),
    );
    await this.transaction(async (c) => {
      for (const a of hashed) {
        await this.insertAccount(c, a);
        await this.insertMessages(c, a.email, a.messages ?? []);
      }
    });
  }

  async findAccount(email: string): Promise<AccountRecord | undefined> {
    // PostgreSQL text cannot hold NUL, so no account has one: a query with it would be an error.
    if (email.includes("\u0000")) return undefined;
    const r = await this.run<{ user_id: number; salt: Buffer; password_hash: Buffer }>(
      "findAccount",
      [email],
    );
    const row = r.rows[0];
    return row && { userId: row.user_id, salt: row.salt, passwordHash: row.password_hash };
  }

  async listMessages(userId: number): Promise<StoredMessage[]> {
    const r = await this.run<MessageRow>("listMessages", [userId]);
    return r.rows.map(toMessage);
  }

  async listMessagesInRange(
    userId: number,
    startKey: string,
    endKey: string,
  ): Promise<StoredMessage[]> {
    const r = await this.run<MessageRow>("listMessagesInRange", [userId, startKey, endKey]);
    return r.rows.map(toMessage);
  }

  streamMessages(userId: number): AsyncIterable<StoredMessage> {
    return this.cursor("listMessages", [userId]);
  }

  streamMessagesInRange(
    userId: number,
    startKey: string,
    endKey: string,
  ): AsyncIterable<StoredMessage> {
    return this.cursor("listMessagesInRange", [userId, startKey, endKey]);
  }

  /** Cursors open now, each holding a pooled connection: 0 once every stream has ended. */
  openCursors = 0;

  /**
   * The rows of a statement through `DECLARE … CURSOR` in a read-only transaction, FETCHed by the
   * batch as they are pulled, the connection pooled again at the end or when closed early. After an
   * error it is destroyed instead, since it may be mid-query or gone.
   */
  private async *cursor(
    name: "listMessages" | "listMessagesInRange",
    values: unknown[],
  ): AsyncGenerator<StoredMessage> {
    const client = await this.pool.connect();
    this.openCursors++;
    let inTransaction = false;
    let broken = false;
    // The pool listens only to idle connections: one lost while the client reads slowly would
    // otherwise be an unhandled 'error' event. The next FETCH then fails, and ends the stream.
    const lost = () => void (broken = true);
    client.on("error", lost);
    try {
      await client.query("BEGIN READ ONLY");
      inTransaction = true;
      await client.query({
        text: `DECLARE listing NO SCROLL CURSOR FOR ${STATEMENTS[name]}`,
        values,
      });
      for (;;) {
        const { rows } = await client.query<MessageRow>(`FETCH ${FETCH_ROWS} FROM listing`);
        for (const row of rows) yield toMessage(row);
        if (rows.length < FETCH_ROWS) break;
      }
      await client.query("COMMIT");
      inTransaction = false;
    } catch (e) {
      broken = true;
      throw e;
    } finally {
      if (inTransaction && !broken) broken = await this.rollback(client);
      this.openCursors--;
      client.off("error", lost);
      client.release(broken);
    }
  }

  async deleteMessage(userId: number, id: number): Promise<boolean> {
    checkId(id, "message id");
    const r = await this.run("deleteMessage", [id, userId]);
    return r.rowCount === 1;
  }

  private closing: Promise<void> | undefined;
  close(): Promise<void> {
    return (this.closing ??= this.pool.end());
  }
}

/** How long a call waits for a connection, and then for its answer, by default, in milliseconds. */
export const PG_TIMEOUT_MS = 5_000;

/** Connects to the database at `url` and applies the missing migrations. */
export async function openPostgres(url: string, options: OpenOptions = {}): Promise<PostgresStore> {
  const timeoutMs = options.timeoutMs ?? PG_TIMEOUT_MS;
  // Without these, a frozen server makes every call wait as long as the freeze lasts.
  const pool = new pg.Pool({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  // A connection dropped while idle is replaced on next use; without a listener it would crash us.
  const log = options.log ?? ((line: string) => console.error(line));
  pool.on("error", (e) => log(`database connection lost: ${e.message}`));
  const store = new PostgresStore(pool, url, log);
  try {
    await store.migrate();
    return store;
  } catch (e) {
    await store.close();
    throw new Error(`cannot open the database ${store.description}: ${(e as Error).message}`, {
      cause: e,
    });
  }
}
