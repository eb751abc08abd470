/**
 * Failures no request hears of are logged, not swallowed: a cursor that fails to close when its
 * reader leaves early (store-guard.ts), and a failed ROLLBACK of the PostgreSQL store, whose
 * connection is then dropped rather than pooled. No database is needed: the store is a stand-in.
 */
import type pg from "pg";
import { describe, expect, it } from "vitest";
import { PostgresStore } from "../../examples/message-service/postgres-store.js";
import { guardStore } from "../../examples/message-service/store-guard.js";
import type { MessageStore } from "../../examples/message-service/store.js";

const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Rows that never end, whose closing fails. */
function endlessRows(): AsyncIterable<number> {
  return {
    [Symbol.asyncIterator]: () => ({
      next: async () => ({ done: false, value: 1 }),
      return: async () => {
        throw new Error("cursor close refused");
      },
    }),
  };
}

describe("failures that answer no request", () => {
  it("a cursor that fails to close, left early, is logged", async () => {
    const logged: string[] = [];
    const store = { description: "db", streamMessages: endlessRows } as unknown as MessageStore;
    const guarded = guardStore(store, { timeoutMs: 60_000, log: (l) => logged.push(l) });
    for await (const _ of guarded.streamMessages(7)) break;
    await settled();
    expect(logged).toEqual(["store: db for reads: closing a cursor failed (cursor close refused)"]);
  });

  it("a failed ROLLBACK of a cursor left early is logged, its connection dropped", async () => {
    const logged: string[] = [];
    const released: unknown[] = [];
    const row = { id: 1, user_id: 7, date_arrived: "2024-01-01T00:00:00Z" };
    const client = {
      on: () => undefined,
      off: () => undefined,
      release: (broken: unknown) => void released.push(broken),
      query: async (q: string | { text: string }) => {
        const text = typeof q === "string" ? q : q.text;
        if (text === "ROLLBACK") throw new Error("connection reset");
        return { rows: text.startsWith("FETCH") ? Array(500).fill(row) : [] };
      },
    };
    const pool = { connect: async () => client } as unknown as pg.Pool;
    const url = "postgres://svc:s3cret@db.invalid/m";
    const store = new PostgresStore(pool, url, (l) => logged.push(l));
    for await (const _ of store.streamMessages(7)) break;
    expect(released).toEqual([true]);
    expect(logged).toEqual([
      "store: postgres://svc:***@db.invalid/m: ROLLBACK failed (connection reset);" +
        " the connection is dropped",
    ]);
  });
});
