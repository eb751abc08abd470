/**
 * Authentication paid once: a successful verification is remembered for a while, so that a client
 * sending the same credentials on every call (as SOAP clients of this service do) costs one scrypt,
 * not one per request; each use renews it. Failures are never remembered, and repeated failures from
 * one address or on one account are refused without running the KDF, except that an address which
 * logged in to the account recently (a known client) is not refused for guesses made elsewhere.
 * Every path costs the same for known and unknown e-mails. All time comes from an injectable clock.
 */
import { createHmac, randomBytes } from "node:crypto";
import { passwordMatches, scryptKdf, type AccountRecord, type Kdf } from "./passwords.js";

export interface AuthOptions {
  /**
   * How long a successful verification is remembered, in milliseconds. Default: 300 000 (5 min).
   */
  readonly cacheTtlMs?: number;
  /**
   * How many successful verifications are remembered at most; the oldest go first. Default: 10 000.
   */
  readonly cacheMaxEntries?: number;
  /** Failed verifications allowed from one address per window. Default: 100. */
  readonly maxFailuresPerAddress?: number;
  /**
   * Failed verifications allowed on one e-mail per window, from addresses that are not its known
   * clients; and, separately, from each address. Default: 10.
   */
  readonly maxFailuresPerAccount?: number;
  /** The failure-counting window, in milliseconds. Default: 900 000 (15 min). */
  readonly failureWindowMs?: number;
  /** KDF runs at once (each takes a thread-pool thread). Default: 4, libuv's default pool size. */
  readonly maxConcurrentKdf?: number;
  /** Verifications waiting for a KDF slot before more are answered "busy". Default: 64. */
  readonly maxQueuedKdf?: number;
  /**
   * How long an address that logged in to an account stays one of its known clients, exempt from
   * the per-account throttle (not from its own), in milliseconds. Default: 2 592 000 000 (30 days).
   */
  readonly knownClientTtlMs?: number;
  /** Known clients remembered at most; the least recently seen go first. Default: 100 000. */
  readonly maxKnownClients?: number;
  /** Where a throttle starting is logged; `console.warn` unless a test injects another. */
  readonly log?: (line: string) => void;
  /** Milliseconds since some origin; `Date.now` unless a test injects another. */
  readonly now?: () => number;
  /** The key derivation; scrypt unless a test injects another. */
  readonly kdf?: Kdf;
}

export const AUTH_DEFAULTS = {
  cacheTtlMs: 300_000,
  cacheMaxEntries: 10_000,
  maxFailuresPerAddress: 100,
  maxFailuresPerAccount: 10,
  failureWindowMs: 900_000,
  maxConcurrentKdf: 4,
  maxQueuedKdf: 64,
  knownClientTtlMs: 2_592_000_000,
  maxKnownClients: 100_000,
} as const;

export type AuthResult =
  | { readonly kind: "ok"; readonly userId: number }
  /** Wrong or unknown credentials. */
  | { readonly kind: "invalid" }
  /** Too many recent failures from this address or on this e-mail. */
  | { readonly kind: "throttled" }
  /** Too much KDF work already waiting: try again shortly. */
  | { readonly kind: "busy" };

/**
 * A bounded map of keys to values that expire; a hit moves its key to the young end and, when
 * `renew` is set, starts its time again (a sliding expiry).
 */
export class ExpiringMap<V> {
  private readonly entries = new Map<string, { expiry: number; value: V }>();
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number,
    private readonly renew = false,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (entry.expiry <= this.now()) return undefined;
    if (this.renew) entry.expiry = this.now() + this.ttlMs;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    // A Map iterates in insertion order, so its first key is the least recently used.
    while (this.entries.size >= this.maxEntries)
      this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { expiry: this.now() + this.ttlMs, value });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

/** Failures per key in fixed windows, bounded in size: a full table forgets its oldest key. */
export class FailureCounter {
  private readonly windows = new Map<string, { start: number; count: number; said?: true }>();
  constructor(
    readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number,
    private readonly maxKeys = 100_000,
  ) {}

  private current(key: string): { start: number; count: number; said?: true } | undefined {
    const w = this.windows.get(key);
    return w && this.now() - w.start < this.windowMs ? w : undefined;
  }

  /** Whether `key` has used up its failures in the current window. */
  exceeded(key: string): boolean {
    return (this.current(key)?.count ?? 0) >= this.max;
  }

