/**
 * One interface, two implementations: the same behaviour checked on the SQLite store and on the
 * PostgreSQL store (a throwaway cluster, test/support/postgres.ts). Ordering and range bounds,
 * DateArrived exactly as written, null apart from '', e-mails ignoring ASCII case only, idempotent
 * seeding and importing, all-or-nothing failures, deletes by the owner only, and the service's
 * faults.
 */
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  createMessageService,
  INVALID_CREDENTIALS,
} from "../../examples/message-service/service.js";
import { open, type MessageStore } from "../../examples/message-service/store.js";
import { SoapFault, XsdDateTime } from "../../generated-samples/message-service/index.js";
import { createDatabase } from "../support/postgres.js";
import { resultItems } from "../support/result-items.js";
import { usePostgres } from "../support/use-postgres.js";
import { ALICE, bare, BOB, CTX, EDGE_MESSAGE, login, SEED, tempDir } from "./helpers.js";

const pg = usePostgres("PostgreSQL store tests");

const KINDS: [name: string, target: () => Promise<string>, skip: boolean][] = [
  ["SQLite", async () => path.join(tempDir(), "m.db"), false],
  ["PostgreSQL", () => createDatabase(pg.cluster()), pg.missing !== undefined],
];

const ids = (list: readonly { Id: number }[]) => list.map((m) => m.Id);

