/**
 * The service rules (examples/message-service/service.ts), called directly through the generated
 * ApiService interface.
 */
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { resultItems } from "../support/result-items.js";
import { createMessageService } from "../../examples/message-service/service.js";
import { openSqlite, type SqliteStore } from "../../examples/message-service/store.js";
import {
  SoapFault,
  XsdDateTime,
  type ApiService,
  type MessagesInput,
} from "../../generated-samples/message-service/index.js";
import { ALICE, bare, BOB, CTX, SEED, tempDir } from "./helpers.js";

async function setup(): Promise<{ store: SqliteStore; service: ApiService }> {
  const store = openSqlite(path.join(tempDir(), "m.db"));
  await store.seed(SEED);
  return { store, service: createMessageService(store) };
}

/** The list a call resolves to, without nulls (the service never returns a null item). */
async function list(
  result: Parameters<typeof resultItems<MessagesInput | null>>[0],
): Promise<MessagesInput[]> {
  const items = await resultItems(result);
  expect(items.every((m) => m !== null)).toBe(true);
  return items as MessagesInput[];
}

/** What a call throws (sync or async); fails the test when it does not throw. */
async function thrown(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (e) {
    return e;
  }
  throw new Error("expected the call to throw");
}

const range = (start: string, end: string) => ({
  ...ALICE,
  startDate: new XsdDateTime(start),
  endDate: new XsdDateTime(end),
});

describe("GetMessages", () => {
  it("returns the account's messages, ordered by DateArrived then Id, with null fields left out and empty strings kept", async () => {
    const { service, store } = await setup();
    await store.importMessages(ALICE.email, [bare(100, "2024-01-05T11:00:00+01:00")]);
    const all = await list(service.getMessages(ALICE, CTX));
    expect(all.map((m) => m.Id)).toEqual([100, 101, 102, 103, 104, 105]);
    expect(all[0]).toStrictEqual({
      DateArrived: "2024-01-05T11:00:00+01:00",
      UserId: 1001,
      Id: 100,
    });
    expect(all.find((m) => m.Id === 102)).toStrictEqual({
      DateArrived: "2024-01-15T08:30:15.25",
      UserId: 1001,
      Sender: "bob@example.com",
      MessageText: "Fish & chips <tonight>? \"Yes\" 'no' – Grüße, ñandú, 日本",
      Id: 102,
    });
    const m103 = all.find((m) => m.Id === 103)!;
    expect(m103).toStrictEqual({
      DateArrived: "2024-02-01T00:00:00",
      UserId: 1001,
      MessageText: "Message with no sender",
      MessageUrl: "https://media.example.com/m/103.wav?x=1&y=2",
      Transcription: "",
      Id: 103,
    });
    expect("Sender" in m103).toBe(false);
    expect(all.find((m) => m.Id === 105)?.DateArrived).toBe("2024-03-10T12:00:00.1234567");
    expect(all.find((m) => m.Id === 105)?.MessageText).toBe("  leading and trailing spaces  ");
    const bob = await list(service.getMessages(BOB, CTX));
    expect(bob.map((m) => m.Id)).toEqual([201, 202, 203]);
    expect(bob[2]).toStrictEqual({ DateArrived: "2024-04-01T07:45:30", UserId: 1002, Id: 203 });
    await store.close();
  });
});

describe("GetMessagesInDateRange", () => {
  it("includes both bounds, compares instants (no offset = UTC), and keeps every fraction digit", async () => {
    const { service, store } = await setup();
    const ids = async (start: string, end: string) =>
      (await list(service.getMessagesInDateRange(range(start, end), CTX))).map((m) => m.Id);
    expect(await ids("2024-01-10T00:00:00", "2024-02-29T23:59:59")).toEqual([102, 103, 104]);
    expect(await ids("2024-01-15T08:30:15.25", "2024-02-29T23:59:59")).toEqual([102, 103, 104]);
    expect(await ids("2024-01-15T08:30:15.2500001", "2024-02-29T23:59:58.9999999")).toEqual([103]);
    expect(await ids("2024-01-05T12:00:00+02:00", "2024-01-05T10:00:00Z")).toEqual([101]);
    expect(
      await ids("2024-03-10T13:00:00.1234567+01:00", "2024-03-10T13:00:00.1234567+01:00"),
    ).toEqual([105]);
    expect(await ids("2024-03-10T12:00:00.12345671", "2024-12-31T00:00:00")).toEqual([]);
    expect(await ids("2024-03-10T12:00:00.12345669", "2024-03-10T12:00:00.1234567")).toEqual([105]);
    await store.close();
  });

  it("reads a date alone as midnight", async () => {
    const { service, store } = await setup();
    const ids = async (start: string, end: string) =>
      (await list(service.getMessagesInDateRange(range(start, end), CTX))).map((m) => m.Id);
    expect(await ids("2024-01-05", "2024-02-01")).toEqual([101, 102, 103]);
    expect(await ids("2024-01-06", "2024-02-29")).toEqual([102, 103]);
    await store.close();
  });

  it("gives an empty list when the start is after the end, and only the caller's messages", async () => {
    const { service, store } = await setup();
    expect(
      await list(
        service.getMessagesInDateRange(range("2024-02-29T23:59:59", "2024-01-10T00:00:00"), CTX),
      ),
    ).toEqual([]);
    const bob = await list(
      service.getMessagesInDateRange(
        {
          ...BOB,
          startDate: new XsdDateTime("2000-01-01"),
          endDate: new XsdDateTime("2100-01-01"),
        },
        CTX,
      ),
    );
    expect(bob.map((m) => [m.UserId, m.Id])).toEqual([
      [1002, 201],
      [1002, 202],
      [1002, 203],
    ]);
    await store.close();
  });

  it("accepts every xs:dateTime bound, including years beyond 9999 and before 0001", async () => {
    const { service, store } = await setup();
    const ids = async (start: string, end: string) =>
      (await list(service.getMessagesInDateRange(range(start, end), CTX))).map((m) => m.Id);
    expect(await ids("2024-03-01T00:00:00", "10000-01-01T00:00:00")).toEqual([105]);
    expect(await ids("2024-03-01T00:00:00", "9999-12-31T23:00:00-05:00")).toEqual([105]);
    expect(await ids("-0001-01-01T00:00:00", "2024-01-06")).toEqual([101]);
    expect(await ids("10000-01-01T00:00:00", "10001-01-01T00:00:00")).toEqual([]);
    expect(await ids("-0002-01-01T00:00:00", "-0001-01-01T00:00:00")).toEqual([]);
    await store.close();
  });
});

