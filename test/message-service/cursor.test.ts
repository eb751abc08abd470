/**
 * Issue #47: the example lists an account through a database cursor (SQLite's `iterate()` on a
 * read-only connection, PostgreSQL's DECLARE/FETCH), streamed by the generated handler. A large
 * account arrives whole and in order; a wrong password is still a fault with its status; a client
 * gone mid-stream releases the cursor; a database error mid-stream closes the connection, never a
 * second envelope. Real sockets, a SQLite file and a throwaway PostgreSQL cluster.
 */
import { request, type IncomingMessage } from "node:http";
import * as path from "node:path";
import { Client } from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createMessageService,
  INVALID_CREDENTIALS,
} from "../../examples/message-service/service.js";
import { guardStore } from "../../examples/message-service/store-guard.js";
import { open, type MessageStore } from "../../examples/message-service/store.js";
import { ApiClient, createApiHandler } from "../../generated-samples/message-service/index.js";
import { listen, type Loopback } from "../support/loopback.js";
import { createDatabase } from "../support/postgres.js";
import { usePostgres } from "../support/use-postgres.js";
import { ALICE, SEED, tempDir } from "./helpers.js";

const pg = usePostgres("PostgreSQL cursor tests");

/** Messages 1000… for Alice, after the seed's, each with a 4 KiB transcription. */
const LARGE = 3_000;
const extra = Array.from({ length: LARGE }, (_, i) => ({
  Id: 1000 + i,
  DateArrived: `2025-01-01T00:00:${String(i % 60).padStart(2, "0")}.${String(i).padStart(7, "0")}`,
  Sender: `sender ${i}`,
  MessageText: null,
  MessageUrl: null,
  Transcription: "t".repeat(4096),
}));

type Opened = MessageStore & { readonly openCursors: number };
interface Served {
  readonly store: Opened;
  readonly url: string;
  readonly logged: string[];
}

const running: (Loopback | MessageStore)[] = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
});

/** The service on `target`, seeded with the large account, through the generated handler. */
async function serve(target: string, wrap = (s: MessageStore) => s): Promise<Served> {
  const store = (await open(target)) as Opened;
  running.push(store);
  await store.seed(SEED);
  await store.importMessages(ALICE.email, extra);
  const logged: string[] = [];
  const guarded = guardStore(wrap(store), { timeoutMs: 5_000, log: (l) => logged.push(l) });
  const handler = createApiHandler(createMessageService(guarded), {
    logger: (m, e) => void logged.push(`${m} ${String(e)}`),
  });
  const lb = await listen(handler);
  running.push(lb);
  return { store, url: `${lb.url}/api.asmx`, logged };
}

/** GetMessages over HTTP GET, its response paused once its first bytes came. */
async function startListing(url: string): Promise<{ res: IncomingMessage; destroy(): void }> {
  const q = `${url}/GetMessages?email=${encodeURIComponent(ALICE.email)}&password=${ALICE.password}`;
  const req = request(q);
  req.on("error", () => undefined);
  const res = await new Promise<IncomingMessage>((resolve) => req.on("response", resolve).end());
  res.on("error", () => undefined);
  await new Promise((resolve) => res.once("data", resolve));
  res.pause();
  return { res, destroy: () => req.destroy() };
}

/** What remains of a response, and whether it ended cleanly or was cut. */
function rest(res: IncomingMessage): Promise<{ text: string; complete: boolean }> {
  let text = "";
  res.setEncoding("utf8");
  res.on("data", (c: string) => (text += c));
  res.resume();
  return new Promise((resolve) => {
    res.on("end", () => resolve({ text, complete: res.complete }));
    res.on("close", () => resolve({ text, complete: res.complete }));
  });
}

const KINDS: [name: string, target: () => Promise<string>, skip: boolean][] = [
  ["SQLite", async () => path.join(tempDir(), "m.db"), false],
  ["PostgreSQL", () => createDatabase(pg.cluster()), pg.missing !== undefined],
];

