/**
 * Our service with real clients: the generated client over all four ports (values equal to the
 * seed), node-soap over SOAP 1.1 and 1.2, and a `?WSDL` that, fed back to the generator, gives the
 * same client.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as soap from "soap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../examples/message-service/server.js";
import {
  ApiClient,
  SoapFault,
  HttpBindingError,
  type ApiPortName,
} from "../../generated-samples/message-service/index.js";
import { generateFiles } from "../../src/generate.js";
import { SEED } from "../support/captures.js";
import { asPlain, seedMessages } from "../support/expected.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const ALICE = { email: "alice@example.com", password: "alice-pass" };
const PORTS: ApiPortName[] = ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"];
let server: { url: string; close(): Promise<void> };
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "mrs-interop-"));
  server = await startServer({
    port: 0,
    host: "127.0.0.1",
    dbPath: path.join(dir, "m.db"),
    seedPath: "fixtures/message-service/asmx/seed.json",
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the generated client against our service", () => {
  it("all three operations on all four ports return the seed's values", async () => {
    const deletes: Record<ApiPortName, number> = {
      ApiSoap: 101,
      ApiSoap12: 102,
      ApiHttpGet: 103,
      ApiHttpPost: 104,
    };
    let remaining = seedMessages(ALICE.email);
    for (const port of PORTS) {
      const client = new ApiClient({ endpoint: server.url, port });
      expect(asPlain(await client.getMessages(ALICE)), port).toEqual(remaining);
      const range = await client.getMessagesInDateRange({
        ...ALICE,
        startDate: "2024-01-10T00:00:00",
        endDate: new Date(Date.UTC(2024, 1, 29, 23, 59, 59)),
      });
      expect(asPlain(range), port).toEqual(
        remaining.filter(
          (m) => m.DateArrived >= "2024-01-10" && m.DateArrived <= "2024-02-29T23:59:59.999",
        ),
      );
      await expect(
        client.deleteMessage({ ...ALICE, MessageId: deletes[port] }),
      ).resolves.toBeUndefined();
      remaining = remaining.filter((m) => m.Id !== deletes[port]);
      expect(asPlain(await client.getMessages(ALICE)), port).toEqual(remaining);
    }
    expect(remaining.map((m) => m.Id)).toEqual([105]);
  });

  it("wrong credentials and a foreign id are Client faults that leak nothing", async () => {
    for (const port of PORTS) {
      const client = new ApiClient({ endpoint: server.url, port });
      const wrong = await client
        .getMessages({ email: ALICE.email, password: "nope" })
        .catch((e: unknown) => e);
      const foreign = await client
        .deleteMessage({ ...ALICE, MessageId: 201 })
        .catch((e: unknown) => e);
      const unknown = await client
        .deleteMessage({ ...ALICE, MessageId: 999 })
        .catch((e: unknown) => e);
      if (port === "ApiSoap" || port === "ApiSoap12") {
        expect(wrong).toBeInstanceOf(SoapFault);
        expect((wrong as SoapFault).message).toBe("Invalid email or password.");
        const client = port === "ApiSoap" ? "soap:Client" : "soap:Sender";
        for (const fault of [wrong, foreign, unknown]) {
          expect(fault).toBeInstanceOf(SoapFault);
          expect((fault as SoapFault).code).toBe(client);
        }
        expect((foreign as SoapFault).message).toBe("No message with id 201.");
        expect((unknown as SoapFault).message).toBe("No message with id 999.");
      } else {
        for (const error of [wrong, foreign, unknown])
          expect(error).toBeInstanceOf(HttpBindingError);
        expect((wrong as HttpBindingError).body).toBe("Invalid email or password.");
        expect((foreign as HttpBindingError).body).toBe("No message with id 201.");
        expect((unknown as HttpBindingError).body).toBe("No message with id 999.");
      }
    }
    const bob = SEED.accounts[1]!;
    expect(
      (
        await new ApiClient({ endpoint: server.url }).getMessages({
          email: bob.email,
          password: bob.password,
        })
      )?.map((m) => m?.Id),
    ).toEqual([201, 202, 203]);
  });
});

describe("node-soap, a third-party client", () => {
  for (const [label, port] of [
    ["SOAP 1.1", "ApiSoap"],
    ["SOAP 1.2", "ApiSoap12"],
  ] as const) {
    it(`reads bob's messages over ${label} from our ?WSDL`, async () => {
      const client = await soap.createClientAsync(
        `${server.url}?WSDL`,
        port === "ApiSoap12" ? { forceSoap12Headers: true } : {},
      );
      const method = (
        client as unknown as Record<
          string,
          Record<
            string,
            Record<string, (args: unknown, cb: (err: unknown, result: unknown) => void) => void>
          >
        >
      )["Api"]![port]!["GetMessages"]!;
      const result = await new Promise<{
        GetMessagesResult: { Messages: Record<string, unknown>[] };
      }>((resolve, reject) =>
        method({ email: "bob@example.com", password: "bob-pass" }, (err, r) =>
          err ? reject(err) : resolve(r as never),
        ),
      );
      const got = result.GetMessagesResult.Messages;
      expect(got.map((m) => Number(m["Id"]))).toEqual([201, 202, 203]);
      expect(got[1]!["Transcription"]).toBe("This is a reminder from your dentist.");
      expect(got[2]!["Sender"]).toBeUndefined();
      expect(new Date(got[0]!["DateArrived"] as string).toISOString()).toBe(
        "2023-12-31T23:00:00.000Z",
      );
    });
  }
});

describe("?WSDL", () => {
  it("fed back into the generator, produces the same client", async () => {
    const served = await (await fetch(`${server.url}?wsdl`)).text();
    expect(served).toContain(`location="${server.url}"`);
    const tmp = tempDir();
    const fromServed = await generateFiles(writeTemp(tmp, "api.wsdl", served));
    const original = await generateFiles(
      writeTemp(
        tempDir(),
        "api.wsdl",
        (await import("node:fs")).readFileSync("fixtures/message-service/api.wsdl", "utf8"),
      ),
    );
    const pick = (files: { path: string; content: string }[], p: string) =>
      files.find((f) => f.path === p)!.content;
    for (const f of ["client.ts", "types.ts", "server.ts", "index.ts"])
      expect(pick(fromServed.files, f), f).toBe(pick(original.files, f));
    // Only the addresses differ in the descriptors.
    expect(
      pick(fromServed.files, "descriptors.ts").replaceAll(
        server.url,
        "http://127.0.0.1:8089/api.asmx",
      ),
    ).toBe(pick(original.files, "descriptors.ts"));
  });
});
