/** The store, the service rules, and the service's command line. */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { resultItems } from "../support/result-items.js";
import { instantKey } from "../../examples/message-service/instants.js";
import { createMessageService } from "../../examples/message-service/service.js";
import { openSqlite } from "../../examples/message-service/store.js";
import {
  SoapFault,
  XsdDateTime,
  type ApiService,
} from "../../generated-samples/message-service/index.js";
import { requestContext } from "@wsdl-tsgen/runtime";
import { SEED } from "../support/captures.js";
import { login } from "../support/login.js";
import { startServiceProcess } from "../support/service-process.js";
import { tempDir } from "../support/tmp.js";

const CTX = requestContext({ remoteAddress: "127.0.0.1", port: "ApiSoap", operation: "x" });
const ALICE = { email: "alice@example.com", password: "alice-pass" };

async function seeded() {
  const db = path.join(tempDir(), "m.db");
  const store = openSqlite(db);
  await store.seed(SEED);
  return { db, store, service: createMessageService(store) as ApiService };
}

describe("instantKey", () => {
  it("orders exactly, with offsets converted and all fraction digits kept", async () => {
    expect(instantKey("2024-01-05T10:00:00")).toBe("2024-01-05T10:00:00.000000000000Z");
    expect(instantKey("2024-01-05T12:00:00+02:00")).toBe(instantKey("2024-01-05T10:00:00Z"));
    expect(instantKey("2024-01-01T01:00:00+05:30")).toBe("2023-12-31T19:30:00.000000000000Z");
    expect(
      instantKey("2024-03-10T12:00:00.1234567") < instantKey("2024-03-10T12:00:00.12345671"),
    ).toBe(true);
    expect(instantKey("2024-01-05")).toBe("2024-01-05T00:00:00.000000000000Z");
    expect(() => instantKey("1/5/2024")).toThrow(RangeError);
  });
});

describe("the store", () => {
  it("migrates once, runs in WAL mode, and seeds idempotently", async () => {
    const { db, store } = await seeded();
    expect(store.journalMode).toBe("wal");
    expect(store.schemaVersion).toBe(1);
    await store.seed(SEED);
    await store.close();
    const again = openSqlite(db);
    expect(again.schemaVersion).toBe(1);
    expect((await again.listMessages(1001)).map((m) => m.Id)).toEqual([101, 102, 103, 104, 105]);
    await again.close();
  });

  it("keeps DateArrived exactly, null apart from empty, and passwords only as scrypt hashes", async () => {
    const { db, store } = await seeded();
    const list = await store.listMessages(1001);
    expect(list.find((m) => m.Id === 105)!.DateArrived).toBe("2024-03-10T12:00:00.1234567");
    expect(list.find((m) => m.Id === 103)).toMatchObject({ Sender: null, Transcription: "" });
    await store.close();
    const raw = new Database(db, { readonly: true });
    const accounts = raw.prepare("SELECT * FROM accounts").all() as Record<string, unknown>[];
    raw.close();
    expect(
      JSON.stringify(
        accounts.map((a) => ({
          ...a,
          salt: String(a["salt"]),
          password_hash: String(a["password_hash"]),
        })),
      ),
    ).not.toContain("alice-pass");
    expect((accounts[0]!["password_hash"] as Buffer).length).toBe(32);
  });

  it("authenticates only the right password; deletes only the owner's message", async () => {
    const { store } = await seeded();
    expect(await login(store, "alice@example.com", "alice-pass")).toBe(1001);
    expect(await login(store, "ALICE@example.com", "alice-pass")).toBe(1001);
    expect(await login(store, "alice@example.com", "bob-pass")).toBeUndefined();
    expect(await login(store, "nobody@example.com", "x")).toBeUndefined();
    expect(await store.deleteMessage(1001, 201)).toBe(false);
    expect((await store.listMessages(1002)).map((m) => m.Id)).toEqual([201, 202, 203]);
    expect(await store.deleteMessage(1001, 101)).toBe(true);
    expect(await store.deleteMessage(1001, 101)).toBe(false);
    await store.close();
  });
});

