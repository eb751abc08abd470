/**
 * Authentication (examples/message-service/auth.ts): the KDF off the event loop, successful
 * verifications cached (bounded, expiring, bound to the stored hash), failures never cached, failed
 * attempts throttled per address and per account, the KDF's concurrency capped. Time is injected.
 */
import * as path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { resultItems } from "../support/result-items.js";
import {
  Authenticator,
  FailureCounter,
  WorkLimiter,
  type AuthOptions,
} from "../../examples/message-service/auth.js";
import { hashPassword, scryptKdf, type Kdf } from "../../examples/message-service/passwords.js";
import {
  BUSY,
  clientAddress,
  createMessageService,
  TOO_MANY_FAILURES,
} from "../../examples/message-service/service.js";
import { openSqlite } from "../../examples/message-service/store.js";
import { SoapFault } from "../../generated-samples/message-service/index.js";
import { requestContext } from "../../runtime/src/index.js";
import { ALICE, BOB, SEED, tempDir } from "./helpers.js";
import { countingKdf, manualClock } from "./wire.js";

/** What a verification answers, without the user id. */
const kindOf = async (auth: Authenticator, email: string, password: string, address: string) =>
  (await auth.verify(email, password, address)).kind;

async function seededStore() {
  const file = path.join(tempDir(), "m.db");
  const store = openSqlite(file);
  await store.seed(SEED);
  return { file, store };
}

async function setup(options: AuthOptions = {}) {
  const { file, store } = await seededStore();
  const kdf = countingKdf();
  const clock = manualClock();
  const auth = new Authenticator(store, { kdf, now: clock.now, ...options });
  return { file, store, kdf, clock, auth };
}

describe("verification", () => {
  it("runs the KDF off the event loop: timers fire while a verification is pending", async () => {
    const { auth, store } = await setup();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const r = await auth.verify(ALICE.email, ALICE.password, "10.0.0.1");
    clearInterval(timer);
    expect(r).toEqual({ kind: "ok", userId: 1001 });
    // scrypt takes tens of milliseconds: a synchronous KDF would let no timer fire in between.
    expect(ticks).toBeGreaterThan(0);
    await store.close();
  });

  it("pays the KDF once per credentials: a success is cached, keyed case-exactly", async () => {
    const { auth, kdf, store } = await setup();
    expect(await auth.verify(ALICE.email, ALICE.password, "a")).toEqual({
      kind: "ok",
      userId: 1001,
    });
    expect(await auth.verify(ALICE.email, ALICE.password, "b")).toEqual({
      kind: "ok",
      userId: 1001,
    });
    expect(kdf.calls).toBe(1);
    expect(await kindOf(auth, "ALICE@example.com", ALICE.password, "a")).toBe("ok");
    expect(kdf.calls).toBe(2);
    expect(auth.cachedCount).toBe(2);
    await store.close();
  });

  it("never caches a failure, and an unknown e-mail costs one KDF like a wrong password", async () => {
    const { auth, kdf, store } = await setup();
    for (let i = 0; i < 3; i++)
      expect(await kindOf(auth, ALICE.email, "wrong", "a")).toBe("invalid");
    expect(kdf.calls).toBe(3);
    // The dummy hash: the same work whether or not the account exists, so timing tells nothing.
    expect(await kindOf(auth, "nobody@example.com", "wrong", "a")).toBe("invalid");
    expect(kdf.calls).toBe(4);
    expect(await kindOf(auth, "nobody@example.com", ALICE.password, "a")).toBe("invalid");
    expect(kdf.calls).toBe(5);
    expect(auth.cachedCount).toBe(0);
    await store.close();
  });

  it("forgets a success unused for the configured time; each use renews it", async () => {
    const { auth, kdf, clock, store } = await setup({ cacheTtlMs: 60_000 });
    await auth.verify(ALICE.email, ALICE.password, "a");
    clock.advance(59_999);
    await auth.verify(ALICE.email, ALICE.password, "a");
    clock.advance(59_999);
    await auth.verify(ALICE.email, ALICE.password, "a");
    expect(kdf.calls).toBe(1);
    clock.advance(60_000);
    expect(await kindOf(auth, ALICE.email, ALICE.password, "a")).toBe("ok");
    expect(kdf.calls).toBe(2);
    await store.close();
  });

  it("keeps at most the configured number of successes, dropping the least recently used", async () => {
    const { auth, kdf, store } = await setup({ cacheMaxEntries: 2 });
    await store.addAccount("carol@example.com", "carol-pass", 1003);
    await auth.verify(ALICE.email, ALICE.password, "a");
    await auth.verify(BOB.email, BOB.password, "a");
    await auth.verify(ALICE.email, ALICE.password, "a"); // a hit: Bob is now the oldest
    await auth.verify("carol@example.com", "carol-pass", "a");
    expect([auth.cachedCount, kdf.calls]).toEqual([2, 3]);
    await auth.verify(ALICE.email, ALICE.password, "a");
    expect(kdf.calls).toBe(3);
    await auth.verify(BOB.email, BOB.password, "a");
    expect(kdf.calls).toBe(4);
    await store.close();
  });

  it("is bound to the stored hash: after a password change the old password fails at once", async () => {
    const { auth, kdf, file, store } = await setup();
    await auth.verify(ALICE.email, ALICE.password, "a");
    // No command changes a password yet; one that did would write a new salt and hash, like this.
    const { salt, passwordHash } = await hashPassword("new-pass");
    const raw = new Database(file);
    raw
      .prepare("UPDATE accounts SET salt = ?, password_hash = ? WHERE user_id = 1001")
      .run(salt, passwordHash);
    raw.close();
    expect(await kindOf(auth, ALICE.email, ALICE.password, "a")).toBe("invalid");
    expect(kdf.calls).toBe(2);
    expect(await auth.verify(ALICE.email, "new-pass", "a")).toEqual({ kind: "ok", userId: 1001 });
    await store.close();
  });
});

