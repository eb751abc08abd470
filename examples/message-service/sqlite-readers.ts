/**
 * Read-only connections for the SQLite store's cursors. A cursor left open on the main connection
 * would stop its writes ("This database connection is busy executing a query") for as long as a
 * slow client reads; a connection of its own reads in WAL mode beside the writer, from one
 * snapshot.
 */
import Database from "better-sqlite3";
import { COLUMNS, toMessage, type MessageRow } from "./message-rows.js";
import type { StoredMessage } from "./store.js";

/** The queries a cursor runs, by name; parameters as the main connection's `all` and `range`. */
export const CURSOR_QUERIES = {
  all: `SELECT ${COLUMNS} FROM messages WHERE user_id = ? ORDER BY arrived_key, id`,
  range:
    `SELECT ${COLUMNS} FROM messages WHERE user_id = ? AND arrived_key >= ? ` +
    "AND arrived_key <= ? ORDER BY arrived_key, id",
} as const;
export type CursorQuery = keyof typeof CURSOR_QUERIES;

/** One read-only connection with its statements, compiled once. */
interface Reader {
  readonly db: Database.Database;
  readonly sql: Record<CursorQuery, Database.Statement>;
}

/** Idle connections kept for the next cursors; more are opened when more read at once. */
const KEEP_IDLE = 4;

export class SqliteReaders {
  private readonly idle: Reader[] = [];
  private closed = false;
  /** Connections lent to cursors and not yet given back. */
  busy = 0;

  constructor(
    private readonly file: string,
    private readonly timeoutMs: number,
  ) {}

  private take(): Reader {
    if (this.closed) throw new Error("the store is closed");
    const r = this.idle.pop() ?? this.open();
    this.busy++;
    return r;
  }

  private open(): Reader {
    const db = new Database(this.file, {
      readonly: true,
      fileMustExist: true,
      timeout: this.timeoutMs,
    });
    const prepare = (q: CursorQuery) => db.prepare(CURSOR_QUERIES[q]);
    return { db, sql: { all: prepare("all"), range: prepare("range") } };
  }

  /** Back to the pool, or closed: when the store is, when enough wait, or after an error. */
  private give(r: Reader, healthy: boolean): void {
    this.busy--;
    if (healthy && !this.closed && this.idle.length < KEEP_IDLE) this.idle.push(r);
    else r.db.close();
  }

  /**
   * The rows of query `q`, read one by one through `stmt.iterate()` as they are pulled. The
   * connection is taken at the first `next()` and given back when the rows end, on an error, or
   * by `return()` (a client gone), which also closes the statement's iterator.
   */
  async *rows(q: CursorQuery, params: readonly unknown[]): AsyncGenerator<StoredMessage> {
    const reader = this.take();
    let failed = false;
    try {
      for (const row of reader.sql[q].iterate(...params) as Iterable<MessageRow>)
        yield toMessage(row);
    } catch (e) {
      failed = true;
      throw e;
    } finally {
      // A generator closed at its yield (a client gone) has not failed: its connection is reused.
      this.give(reader, !failed);
    }
  }

  /** Closes the idle connections now and the busy ones when their cursors end. */
  close(): void {
    this.closed = true;
    for (const r of this.idle.splice(0)) r.db.close();
  }
}