for (const [name, target, skip] of KINDS) {
  describe.skipIf(skip)(`GetMessages through a ${name} cursor`, () => {
    it("streams a large account whole and in order, on every port", async () => {
      const { store, url } = await serve(await target());
      const want = (await store.listMessages(1001)).map((m) => m.Id);
      expect(want).toHaveLength(LARGE + 5);
      for (const port of ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"] as const) {
        const list = await new ApiClient({ endpoint: url, port }).getMessages(ALICE);
        expect(list?.map((m) => m?.Id)).toEqual(want);
      }
      const res = await fetch(`${url}/GetMessages?email=${ALICE.email}&password=${ALICE.password}`);
      expect(res.headers.get("content-length")).toBeNull();
      expect((await res.text()).endsWith("</ArrayOfMessages>")).toBe(true);
      expect(store.openCursors).toBe(0);
    });

    it("answers a wrong password with its fault and status before any cursor opens", async () => {
      const { store, url, logged } = await serve(await target());
      const res = await fetch(`${url}/GetMessages?email=${ALICE.email}&password=wrong-pass`);
      expect(res.status).toBe(500);
      expect(res.headers.get("content-length")).not.toBeNull();
      expect(await res.text()).toContain(INVALID_CREDENTIALS);
      expect(store.openCursors).toBe(0);
      expect(logged.join("\n")).not.toContain("wrong-pass");
    });

    it("releases the cursor when the client goes away mid-stream, and deletes go on meanwhile", async () => {
      const db = await target();
      const { store, url } = await serve(db);
      const { destroy } = await startListing(url);
      expect(store.openCursors).toBe(1);
      // The cursor reads its snapshot beside the writer: a delete is not held up by it.
      expect(await store.deleteMessage(1001, 1500)).toBe(true);
      destroy();
      await vi.waitFor(() => expect(store.openCursors).toBe(0));
      if (name === "PostgreSQL") expect(await inTransaction(db)).toBe(0);
    });

    it("closes the connection on a database error mid-stream: no second envelope", async () => {
      const db = await target();
      // PostgreSQL's cursor loses its backend; SQLite's read fails as a disk would.
      const failing = name === "SQLite" ? failAfter(600) : (s: MessageStore) => s;
      const { store, url, logged } = await serve(db, failing);
      const { res } = await startListing(url);
      expect(res.statusCode).toBe(200);
      if (name === "PostgreSQL") await terminateCursor(db);
      const { text, complete } = await rest(res);
      expect(complete).toBe(false);
      expect(text).not.toContain("Fault");
      expect(text).not.toContain("<?xml");
      await vi.waitFor(() => expect(store.openCursors).toBe(0));
      expect(logged.join("\n")).toContain("streamed: connection closed");
      expect(logged.join("\n")).not.toContain(ALICE.password);
      // The next listing is whole: the failed cursor's connection was not reused broken.
      if (name === "PostgreSQL") {
        const list = await new ApiClient({ endpoint: url, port: "ApiSoap" }).getMessages(ALICE);
        expect(list).toHaveLength(LARGE + 5);
      }
    });
  });
}

/** A store whose cursors fail with SQLite's I/O error after `n` rows. */
function failAfter(n: number) {
  return (s: MessageStore): MessageStore => {
    const failing = async function* (rows: AsyncIterable<unknown>) {
      let i = 0;
      for await (const r of rows) {
        if (i++ === n) throw Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR" });
        yield r;
      }
    };
    return Object.assign(Object.create(s) as MessageStore, {
      streamMessages: (id: number) => failing(s.streamMessages(id)),
    }) as MessageStore;
  };
}

/** Runs `sql` on `db` in a connection of its own; the first row's `n`. */
async function count(db: string, sql: string): Promise<number> {
  const c = new Client({ connectionString: db });
  await c.connect();
  try {
    return (await c.query<{ n: number }>(sql)).rows[0]?.n ?? 0;
  } finally {
    await c.end();
  }
}

const IN_TRANSACTION =
  "FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'";

/** Sessions on `db` left inside a transaction: a cursor not closed. */
const inTransaction = (db: string) => count(db, `SELECT count(*)::int AS n ${IN_TRANSACTION}`);

/** Ends the backend of the cursor open on `db`, as a database restart would. */
async function terminateCursor(db: string): Promise<void> {
  expect(
    await count(db, `SELECT count(pg_terminate_backend(pid))::int AS n ${IN_TRANSACTION}`),
  ).toBe(1);
}
