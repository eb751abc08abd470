/**
 * Issue #37's authentication defects, over real sockets against the real server on SQLite: guesses
 * cannot lock out the owner (1), a burst cannot verify more guesses than the limit (8), throttled
 * answers do not tell which accounts exist (3), and a reconnecting fleet shares one hash (9).
 * Client addresses come from X-Forwarded-For, the loopback peer being a trusted proxy.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { TOO_MANY_FAILURES } from "../../examples/message-service/service.js";
import { ALICE } from "./helpers.js";
import { countingKdf, getMessages, manualClock, serveOnSocket, type Answer } from "./wire.js";

const MINUTE = 60_000;
const OWNER = "203.0.113.1";
const messagesIn = (a: Answer) => a.text.match(/<Id>/g)?.length ?? 0;
const throttled = (a: Answer) => a.text.includes(TOO_MANY_FAILURES);

/** `n` wrong guesses at Alice's password, each from its own address. */
async function guess(url: string, n: number, from = "198.51.100") {
  const answers: Answer[] = [];
  for (let i = 0; i < n; i++)
    answers.push(await getMessages(url, { ...ALICE, password: `guess-${i}` }, `${from}.${i}`));
  return answers;
}

describe("guessing does not lock out the owner (defect 1)", () => {
  it("a client verified before the attack is served through it, cache renewed and expired", async () => {
    const clock = manualClock();
    const logged: string[] = [];
    const { url } = await serveOnSocket({ auth: { now: clock.now, log: (l) => logged.push(l) } });
    expect(messagesIn(await getMessages(url, ALICE, OWNER))).toBe(5);
    await guess(url, 10);
    // The account is throttled for other addresses now.
    const more = await getMessages(url, { ...ALICE, password: "guess-x" }, "198.51.100.99");
    expect(throttled(more)).toBe(true);
    // The owner's running client, every 4 minutes for 20: each call renews its cached login.
    for (let t = 0; t < 5; t++) {
      clock.advance(4 * MINUTE);
      expect(messagesIn(await getMessages(url, ALICE, OWNER))).toBe(5);
    }
    // A fresh attack, then the owner back after 6 idle minutes: the cache has expired, and the
    // owner's address, a known client of the account, is not refused for guesses made elsewhere.
    await guess(url, 10, "198.51.101");
    clock.advance(6 * MINUTE);
    // Not yet verified from this address, the right password is refused like a guess.
    expect(throttled(await getMessages(url, ALICE, "192.0.2.8"))).toBe(true);
    const back = await getMessages(url, ALICE, OWNER);
    expect([back.status, messagesIn(back)]).toEqual([200, 5]);
    expect(logged.some((l) => l.includes('on account "alice@example.com"'))).toBe(true);
  });
});

describe("the throttle is counted atomically (defect 8)", () => {
  it("a burst of 200 concurrent guesses verifies no more than the limit of 10", async () => {
    const kdf = countingKdf();
    const { url } = await serveOnSocket({ auth: { kdf } });
    const burst = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        getMessages(url, { ...ALICE, password: `burst-${i}` }, `198.51.100.${i}`),
      ),
    );
    expect(kdf.calls).toBeLessThanOrEqual(10);
    expect(burst.filter((a) => a.text.includes("Invalid email or password.")).length).toBe(
      kdf.calls,
    );
    expect(burst.filter(throttled).length).toBe(200 - kdf.calls);
  });
});

describe("a throttled address learns nothing about accounts (defect 3)", () => {
  it("answers a known and an unknown e-mail alike, without consulting the store", async () => {
    const { url, dbPath } = await serveOnSocket({ auth: { maxFailuresPerAddress: 3 } });
    const attacker = "198.51.100.7";
    for (const email of ["x@example.com", "y@example.com", "z@example.com"])
      await getMessages(url, { email, password: "p" }, attacker);
    // With the accounts table gone, any path that reads it would fail: the throttled one must not.
    const db = new Database(dbPath);
    db.exec("ALTER TABLE accounts RENAME TO accounts_gone");
    db.close();
    const known = await getMessages(url, { ...ALICE, password: "p" }, attacker);
    const unknown = await getMessages(
      url,
      { email: "nobody@example.com", password: "p" },
      attacker,
    );
    expect(throttled(known)).toBe(true);
    expect([unknown.status, unknown.text]).toEqual([known.status, known.text]);
  });
});

describe("a reconnecting fleet shares one hash (defect 9)", () => {
  it("150 simultaneous logins with the same credentials on a fresh process run one KDF", async () => {
    const kdf = countingKdf();
    const { url } = await serveOnSocket({ auth: { kdf } });
    const fleet = await Promise.all(
      Array.from({ length: 150 }, (_, i) => getMessages(url, ALICE, `10.20.${i >> 8}.${i & 255}`)),
    );
    expect(fleet.map((a) => a.status)).toEqual(fleet.map(() => 200));
    expect(fleet.every((a) => messagesIn(a) === 5)).toBe(true);
    expect(kdf.calls).toBe(1);
  });
});