describe("DeleteMessage", () => {
  it("deletes the caller's message once; then the id is unknown", async () => {
    const { service, store } = await setup();
    await service.deleteMessage({ ...ALICE, MessageId: 103 }, CTX);
    expect((await store.listMessages(1001)).map((m) => m.Id)).toEqual([101, 102, 104, 105]);
    const again = await thrown(() => service.deleteMessage({ ...ALICE, MessageId: 103 }, CTX));
    expect(again).toBeInstanceOf(SoapFault);
    expect(again).toMatchObject({ code: "Client", message: "No message with id 103." });
    await store.close();
  });

  it("answers another account's id exactly as an unknown id, and deletes nothing", async () => {
    const { service, store } = await setup();
    const foreign = await thrown(() => service.deleteMessage({ ...ALICE, MessageId: 201 }, CTX));
    const unknown = await thrown(() => service.deleteMessage({ ...ALICE, MessageId: 999 }, CTX));
    for (const [fault, id] of [
      [foreign, 201],
      [unknown, 999],
    ] as const) {
      expect(fault).toBeInstanceOf(SoapFault);
      const f = fault as SoapFault;
      expect([f.code, f.message, f.detail, f.httpStatus, f.soapVersion]).toEqual([
        "Client",
        `No message with id ${id}.`,
        undefined,
        undefined,
        undefined,
      ]);
    }
    // Nothing but the id differs between the two answers.
    const shape = (f: SoapFault, id: number) =>
      JSON.stringify({ ...f, message: f.message.replace(String(id), "N"), name: f.name });
    expect(shape(foreign as SoapFault, 201)).toBe(shape(unknown as SoapFault, 999));
    expect((await store.listMessages(1002)).map((m) => m.Id)).toEqual([201, 202, 203]);
    expect((await store.listMessages(1001)).map((m) => m.Id)).toEqual([101, 102, 103, 104, 105]);
    await store.close();
  });
});

describe("authentication", () => {
  const calls: [
    string,
    (s: ApiService, creds: { email?: string; password?: string }) => unknown,
  ][] = [
    ["GetMessages", (s, c) => s.getMessages(c, CTX)],
    [
      "GetMessagesInDateRange",
      (s, c) =>
        s.getMessagesInDateRange(
          {
            ...c,
            startDate: new XsdDateTime("2000-01-01"),
            endDate: new XsdDateTime("2100-01-01"),
          },
          CTX,
        ),
    ],
    ["DeleteMessage", (s, c) => s.deleteMessage({ ...c, MessageId: 101 }, CTX)],
  ];
  const wrong: [string, { email?: string; password?: string }][] = [
    ["wrong password", { email: ALICE.email, password: BOB.password }],
    ["unknown e-mail", { email: "nobody@example.com", password: ALICE.password }],
    ["no password", { email: ALICE.email }],
    ["no e-mail", { password: ALICE.password }],
    ["empty password", { email: ALICE.email, password: "" }],
    ["nothing", {}],
  ];

  it.each(calls)(
    "%s: wrong or missing credentials are a Client fault 'Invalid email or password.', and change nothing",
    async (_name, call) => {
      const { service, store } = await setup();
      for (const [what, creds] of wrong) {
        const e = await thrown(() => call(service, creds));
        expect(e, what).toBeInstanceOf(SoapFault);
        expect([(e as SoapFault).code, (e as SoapFault).message], what).toEqual([
          "Client",
          "Invalid email or password.",
        ]);
      }
      expect((await store.listMessages(1001)).map((m) => m.Id)).toEqual([101, 102, 103, 104, 105]);
      await store.close();
    },
  );

  it("takes the e-mail in any case", async () => {
    const { service, store } = await setup();
    expect(
      (
        await list(
          service.getMessages({ email: "Alice@EXAMPLE.com", password: ALICE.password }, CTX),
        )
      ).map((m) => m.Id),
    ).toEqual([101, 102, 103, 104, 105]);
    await store.close();
  });
});