describe("the service rules", () => {
  it("lists by DateArrived then Id, and the range includes both bounds, with offsets", async () => {
    const { service, store } = await seeded();
    await store.importMessages("alice@example.com", [
      {
        Id: 100,
        DateArrived: "2024-01-05T10:00:00",
        Sender: null,
        MessageText: null,
        MessageUrl: null,
        Transcription: null,
      },
    ]);
    const all = await resultItems(service.getMessages(ALICE, CTX));
    expect(all.map((m) => m!.Id)).toEqual([100, 101, 102, 103, 104, 105]);
    const range = async (start: string, end: string) =>
      (
        await resultItems(
          service.getMessagesInDateRange(
            { ...ALICE, startDate: new XsdDateTime(start), endDate: new XsdDateTime(end) },
            CTX,
          ),
        )
      ).map((m) => m!.Id);
    expect(await range("2024-01-15T08:30:15.25", "2024-02-29T23:59:59")).toEqual([102, 103, 104]);
    expect(await range("2024-01-05T12:00:00+02:00", "2024-01-05T12:00:00+02:00")).toEqual([
      100, 101,
    ]);
    expect(await range("2024-03-10T12:00:00.1234567", "2024-03-10T12:00:00.1234567")).toEqual([
      105,
    ]);
    expect(await range("2024-03-10T12:00:00.12345671", "2024-12-31T00:00:00")).toEqual([]);
    expect(await range("2024-02-01T00:00:00", "2024-01-01T00:00:00")).toEqual([]);
    await store.close();
  });

  it("omits null fields, keeps empty strings, and returns the exact lexical date", async () => {
    const { service, store } = await seeded();
    const m103 = (await resultItems(service.getMessages(ALICE, CTX))).find((m) => m!.Id === 103)!;
    expect(m103).toEqual({
      DateArrived: "2024-02-01T00:00:00",
      UserId: 1001,
      MessageText: "Message with no sender",
      MessageUrl: "https://media.example.com/m/103.wav?x=1&y=2",
      Transcription: "",
      Id: 103,
    });
    await store.close();
  });

  it("faults: wrong or missing credentials, and an id that is not the caller's, which deletes nothing", async () => {
    const { service, store } = await seeded();
    for (const creds of [{ email: ALICE.email, password: "x" }, { email: ALICE.email }, {}]) {
      await expect(
        Promise.resolve().then(() => service.getMessages(creds, CTX)),
      ).rejects.toMatchObject({ code: "Client", message: "Invalid email or password." });
    }
    const foreign = await Promise.resolve()
      .then(() => service.deleteMessage({ ...ALICE, MessageId: 201 }, CTX))
      .catch((e: unknown) => e);
    const unknown = await Promise.resolve()
      .then(() => service.deleteMessage({ ...ALICE, MessageId: 999 }, CTX))
      .catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(SoapFault);
    expect((foreign as SoapFault).message).toBe("No message with id 201.");
    expect((unknown as SoapFault).message).toBe("No message with id 999.");
    expect((await store.listMessages(1002)).map((m) => m.Id)).toEqual([201, 202, 203]);
    await store.close();
  });
});

describe("the service command line", () => {
  const cli = ["--import", "tsx", "examples/message-service/cli.ts"];
  it("adds an account and imports messages idempotently, with clear errors", async () => {
    const dir = tempDir();
    const db = path.join(dir, "m.db");
    const run = (...a: string[]) =>
      spawnSync(process.execPath, [...cli, ...a], { encoding: "utf8" });
    expect(
      run(
        "add-account",
        "--db",
        db,
        "--email",
        "carol@example.com",
        "--password",
        "pw",
        "--user-id",
        "1003",
      ).status,
    ).toBe(0);
    const dup = run(
      "add-account",
      "--db",
      db,
      "--email",
      "carol@example.com",
      "--password",
      "pw",
      "--user-id",
      "1004",
    );
    expect([dup.status, dup.stderr.trim()]).toEqual([
      1,
      "error: an account with e-mail carol@example.com or user id 1004 exists already",
    ]);
    writeFileSync(path.join(dir, "msgs.json"), JSON.stringify(SEED.accounts[1]!.messages));
    expect(
      run(
        "import",
        "--db",
        db,
        "--email",
        "carol@example.com",
        "--file",
        path.join(dir, "msgs.json"),
      ).stdout,
    ).toContain("imported 3 of 3");
    expect(
      run(
        "import",
        "--db",
        db,
        "--email",
        "carol@example.com",
        "--file",
        path.join(dir, "msgs.json"),
      ).stdout,
    ).toContain("imported 0 of 3");
    expect(
      run(
        "import",
        "--db",
        db,
        "--email",
        "nobody@example.com",
        "--file",
        path.join(dir, "msgs.json"),
      ).status,
    ).toBe(1);
    expect(run("serve", "--port", "abc").status).toBe(2);
    expect(run("serve", "--bogus").status).toBe(2);
  });

  it("serve prints its URL and answers ?WSDL", async () => {
    const dir = tempDir();
    const server = await startServiceProcess([
      "--db",
      path.join(dir, "m.db"),
      "--seed",
      "fixtures/message-service/asmx/seed.json",
    ]);
    try {
      const wsdl = await (await fetch(`${server.url}?WSDL`)).text();
      // The service's own WSDL, each port's address now the one it is reached at.
      const fixture = readFileSync("fixtures/message-service/api.wsdl", "utf8");
      expect(wsdl).toBe(fixture.replaceAll("http://127.0.0.1:8089/api.asmx", server.url));
    } finally {
      await server.stop();
    }
  });
});