for (const [name, target, skip] of KINDS) {
  describe.skipIf(skip)(`the ${name} store`, () => {
    const stores: MessageStore[] = [];
    afterAll(async () => {
      for (const s of stores) await s.close();
    });
    async function seeded(): Promise<MessageStore> {
      const store = await open(await target());
      stores.push(store);
      await store.seed(SEED);
      return store;
    }

    it("seeds idempotently and keeps DateArrived as written, null apart from ''", async () => {
      const store = await seeded();
      await store.seed(SEED);
      await store.importMessages(ALICE.email, [EDGE_MESSAGE]);
      const all = await store.listMessages(1001);
      expect(all.map((m) => m.DateArrived)).toEqual([
        "2024-01-05T10:00:00",
        "2024-01-15T08:30:15.25",
        "2024-02-01T00:00:00",
        "2024-02-29T23:59:59",
        "2024-03-10T12:00:00.1234567",
        "2024-03-12",
      ]);
      expect(all.at(-1)).toStrictEqual({ ...EDGE_MESSAGE, UserId: 1001 });
      expect(all.find((m) => m.Id === 102)?.MessageText).toBe(
        "Fish & chips <tonight>? \"Yes\" 'no' – Grüße, ñandú, 日本",
      );
      expect(all.find((m) => m.Id === 103)).toMatchObject({ Sender: null, Transcription: "" });
      expect(ids(await store.listMessages(1002))).toEqual([201, 202, 203]);
    });

    it("finds no account for an e-mail holding a NUL (HTTP GET can send one), without an error", async () => {
      const store = await seeded();
      expect(await store.findAccount("alice@example.com\u0000")).toBeUndefined();
      expect(await store.findAccount("ali\u0000ce@example.com")).toBeUndefined();
      expect((await store.findAccount("ALICE@example.com"))?.userId).toBe(1001);
    });

    it("orders by DateArrived as an instant, then Id, and ranges include both bounds", async () => {
      const store = await seeded();
      await store.importMessages(ALICE.email, [
        bare(300, "2024-01-05T12:00:00+02:00"),
        bare(99, "2024-01-05T10:00:00Z"),
        bare(301, "2024-03-10T12:00:00.12345671"),
        bare(302, "2024-03-10T12:00:00.1234566"),
        bare(303, "2024-01-16T01:00:00+05:00"),
      ]);
      expect(ids(await store.listMessages(1001))).toEqual([
        99, 101, 300, 102, 303, 103, 104, 302, 105, 301,
      ]);
      const service = createMessageService(store);
      const range = async (start: string, end: string) =>
        ids(
          (await resultItems(
            service.getMessagesInDateRange(
              { ...ALICE, startDate: new XsdDateTime(start), endDate: new XsdDateTime(end) },
              CTX,
            ),
          )) as { Id: number }[],
        );
      expect(await range("2024-03-10T12:00:00.1234567", "2024-03-10T12:00:00.1234567")).toEqual([
        105,
      ]);
      expect(await range("2024-01-15T08:30:15.25", "2024-02-29T23:59:59")).toEqual([
        102, 303, 103, 104,
      ]);
      // Bounds outside years 0000-9999 become keys that sort before or after every stored key.
      expect(await range("-0001-01-01T00:00:00", "2024-01-06")).toEqual([99, 101, 300]);
      expect(await range("2024-03-10T12:00:00.12345670001", "10000-01-01T00:00:00")).toEqual([301]);
    });

    it("imports once per id, into the account by e-mail ignoring ASCII case only, all or nothing", async () => {
      const store = await seeded();
      expect(
        await store.importMessages("ALICE@example.com", [
          bare(201, "2024-01-01T00:00:00"),
          bare(110, "2024-01-01T00:00:00"),
        ]),
      ).toBe(1);
      // 201 is Bob's: skipped, not moved.
      expect(ids(await store.listMessages(1002))).toEqual([201, 202, 203]);
      expect((await store.listMessages(1002))[0]?.DateArrived).toBe("2023-12-31T23:00:00");
      await expect(
        store.importMessages(ALICE.email, [
          bare(120, "2024-05-01T00:00:00"),
          bare(121, "1/5/2024"),
        ]),
      ).rejects.toThrow("messages[1].DateArrived: '1/5/2024' is not an xs:dateTime value");
      await expect(
        store.importMessages("nobody@example.com", [bare(111, "2024-01-01T00:00:00")]),
      ).rejects.toThrow("no account with e-mail nobody@example.com");
      expect(ids(await store.listMessages(1001))).toEqual([110, 101, 102, 103, 104, 105]);
      expect(await store.addAccount("Alice@Example.COM", "x", 2000)).toBe(false);
      expect(await store.addAccount("new@example.com", "x", 1001)).toBe(false);
      // Like SQLite's NOCASE: only A-Z fold, so these are two accounts.
      expect(await store.addAccount("Ärger@example.com", "x", 2001)).toBe(true);
      expect(await store.addAccount("ärger@example.com", "y", 2002)).toBe(true);
      expect(await login(store, "ÄRGER@EXAMPLE.COM", "x")).toBe(2001);
      expect(await login(store, "ärger@EXAMPLE.com", "y")).toBe(2002);
      expect(await login(store, ALICE.email, BOB.password)).toBeUndefined();
      await expect(store.addAccount("x@example.com", "", 2003)).rejects.toThrow(/password/);
    });

    it("refuses an invalid seed before changing anything", async () => {
      const store = await open(await target());
      stores.push(store);
      const second = {
        email: "carol@example.com",
        password: "c",
        userId: 1003,
        messages: [bare(101, "2024-01-01T00:00:00")],
      };
      await expect(store.seed({ accounts: [...SEED.accounts, second] })).rejects.toThrow(
        "seed.accounts[2].messages[0].Id: the id 101 appears twice in the file",
      );
      await expect(
        store.seed({
          accounts: [...SEED.accounts, { ...second, email: "Alice@Example.com", messages: [] }],
        }),
      ).rejects.toThrow("seed.accounts[2].email: Alice@Example.com appears twice");
      await expect(store.seed({ accounts: [{ ...second, password: "" }] })).rejects.toThrow(
        "seed.accounts[0].password: must be a non-empty string",
      );
      expect(await store.findAccount(ALICE.email)).toBeUndefined();
      expect(await login(store, "carol@example.com", "c")).toBeUndefined();
      expect(await store.listMessages(1001)).toEqual([]);
    });

    it("deletes only the owner's message, once; the service answers a foreign id as an unknown one", async () => {
      const store = await seeded();
      expect(await store.deleteMessage(1001, 201)).toBe(false);
      expect(await store.deleteMessage(1002, 201)).toBe(true);
      expect(await store.deleteMessage(1002, 201)).toBe(false);
      const service = createMessageService(store);
      const fault = (id: number) =>
        Promise.resolve(service.deleteMessage({ ...ALICE, MessageId: id }, CTX)).catch(
          (e: unknown) => e,
        );
      for (const id of [202, 999]) {
        const f = await fault(id);
        expect(f).toBeInstanceOf(SoapFault);
        expect(f).toMatchObject({ code: "Client", message: `No message with id ${id}.` });
      }
      expect(ids(await store.listMessages(1002))).toEqual([202, 203]);
      const wrong = await Promise.resolve(
        service.deleteMessage({ ...ALICE, password: "bob-pass", MessageId: 101 }, CTX),
      ).catch((e: unknown) => e);
      expect(wrong).toMatchObject({ code: "Client", message: INVALID_CREDENTIALS });
      await service.deleteMessage({ ...ALICE, MessageId: 101 }, CTX);
      expect(ids(await store.listMessages(1001))).toEqual([102, 103, 104, 105]);
    });
  });
}
