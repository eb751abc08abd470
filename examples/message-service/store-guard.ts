/**
 * A store that fails cleanly: every call a request makes has a time limit, and a database that is
 * down, frozen or locked becomes one error, `StoreUnavailableError`, which the service answers with
 * 503 and Retry-After rather than 500. An outage (of reads, or of writes) is logged twice, when it
 * starts and when it ends (with how many calls failed), never once per request.
 */
import type { MessageStore } from "./store.js";

/** The database could not answer in time, or at all: the request may be sent again later. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StoreUnavailableError";
  }
}

// SQLite's codes for a database that is busy, locked, unreadable or out of room.
const SQLITE_DOWN = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL|READONLY|NOTADB|CORRUPT|PROTOCOL)/;
// PostgreSQL's SQLSTATE classes: connection exception, insufficient resources, operator
// intervention (shutdown, cancel), system error.
const PG_DOWN = /^(08|53|57|58)/;
const NET_DOWN = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH"]);
// What `pg` says, without a code, when its connection or pool gives up.
const PG_GONE =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Query read timeout/;

/** Whether `e` says the database is unavailable, not that a request or the code is wrong. */
export function isOutage(e: unknown): boolean {
  if (e instanceof StoreUnavailableError) return true;
  if (!(e instanceof Error)) return false;
  const code = String((e as { code?: unknown }).code ?? "");
  return (
    SQLITE_DOWN.test(code) || PG_DOWN.test(code) || NET_DOWN.has(code) || PG_GONE.test(e.message)
  );
}

export interface GuardOptions {
  /** How long one store call may take, in milliseconds. */
  readonly timeoutMs: number;
  /** Where the start and the end of an outage are said. */
  readonly log: (line: string) => void;
  /** Milliseconds since some origin; `Date.now` unless a test injects another. */
  readonly now?: () => number;
}

/** Counts the calls that failed during an outage; says when it starts and when it ends. */
class OutageLog {
  private failed = 0;
  private since = 0;
  constructor(
    /** The store and which calls: `… for reads`, `… for writes`. */
    private readonly description: string,
    private readonly options: GuardOptions,
  ) {}

  private get now(): number {
    return (this.options.now ?? Date.now)();
  }

  failure(e: unknown): void {
    if (this.failed++ > 0) return;
    this.since = this.now;
    const why = e instanceof Error ? e.message : String(e);
    this.options.log(
      `store: ${this.description} unavailable (${why}); answering 503 until it answers again`,
    );
  }

  /** A failure no request hears of (closing a cursor left early): said, not thrown. */
  aside(what: string, e: unknown): void {
    const why = e instanceof Error ? e.message : String(e);
    this.options.log(`store: ${this.description}: ${what} failed (${why})`);
  }

  success(): void {
    if (this.failed === 0) return;
    const seconds = ((this.now - this.since) / 1000).toFixed(1);
    this.options.log(
      `store: ${this.description} available again after ${seconds} s; ${this.failed} calls failed`,
    );
    this.failed = 0;
  }
}

/** What to throw for `e`: an outage (logged) becomes a StoreUnavailableError; others stay. */
function unavailable(e: unknown, log: OutageLog): unknown {
  if (!isOutage(e)) return e;
  log.failure(e);
  return e instanceof StoreUnavailableError
    ? e
    : new StoreUnavailableError(`the database is unavailable: ${(e as Error).message}`, {
        cause: e,
      });
}

/** `call`'s result, or a StoreUnavailableError when it fails for an outage or takes too long. */
async function limited<T>(call: () => Promise<T>, log: OutageLog, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StoreUnavailableError(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    const result = await Promise.race([call(), timeout]);
    log.success();
    return result;
  } catch (e) {
    throw unavailable(e, log);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A cursor's rows with its opening (the first pull: a connection, the query) under the time limit,
 * and outages told apart on every pull; the driver's own timeouts bound the later ones without a
 * timer per row. Closing it early closes the cursor, without waiting for a pull under way.
 */
async function* guardedRows<T>(
  rows: AsyncIterable<T>,
  log: OutageLog,
  timeoutMs: number,
): AsyncGenerator<T> {
  const it = rows[Symbol.asyncIterator]();
  let ended = false;
  try {
    let r = await limited(() => it.next(), log, timeoutMs);
    while (r.done !== true) {
      yield r.value;
      try {
        r = await it.next();
      } catch (e) {
        throw unavailable(e, log);
      }
    }
    ended = true;
  } finally {
    if (!ended)
      void Promise.resolve(it.return?.()).catch((e: unknown) => log.aside("closing a cursor", e));
  }
}

/** `store` with a time limit on each call a request makes, and its outages told apart. */
export function guardStore(store: MessageStore, options: GuardOptions): MessageStore {
  // Reads and writes apart: a lock held elsewhere can stop writes while reads go on (WAL), and
  // their successes must not end the writes' outage in the log.
  const reads = new OutageLog(`${store.description} for reads`, options);
  const writes = new OutageLog(`${store.description} for writes`, options);
  const within = <T>(call: () => Promise<T>, log = reads) => limited(call, log, options.timeoutMs);
  return {
    description: store.description,
    addAccount: (...a) => store.addAccount(...a),
    importMessages: (...a) => store.importMessages(...a),
    seed: (...a) => store.seed(...a),
    close: () => store.close(),
    findAccount: (...a) => within(() => store.findAccount(...a)),
    listMessages: (...a) => within(() => store.listMessages(...a)),
    listMessagesInRange: (...a) => within(() => store.listMessagesInRange(...a)),
    streamMessages: (...a) => guardedRows(store.streamMessages(...a), reads, options.timeoutMs),
    streamMessagesInRange: (...a) =>
      guardedRows(store.streamMessagesInRange(...a), reads, options.timeoutMs),
    deleteMessage: (...a) => within(() => store.deleteMessage(...a), writes),
  };
}