  /**
   * Counts one failure (or one attempt in progress); true the first time in its window that one
   * reaches the limit, so a throttle is said once however often an attempt is taken back.
   */
  record(key: string): boolean {
    const w = this.current(key);
    if (w) {
      if (++w.count < this.max || w.said) return false;
      w.said = true;
      return true;
    }
    this.windows.delete(key);
    while (this.windows.size >= this.maxKeys)
      this.windows.delete(this.windows.keys().next().value!);
    const fresh: { start: number; count: number; said?: true } = { start: this.now(), count: 1 };
    if (this.max === 1) fresh.said = true;
    this.windows.set(key, fresh);
    return this.max === 1;
  }

  /** Takes back an attempt counted by `record` that turned out not to be a failure. */
  release(key: string): void {
    const w = this.current(key);
    if (!w || w.count <= 0) return;
    // A key back at no failures leaves the table, so successes never crowd out attackers' counts.
    if (--w.count === 0 && !w.said) this.windows.delete(key);
  }
}

/** Runs at most `maxRunning` tasks at once, queues up to `maxWaiting`, and refuses beyond. */
export class WorkLimiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(
    private readonly maxRunning: number,
    private readonly maxWaiting: number,
  ) {}

  /** `task`'s result, or `undefined` at once when the queue is full. */
  async run<T>(task: () => Promise<T>): Promise<T | undefined> {
    if (this.running >= this.maxRunning) {
      if (this.waiting.length >= this.maxWaiting) return undefined;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so `running` stays counted for it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** The part of a store the authenticator needs. */
export interface AccountSource {
  findAccount(email: string): Promise<AccountRecord | undefined>;
}

// Only ASCII letters fold, as SQLite's NOCASE (and the PostgreSQL schema) compare e-mails.
const foldAscii = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** What the cache keeps of a verification: enough to check that the stored hash is unchanged. */
interface Verified {
  readonly userId: number;
  readonly passwordHash: Buffer;
}

const THROTTLED: AuthResult = { kind: "throttled" };
const INVALID: AuthResult = { kind: "invalid" };
const BUSY: AuthResult = { kind: "busy" };

/** A throttle counter and the key an attempt is counted under in it. */
type Count = readonly [FailureCounter, string];

export class Authenticator {
  // Per process and never stored: a cache key tells nothing about a password outside this process.
  private readonly hmacKey = randomBytes(32);
  private readonly verified: ExpiringMap<Verified>;
  /** Account and address pairs that logged in recently: the account's own clients. */
  private readonly knownClients: ExpiringMap<true>;
  /** Verifications running now, by cache key: the same credentials at once share one hash. */
  private readonly inFlight = new Map<string, Promise<AuthResult>>();
  private readonly byAddress: FailureCounter;
  private readonly byAccount: FailureCounter;
  private readonly byClient: FailureCounter;
  private readonly kdfSlots: WorkLimiter;
  private readonly kdf: Kdf;
  private readonly log: (line: string) => void;

  constructor(
    private readonly accounts: AccountSource,
    options: AuthOptions = {},
  ) {
    const o = { ...AUTH_DEFAULTS, ...options };
    const now = options.now ?? Date.now;
    this.verified = new ExpiringMap(o.cacheTtlMs, o.cacheMaxEntries, now, true);
    // Renewed by a login only: a failed attempt from a known address must not extend its exemption.
    this.knownClients = new ExpiringMap(o.knownClientTtlMs, o.maxKnownClients, now);
    this.byAddress = new FailureCounter(o.maxFailuresPerAddress, o.failureWindowMs, now);
    this.byAccount = new FailureCounter(o.maxFailuresPerAccount, o.failureWindowMs, now);
    this.byClient = new FailureCounter(o.maxFailuresPerAccount, o.failureWindowMs, now);
    this.kdfSlots = new WorkLimiter(o.maxConcurrentKdf, o.maxQueuedKdf);
    this.kdf = options.kdf ?? scryptKdf;
    this.log = options.log ?? ((line) => console.warn(line));
  }

  /** How many successful verifications are remembered now. */
  get cachedCount(): number {
    return this.verified.size;
  }

  /**
   * The cache key: an HMAC of the credentials alone, computed for every attempt before anything
   * else, so that its cost is the same whether or not the e-mail has an account.
   */
  private cacheKey(email: string, password: string): string {
    const mac = createHmac("sha256", this.hmacKey);
    for (const part of [email, password]) {
      const bytes = Buffer.from(part, "utf8");
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length);
      mac.update(length).update(bytes);
    }
    return mac.digest("base64");
  }

  /**
   * Checks `email` and `password`, from `address` (the peer's IP address, if known). In order: the
   * throttle, the cache (credentials verified before, renewed by each use), a verification of the
   * same credentials already running (shared), then the KDF.
   */
  async verify(email: string, password: string, address = "unknown"): Promise<AuthResult> {
    // Throttled before the cache too: else a throttled address could test guesses free of charge
    // against the logins cached for the account's owner.
    if (this.throttled(email, address)) return THROTTLED;
    const key = this.cacheKey(email, password);
    const result =
      (await this.fromCache(key, email)) ?? (await this.verifyOnce(key, email, password, address));
    if (result.kind === "ok") this.knownClients.set(`${foldAscii(email)}\n${address}`, true);
    return result;
  }

  /**
   * Joins a verification of the same credentials running now, unless this address is throttled by
   * then (a joiner is not counted: a fleet of the owner's clients shares one hash), or starts one.
   */
  private verifyOnce(key: string, email: string, password: string, address: string) {
    const running = this.inFlight.get(key);
    if (running === undefined) return this.attempt(key, email, password, address);
    return this.throttled(email, address) ? Promise.resolve(THROTTLED) : running;
  }

  private throttled(email: string, address: string): boolean {
    return this.countsFor(email, address).some(([counter, k]) => counter.exceeded(k));
  }

  /**
   * The cached verification of these credentials, if the stored hash is still the one verified: a
   * new password hash (or salt, or user id) makes the entry for the old one useless at once.
   */
  private async fromCache(key: string, email: string): Promise<AuthResult | undefined> {
    const entry = this.verified.get(key);
    if (entry === undefined) return undefined;
    const account = await this.accounts.findAccount(email);
    if (account?.userId === entry.userId && account.passwordHash.equals(entry.passwordHash))
      return { kind: "ok", userId: account.userId };
    this.verified.delete(key);
    return undefined;
  }

  /**
   * The counters an unverified attempt is charged to: its address, its account and address pair,
   * and its account, unless this address has logged in to it recently (so that guesses from
   * elsewhere cannot lock out the owner's own clients).
   */
  private countsFor(email: string, address: string): Count[] {
    const account = foldAscii(email);
    const client = `${account}\n${address}`;
    const counts: Count[] = [
      [this.byAddress, address],
      [this.byClient, client],
    ];
    if (this.knownClients.get(client) === undefined) counts.push([this.byAccount, account]);
    return counts;
  }

  /**
   * A verification by the KDF, unless throttled. The attempt is counted before the hash, in the
   * same turn of the event loop as the check, so a burst cannot verify more guesses than the
   * limit; a success (or a busy answer) takes its count back.
   */
  private attempt(key: string, email: string, password: string, address: string) {
    // Checked again in the turn that counts: awaits since `verify`'s check let others count.
    if (this.throttled(email, address)) return Promise.resolve(THROTTLED);
    const counts = this.countsFor(email, address);
    for (const [counter, k] of counts)
      if (counter.record(k)) this.logThrottle(counter, email, address);
    const release = () => counts.forEach(([counter, k]) => counter.release(k));
    const running = this.check(key, email, password).then(
      (r) => (r.kind !== "invalid" && release(), r),
      (e: unknown) => (release(), Promise.reject(e)),
    );
    this.inFlight.set(key, running);
    void running.then(
      () => this.inFlight.delete(key),
      () => this.inFlight.delete(key),
    );
    return running;
  }

  /** Says, once per window and key, that a throttle has started. */
  private logThrottle(counter: FailureCounter, rawEmail: string, address: string) {
    // The e-mail is the attacker's to choose: a line of the log it fills stays short.
    const email = rawEmail.length > 80 ? `${rawEmail.slice(0, 80)}…` : rawEmail;
    const what =
      counter === this.byAddress
        ? `from address ${address}`
        : counter === this.byAccount
          ? `on account ${JSON.stringify(email)}`
          : `on account ${JSON.stringify(email)} from address ${address}`;
    this.log(`auth: ${counter.max} failed logins ${what}; further attempts refused for a while`);
  }

  private async check(key: string, email: string, password: string): Promise<AuthResult> {
    const account = await this.accounts.findAccount(email);
    const matches = await this.kdfSlots.run(() => passwordMatches(account, password, this.kdf));
    if (matches === undefined) return BUSY;
    if (!matches || account === undefined) return INVALID;
    this.verified.set(key, { userId: account.userId, passwordHash: account.passwordHash });
    return { kind: "ok", userId: account.userId };
  }
}
