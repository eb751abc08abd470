/**
 * Authentication paid once: a successful verification is remembered for a while, so that a client
 * sending the same credentials on every call (as SOAP clients of this service do) costs one scrypt,
 * not one per request. Failures are never remembered, and repeated failures from one address or on
 * one account are refused without running the KDF. All time comes from an injectable clock.
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
  /** Failed verifications allowed on one e-mail per window. Default: 10. */
  readonly maxFailuresPerAccount?: number;
  /** The failure-counting window, in milliseconds. Default: 900 000 (15 min). */
  readonly failureWindowMs?: number;
  /** KDF runs at once (each takes a thread-pool thread). Default: 4, libuv's default pool size. */
  readonly maxConcurrentKdf?: number;
  /** Verifications waiting for a KDF slot before more are answered "busy". Default: 64. */
  readonly maxQueuedKdf?: number;
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
} as const;

export type AuthResult =
  | { readonly kind: "ok"; readonly userId: number }
  /** Wrong or unknown credentials. */
  | { readonly kind: "invalid" }
  /** Too many recent failures from this address or on this e-mail. */
  | { readonly kind: "throttled" }
  /** Too much KDF work already waiting: try again shortly. */
  | { readonly kind: "busy" };

/** A bounded map of keys to expiry times; a hit moves its key to the young end. */
export class ExpiringSet {
  private readonly expiries = new Map<string, number>();
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.expiries.size;
  }

  has(key: string): boolean {
    const expiry = this.expiries.get(key);
    if (expiry === undefined) return false;
    this.expiries.delete(key);
    if (expiry <= this.now()) return false;
    this.expiries.set(key, expiry);
    return true;
  }

  add(key: string): void {
    this.expiries.delete(key);
    // A Map iterates in insertion order, so its first key is the least recently used.
    while (this.expiries.size >= this.maxEntries)
      this.expiries.delete(this.expiries.keys().next().value!);
    this.expiries.set(key, this.now() + this.ttlMs);
  }
}

/** Failures per key in fixed windows, bounded in size: a full table forgets its oldest key. */
export class FailureCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number,
    private readonly maxKeys = 100_000,
  ) {}

  private current(key: string): { start: number; count: number } | undefined {
    const w = this.windows.get(key);
    return w && this.now() - w.start < this.windowMs ? w : undefined;
  }

  /** Whether `key` has used up its failures in the current window. */
  exceeded(key: string): boolean {
    return (this.current(key)?.count ?? 0) >= this.max;
  }

  record(key: string): void {
    const w = this.current(key);
    if (w) return void w.count++;
    this.windows.delete(key);
    while (this.windows.size >= this.maxKeys)
      this.windows.delete(this.windows.keys().next().value!);
    this.windows.set(key, { start: this.now(), count: 1 });
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

export class Authenticator {
  // Per process and never stored: a cache key tells nothing about a password outside this process.
  private readonly hmacKey = randomBytes(32);
  private readonly verified: ExpiringSet;
  private readonly byAddress: FailureCounter;
  private readonly byAccount: FailureCounter;
  private readonly kdfSlots: WorkLimiter;
  private readonly kdf: Kdf;

  constructor(
    private readonly accounts: AccountSource,
    options: AuthOptions = {},
  ) {
    const o = { ...AUTH_DEFAULTS, ...options };
    const now = options.now ?? Date.now;
    this.verified = new ExpiringSet(o.cacheTtlMs, o.cacheMaxEntries, now);
    this.byAddress = new FailureCounter(o.maxFailuresPerAddress, o.failureWindowMs, now);
    this.byAccount = new FailureCounter(o.maxFailuresPerAccount, o.failureWindowMs, now);
    this.kdfSlots = new WorkLimiter(o.maxConcurrentKdf, o.maxQueuedKdf);
    this.kdf = options.kdf ?? scryptKdf;
  }

  /** How many successful verifications are remembered now. */
  get cachedCount(): number {
    return this.verified.size;
  }

  /**
   * The cache key: an HMAC of the credentials and of the stored account they matched, so that a new
   * password hash (or salt, or user id) makes every entry for the old one unreachable.
   */
  private cacheKey(email: string, password: string, account: AccountRecord): string {
    const mac = createHmac("sha256", this.hmacKey);
    for (const part of [
      email,
      password,
      String(account.userId),
      account.salt,
      account.passwordHash,
    ]) {
      const bytes = typeof part === "string" ? Buffer.from(part, "utf8") : part;
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length);
      mac.update(length).update(bytes);
    }
    return mac.digest("base64");
  }

  /** Checks `email` and `password`, from `address` (the peer's IP address, if known). */
  async verify(email: string, password: string, address = "unknown"): Promise<AuthResult> {
    const account = await this.accounts.findAccount(email);
    const key = account && this.cacheKey(email, password, account);
    if (key !== undefined && this.verified.has(key)) return { kind: "ok", userId: account!.userId };
    const accountKey = foldAscii(email);
    if (this.byAddress.exceeded(address) || this.byAccount.exceeded(accountKey))
      return { kind: "throttled" };
    const matches = await this.kdfSlots.run(() => passwordMatches(account, password, this.kdf));
    if (matches === undefined) return { kind: "busy" };
    if (!matches || key === undefined) {
      this.byAddress.record(address);
      this.byAccount.record(accountKey);
      return { kind: "invalid" };
    }
    this.verified.add(key);
    return { kind: "ok", userId: account!.userId };
  }
}