describe("throttling failed attempts", () => {
  it("refuses an address after its failures, without a KDF, and not the other addresses", async () => {
    const { auth, kdf, clock, store } = await setup({
      maxFailuresPerAddress: 3,
      maxFailuresPerAccount: 100,
      failureWindowMs: 60_000,
    });
    for (const email of [ALICE.email, BOB.email, "nobody@example.com"])
      expect(await kindOf(auth, email, "wrong", "10.0.0.9")).toBe("invalid");
    expect(await kindOf(auth, ALICE.email, ALICE.password, "10.0.0.9")).toBe("throttled");
    expect(kdf.calls).toBe(3);
    expect(await kindOf(auth, ALICE.email, ALICE.password, "10.0.0.10")).toBe("ok");
    clock.advance(60_000);
    expect(await kindOf(auth, BOB.email, BOB.password, "10.0.0.9")).toBe("ok");
    await store.close();
  });

  it("refuses an account after its failures from any address; other accounts and cached sessions go on", async () => {
    const { auth, kdf, clock, store } = await setup({
      maxFailuresPerAccount: 3,
      failureWindowMs: 60_000,
    });
    await auth.verify(ALICE.email, ALICE.password, "10.0.0.1");
    for (const address of ["10.1.0.1", "10.1.0.2", "10.1.0.3"])
      await auth.verify("Alice@example.com", "guess", address);
    const calls = kdf.calls;
    expect(await kindOf(auth, ALICE.email, "guess", "10.1.0.4")).toBe("throttled");
    expect(await kindOf(auth, "ALICE@EXAMPLE.COM", ALICE.password, "10.0.0.2")).toBe("throttled");
    expect(kdf.calls).toBe(calls);
    // Credentials verified before the attack still work: they are not a guess.
    expect(await kindOf(auth, ALICE.email, ALICE.password, "10.0.0.1")).toBe("ok");
    expect(await kindOf(auth, BOB.email, BOB.password, "10.1.0.1")).toBe("ok");
    clock.advance(59_999);
    expect(await kindOf(auth, ALICE.email, "guess", "10.1.0.5")).toBe("throttled");
    clock.advance(1);
    expect(await kindOf(auth, ALICE.email, "guess", "10.1.0.5")).toBe("invalid");
    await store.close();
  });

  it("throttles unknown e-mails the same way, so throttling does not tell which accounts exist", async () => {
    const { auth, store } = await setup({ maxFailuresPerAccount: 2 });
    const answers = async (email: string) => {
      const out: string[] = [];
      for (let i = 0; i < 4; i++) out.push(await kindOf(auth, email, "x", `10.2.0.${i}`));
      return out;
    };
    const known = await answers(ALICE.email);
    expect(known).toEqual(["invalid", "invalid", "throttled", "throttled"]);
    expect(await answers("nobody@example.com")).toEqual(known);
    await store.close();
  });
});

