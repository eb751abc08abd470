/**
 * Issue #37, defects 4 and 5: every store call has a time limit, and a database that is locked,
 * frozen (SIGSTOP) or stopped (`pg_ctl stop -m immediate`) answers 503 with Retry-After, a SOAP
 * fault of the request's version (Server, Receiver), never 500; the outage is logged once when it
 * starts and once when it ends, with a count; ?WSDL, the help page and DISCO keep answering. Real
 * sockets against the real server, on SQLite and on a throwaway PostgreSQL cluster.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { UNAVAILABLE } from "../../examples/message-service/service.js";
import { createDatabase } from "../support/postgres.js";
import { usePostgres } from "../support/use-postgres.js";
import { ALICE } from "./helpers.js";
import { callSoap, getMessages, serveOnSocket, type Answer } from "./wire.js";

const pg = usePostgres("PostgreSQL outage tests");

const SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
const NS = "http://api.example.com/messages/";

/** DeleteMessage over SOAP 1.2. */
async function delete12(url: string, id: number): Promise<Answer> {
  const body =
    `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="${SOAP12}"><soap12:Body>` +
    `<DeleteMessage xmlns="${NS}"><email>${ALICE.email}</email><password>${ALICE.password}</password>` +
    `<MessageId>${id}</MessageId></DeleteMessage></soap12:Body></soap12:Envelope>`;
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": `application/soap+xml; charset=utf-8; action="${NS}DeleteMessage"` },
    body,
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** DeleteMessage over HTTP POST. */
async function deletePost(url: string, id: number): Promise<Answer> {
  const res = await fetch(`${url}/DeleteMessage`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: `email=${encodeURIComponent(ALICE.email)}&password=${ALICE.password}&MessageId=${id}`,
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

const delete11 = (url: string, id: number) =>
  callSoap(url, "DeleteMessage", { email: ALICE.email, password: ALICE.password, MessageId: id });

/** 503 with Retry-After, saying the service is unavailable. */
function expectUnavailable(a: Answer): void {
  expect([a.status, a.headers.get("retry-after")]).toEqual([503, "1"]);
  expect(a.text).toContain(UNAVAILABLE);
}

/** ?WSDL, the help page and DISCO: none needs the database. */
async function expectDocumentsServed(url: string): Promise<void> {
  for (const suffix of ["?WSDL", "", "?disco"]) {
    const res = await fetch(url + suffix);
    expect([suffix, res.status]).toEqual([suffix, 200]);
    await res.text();
  }
}

describe("a locked SQLite database (defects 4, 5)", () => {
  it("answers 503 within the limit on every binding, keeps serving reads and documents, logs once", async () => {
    const logged: string[] = [];
    const { url, dbPath } = await serveOnSocket({
      limits: { storeTimeoutMs: 2_000 },
      log: (l) => logged.push(l),
    });
    expect((await getMessages(url, ALICE)).status).toBe(200);
    // Another process holds the write lock: deletes cannot run, reads (WAL) still can.
    const holder = new Database(dbPath);
    holder.exec("BEGIN IMMEDIATE");
    try {
      const s11 = await delete11(url, 103);
      expectUnavailable(s11);
      expect(s11.text).toContain("<faultcode>soap:Server</faultcode>");
      const s12 = await delete12(url, 103);
      expectUnavailable(s12);
      expect(s12.text).toContain("<soap:Value>soap:Receiver</soap:Value>");
      expectUnavailable(await deletePost(url, 103));
      expect((await getMessages(url, ALICE)).status).toBe(200);
      await expectDocumentsServed(url);
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
    expect((await delete11(url, 103)).status).toBe(200);
    expect(logged.filter((l) => l.startsWith("store:"))).toEqual([
      expect.stringMatching(/unavailable \(.*locked.*\); answering 503/),
      expect.stringMatching(/available again after [\d.]+ s; 3 calls failed$/),
    ]);
  });
});

describe.skipIf(pg.missing !== undefined)("a PostgreSQL outage (defects 4, 5)", () => {
  it("a frozen server: 503 within the time limit, documents served, recovery on its own", async () => {
    const cluster = pg.cluster();
    const logged: string[] = [];
    const { url } = await serveOnSocket({
      dbPath: await createDatabase(cluster),
      limits: { storeTimeoutMs: 1_000 },
      log: (l) => logged.push(l),
    });
    expect((await getMessages(url, ALICE)).status).toBe(200);
    cluster.freeze();
    try {
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 30 }, () => getMessages(url, ALICE)));
      answers.forEach(expectUnavailable);
      expect(answers[0]!.text).toContain("<faultcode>soap:Server</faultcode>");
      // Each waited about the limit, not the freeze (which lasts until the thaw below).
      expect(Date.now() - started).toBeLessThan(10_000);
      expectUnavailable(await delete12(url, 103));
      await expectDocumentsServed(url);
    } finally {
      cluster.thaw();
    }
    await expectRecovery(url);
    const store = logged.filter((l) => l.startsWith("store:"));
    expect(store).toHaveLength(2);
    expect(store[1]).toMatch(/available again after [\d.]+ s; (3[1-9]|[4-9]\d) calls failed$/);
  });

  it("a server stopped as by a crash: 503 at once, and served again after its restart", async () => {
    const cluster = pg.cluster();
    const logged: string[] = [];
    const { url } = await serveOnSocket({
      dbPath: await createDatabase(cluster),
      log: (l) => logged.push(l),
    });
    expect((await getMessages(url, ALICE)).status).toBe(200);
    cluster.crash();
    try {
      for (let i = 0; i < 5; i++) expectUnavailable(await getMessages(url, ALICE));
      expectUnavailable(await deletePost(url, 103));
      await expectDocumentsServed(url);
    } finally {
      cluster.restart();
    }
    await expectRecovery(url);
    expect(logged.filter((l) => l.startsWith("store:"))).toHaveLength(2);
  });
});

/** Retries GetMessages, as a client told Retry-After would, until it is served (at most 20 s). */
async function expectRecovery(url: string): Promise<void> {
  const until = Date.now() + 20_000;
  let last: Answer;
  do {
    last = await getMessages(url, ALICE);
    if (last.status === 200) break;
    expectUnavailable(last);
    await new Promise((r) => setTimeout(r, 200));
  } while (Date.now() < until);
  expect(last.status).toBe(200);
}