describe("what the throttle lets through", () => {
  const DAY = 86_400_000;

  it("refuses a throttled address even the credentials cached for the owner: no free guesses", async () => {
    const { auth, store } = await setup({ maxFailuresPerAddress: 3, maxFailuresPerAccount: 100 });
    expect(await kindOf(auth, ALICE.email, ALICE.password, "10.0.0.1")).toBe("ok");
    for (let i = 0; i < 3; i++)
      expect(await kindOf(auth, ALICE.email, `guess-${i}`, "10.6.6.6")).toBe("invalid");
    expect(await kindOf(auth, ALICE.email, ALICE.password, "10.6.6.6")).toBe("throttled");
    expect(await kindOf(auth, ALICE.email, ALICE.password, "10.0.0.1")).toBe("ok");
    await store.close();
  });

  it("does not let a throttled address join a verification of the same credentials in flight", async () => {
    let open!: () => void;
    let gate = Promise.resolve();
    const kdf: Kdf = async (p, s) => (await gate, scryptKdf(p, s));
    const limits = { maxFailuresPerAddress: 2, maxFailuresPerAccount: 100 };
    const { auth, store } = await setup({ kdf, ...limits });
    for (let i = 0; i < 2; i++) await auth.verify(BOB.email, `guess-${i}`, "10.6.6.6");
    gate = new Promise<void>((r) => (open = r));
    const owner = auth.verify(ALICE.email, ALICE.password, "10.0.0.1");
    const rider = auth.verify(ALICE.email, ALICE.password, "10.6.6.6");
    // Refused at once; a rider that joined would wait for the owner's hash, held back here.
    const waiting = new Promise((r) => setTimeout(() => r("waiting on the owner's hash"), 2000));
    const first = await Promise.race([rider, waiting]);
    open();
    expect(first).toEqual({ kind: "throttled" });
    expect((await owner).kind).toBe("ok");
    await store.close();
  });

  it("renews a known client's exemption by its logins, not by its failures", async () => {
    const { auth, clock, store } = await setup({ maxFailuresPerAccount: 3 });
    const attack = async () => {
      for (const a of ["10.1.0.1", "10.1.0.2", "10.1.0.3"]) await auth.verify(ALICE.email, "x", a);
    };
    expect(await kindOf(auth, ALICE.email, ALICE.password, "10.0.0.1")).toBe("ok");
    clock.advance(29 * DAY);
    expect(await kindOf(auth, ALICE.email, "typo", "10.0.0.1")).toBe("invalid");
    clock.advance(2 * DAY);
    await attack();
    // Thirty-one days after its last login the address is a stranger again, typo or not.
    expect(await kindOf(auth, ALICE.email, ALICE.password, "10.0.0.1")).toBe("throttled");
    await store.close();
  });
});

describe("the cap on concurrent KDF work", () => {
  it("runs at most the cap at once, queues up to its limit, and refuses beyond at once", async () => {
    const limiter = new WorkLimiter(1, 1);
    const gates: (() => void)[] = [];
    let running = 0;
    let most = 0;
    const task = () =>
      new Promise<string>((resolve) => {
        most = Math.max(most, ++running);
        gates.push(() => {
          running--;
          resolve("done");
        });
      });
    const first = limiter.run(task);
    const second = limiter.run(task);
    expect(await limiter.run(task)).toBeUndefined();
    await Promise.resolve();
    expect(gates).toHaveLength(1);
    gates.shift()!();
    expect(await first).toBe("done");
    await new Promise((r) => setImmediate(r));
    gates.shift()!();
    expect(await second).toBe("done");
    expect(most).toBe(1);
    expect(await limiter.run(async () => "free again")).toBe("free again");
  });

  it("answers 'busy' (a 503 Server fault) when the queue is full, and counts no failure", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slowKdf: Kdf = async (p, s) => (await held, scryptKdf(p, s));
    const { store } = await seededStore();
    const service = createMessageService(store, {
      kdf: slowKdf,
      maxConcurrentKdf: 1,
      maxQueuedKdf: 0,
      // An attempt in progress counts against the limit until it succeeds: 2 lets both start.
      maxFailuresPerAddress: 2,
    });
    const ctx = requestContext({ remoteAddress: "10.3.0.1" });
    const first = service.getMessages(ALICE, ctx);
    const busy = await Promise.resolve(service.getMessages(BOB, ctx)).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(SoapFault);
    expect(busy).toMatchObject({ code: "Server", message: BUSY, httpStatus: 503 });
    release();
    expect((await resultItems(first)).length).toBe(5);
    expect((await resultItems(service.getMessages(BOB, ctx))).length).toBe(3);
    await store.close();
  });
});

describe("the service's answers", () => {
  it("a throttled caller gets a Client fault saying so; another address is served", async () => {
    const { store } = await seededStore();
    const service = createMessageService(store, { maxFailuresPerAddress: 2 });
    const from = (remoteAddress: string) => requestContext({ remoteAddress });
    const fault = (p: unknown) =>
      Promise.resolve(p).then(
        () => undefined,
        (e: unknown) => e,
      );
    for (let i = 0; i < 2; i++)
      expect(
        await fault(service.getMessages({ ...ALICE, password: "x" }, from("10.4.0.1"))),
      ).toMatchObject({
        code: "Client",
        message: "Invalid email or password.",
      });
    const throttled = await fault(
      service.deleteMessage({ ...ALICE, MessageId: 101 }, from("10.4.0.1")),
    );
    expect(throttled).toBeInstanceOf(SoapFault);
    expect(throttled).toMatchObject({ code: "Client", message: TOO_MANY_FAILURES });
    expect((await store.listMessages(1001)).length).toBe(5);
    expect((await resultItems(service.getMessages(ALICE, from("10.4.0.2")))).length).toBe(5);
    await store.close();
  });
});

describe("the client address behind a balancer", () => {
  const ctx = (remoteAddress: string, forwarded?: string) =>
    requestContext({
      remoteAddress,
      headers: forwarded === undefined ? {} : { "x-forwarded-for": forwarded },
    });

  it("reads X-Forwarded-For only from a trusted proxy, skipping trusted hops", () => {
    const trusted = new Set(["10.9.0.1", "10.9.0.2"]);
    expect(clientAddress(ctx("::ffff:10.9.0.1", "203.0.113.5, 10.9.0.2"), trusted)).toBe(
      "203.0.113.5",
    );
    expect(clientAddress(ctx("10.9.0.1", "198.51.100.1, 203.0.113.5"), trusted)).toBe(
      "203.0.113.5",
    );
    expect(clientAddress(ctx("10.9.0.1"), trusted)).toBe("10.9.0.1");
    // Anyone can send the header: from an untrusted peer it is ignored.
    expect(clientAddress(ctx("203.0.113.9", "198.51.100.1"), trusted)).toBe("203.0.113.9");
    expect(clientAddress(ctx("10.9.0.1", "203.0.113.5"), new Set())).toBe("10.9.0.1");
  });

  it("counts failures per client behind a trusted balancer, so one client cannot throttle the rest", async () => {
    const { store } = await seededStore();
    const service = createMessageService(
      store,
      { maxFailuresPerAddress: 2 },
      { trustedProxies: ["10.9.0.1"] },
    );
    const attempt = (forwarded: string, password: string) =>
      resultItems(service.getMessages({ ...ALICE, password }, ctx("10.9.0.1", forwarded))).then(
        (r) => r.length,
        (e: SoapFault) => e.message,
      );
    await attempt("203.0.113.5", "x");
    await attempt("203.0.113.5", "y");
    expect(await attempt("203.0.113.5", ALICE.password)).toBe(TOO_MANY_FAILURES);
    expect(await attempt("203.0.113.6", ALICE.password)).toBe(5);
    await store.close();
  });
});

describe("the throttle's log", () => {
  it("says a throttle once per window, though an attempt at the limit is taken back", () => {
    const counter = new FailureCounter(3, 60_000, () => 0);
    expect([counter.record("k"), counter.record("k"), counter.record("k")]).toEqual([
      false,
      false,
      true,
    ]);
    counter.release("k");
    expect(counter.record("k")).toBe(false);
    expect(counter.exceeded("k")).toBe(true);
  });

  it("keeps an attacker-chosen e-mail short in the line it writes", async () => {
    const logged: string[] = [];
    const { auth } = await setup({ log: (l) => logged.push(l) });
    const email = `${"x".repeat(100_000)}@example.com`;
    for (let i = 0; i < 12; i++) await auth.verify(email, "wrong", "10.0.0.9");
    expect(logged.length).toBeGreaterThan(0);
    for (const line of logged) expect(line.length).toBeLessThan(300);
  });
});
