/**
 * A scaffolded mock's response files (mocks/<Operation>/): chosen by the request's input fields
 * (the most specific match wins), then in turn or by a seeded random pick, else the sample; a
 * fault file; a bad file refused when the mock starts, naming it. The files are read by the
 * runtime's Mocks, served by the generated handler and called through the generated client.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMocks,
  jsonReplacer,
  MockFileError,
  sampleOutput,
  SoapFault,
  type Mocks,
} from "@wsdl-tsgen/runtime";
import { ApiDesc } from "../../generated-samples/message-service/descriptors.js";
import {
  ApiClient,
  createApiHandler,
  type ApiService,
} from "../../generated-samples/message-service/index.js";
import { listen, type Loopback } from "../support/loopback.js";
import { mockProject, projectTest, startMock } from "./mock-project.js";

const ALICE = { email: "alice@example.com", password: "p" };
const messages = (...ids: number[]) =>
  ids.map((Id) => ({ ...sampleOutput(ApiDesc, "getMessages")![0]!, Id }));
const NS = "http://api.example.com/messages/";

let project = "";
beforeAll(async () => {
  project = await mockProject("responses");
});

/** Writes `files` (path under mocks/ → JSON value or XML text) after emptying the folder. */
function writeMocks(files: Record<string, unknown>): string {
  const dir = path.join(project, "mocks");
  rmSync(dir, { recursive: true, force: true });
  for (const [file, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    const text = typeof body === "string" ? body : JSON.stringify(body, jsonReplacer, 2);
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** The scaffolded mock's methods, as service.ts has them, over Mocks read from `dir`. */
function served(mocks: Mocks): ApiService {
  return {
    getMessages: (input) => mocks.answer(ApiDesc, "getMessages", input),
    getMessagesInDateRange: (input) => mocks.answer(ApiDesc, "getMessagesInDateRange", input),
    deleteMessage: (input) => mocks.answer(ApiDesc, "deleteMessage", input),
  };
}

let server: Loopback | undefined;
afterAll(() => server?.close());
async function client(mocks: Mocks): Promise<ApiClient> {
  await server?.close();
  server = await listen(createApiHandler(served(mocks)));
  return new ApiClient({ endpoint: `${server.url}/api.asmx` });
}

describe("response files", () => {
  it("answer the most specific match first, then the others in turn, cycling", async () => {
    const dir = writeMocks({
      "GetMessages/alice.json": { match: { email: ALICE.email }, response: messages(1) },
      "GetMessages/alice-p.json": { match: ALICE, response: messages(2) },
      "GetMessages/b-any.json": { response: messages(3) },
      // The result element as the service sends it, decoded through the descriptor.
      "GetMessages/c-any.xml": `<?xml version="1.0"?>\n<GetMessagesResponse xmlns="${NS}"><GetMessagesResult><Messages><DateArrived>2024-03-01T10:00:00Z</DateArrived><UserId>9</UserId><Id>4</Id></Messages></GetMessagesResult></GetMessagesResponse>`,
    });
    const api = await client(createMocks({ dir, services: [ApiDesc] }));
    const ids = async (input: object) => (await api.getMessages(input))!.map((m) => m!.Id);
    expect(await ids(ALICE)).toEqual([2]);
    expect(await ids({ ...ALICE, password: "other" })).toEqual([1]);
    expect(await ids({ email: "bob@example.com" })).toEqual([3]);
    expect(await ids({ email: "bob@example.com" })).toEqual([4]);
    expect(await ids({})).toEqual([3]);
    // The others answer the sample, as before.
    const range = await api.getMessagesInDateRange({
      startDate: "2024-01-01T00:00:00Z",
      endDate: "2024-01-02T00:00:00Z",
    });
    expect(range).toEqual(sampleOutput(ApiDesc, "getMessagesInDateRange"));
    const xml = (await api.getMessages({}))![0]!;
    expect(xml.DateArrived.toJSON()).toBe("2024-03-01T10:00:00Z");
  });

  it("match on nested and date fields by their JSON form, and answer faults", async () => {
    const dir = writeMocks({
      "GetMessagesInDateRange/january.json": {
        match: { startDate: "2024-01-01T00:00:00Z" },
        response: messages(7),
      },
      "DeleteMessage/missing.json": {
        match: { MessageId: 404 },
        fault: {
          code: "Client",
          message: "No message 404.",
          detail: `<Why xmlns="urn:x">gone</Why>`,
          status: 400,
        },
      },
    });
    const api = await client(createMocks({ dir, services: [ApiDesc] }));
    const january = { startDate: "2024-01-01T00:00:00Z", endDate: "2024-02-01T00:00:00Z" };
    expect((await api.getMessagesInDateRange(january))!.map((m) => m!.Id)).toEqual([7]);
    const fault = await api.deleteMessage({ MessageId: 404 }).catch((e: unknown) => e);
    expect(fault).toBeInstanceOf(SoapFault);
    const f = fault as SoapFault;
    expect([f.code, f.message, f.httpStatus]).toEqual(["soap:Client", "No message 404.", 400]);
    expect(JSON.stringify(f.detail)).toContain("gone");
    await expect(api.deleteMessage({ MessageId: 1 })).resolves.toBeUndefined();
  });

  it("an XML file may be a whole envelope, of the result or of a fault", async () => {
    const envelope = (body: string) =>
      `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${body}</soap:Body></soap:Envelope>`;
    const dir = writeMocks({
      "GetMessages/a.xml": envelope(
        `<GetMessagesResponse xmlns="${NS}"><GetMessagesResult><Messages><DateArrived>2024-05-01T00:00:00</DateArrived><UserId>1</UserId><Id>11</Id></Messages></GetMessagesResult></GetMessagesResponse>`,
      ),
      "DeleteMessage/a.xml": envelope(
        `<soap:Fault><faultcode>soap:Client</faultcode><faultstring>Refused.</faultstring><detail><Code xmlns="urn:x">7</Code></detail></soap:Fault>`,
      ),
    });
    const api = await client(createMocks({ dir, services: [ApiDesc] }));
    expect((await api.getMessages({}))!.map((m) => m!.Id)).toEqual([11]);
    const fault = (await api.deleteMessage({ MessageId: 1 }).catch((e: unknown) => e)) as SoapFault;
    expect([fault.code, fault.message, JSON.stringify(fault.detail)]).toEqual([
      "soap:Client",
      "Refused.",
      expect.stringContaining('"7"'),
    ]);
  });

  it("a seeded random pick is the same for the same seed, and another for another seed", async () => {
    const files: Record<string, unknown> = {};
    for (const n of [1, 2, 3, 4]) files[`GetMessages/${n}.json`] = { response: messages(n) };
    const dir = writeMocks({ ...files, "config.json": { dispatch: "random", seed: 7 } });
    const picks = async (mocks: Mocks) => {
      const out: number[] = [];
      for (let i = 0; i < 16; i++)
        out.push(((await mocks.answer(ApiDesc, "getMessages", {})) as { Id: number }[])[0]!.Id);
      return out;
    };
    const first = await picks(createMocks({ dir, services: [ApiDesc] }));
    expect(await picks(createMocks({ dir, services: [ApiDesc] }))).toEqual(first);
    expect(new Set(first).size).toBeGreaterThan(1);
    // Not the sequence's order, and another seed (the option over the config's) picks otherwise.
    expect(first).not.toEqual([1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]);
    expect(await picks(createMocks({ dir, services: [ApiDesc], seed: 8 }))).not.toEqual(first);
  });

  it("bad files are refused when read, each named, with the path of the bad value", () => {
    const dir = writeMocks({
      "GetMessages/bad-date.json": { response: [{ ...messages(1)[0], DateArrived: "soon" }] },
      "GetMessages/typo.json": { respnse: [] },
      "GetMessages/broken.xml": `<GetMessagesResponse xmlns="${NS}"><GetMessagesResult>`,
      "GetMesages/a.json": { response: [] },
      "config.json": { dispatch: "shuffle" },
    });
    const error = (() => {
      try {
        createMocks({ dir, services: [ApiDesc] }).load();
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(MockFileError);
    const lines = (error as MockFileError).message.split("\n");
    const rel = (f: string) => path.relative(process.cwd(), path.join(dir, f));
    expect(lines).toEqual([
      `${rel("config.json")}: error: dispatch must be "sequence" or "random"`,
      expect.stringMatching(
        new RegExp(
          `^${rel("GetMesages")}: error: names no operation; expected one of GetMessages, `,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^${rel("GetMessages/bad-date.json")}: error: response.GetMessagesResult\\[0\\].DateArrived: 'soon'`,
        ),
      ),
      expect.stringMatching(new RegExp(`^${rel("GetMessages/broken.xml")}: error: `)),
      `${rel("GetMessages/typo.json")}: error: unknown key respnse; expected match, response or fault`,
    ]);
  });

  it("the project's own test passes with them: it expects what the mock answers, in step", () => {
    writeMocks({
      "GetMessages/a.json": { response: messages(1) },
      "GetMessages/b.json": { response: messages(2, 3) },
      "DeleteMessage/gone.json": { fault: { code: "Client", message: "No such message." } },
      "config.json": { seed: 3 },
    });
    const test = projectTest(project);
    expect(test.code, test.output).toBe(0);
    expect(test.output).toMatch(/Tests\s+13 passed \(13\)/);
    writeMocks({});
  });

  it("a bad file stops `npm start` before it serves, naming the file, with no stack trace", async () => {
    writeMocks({ "DeleteMessage/x.json": { response: { unexpected: true } } });
    const started = await startMock(project, []);
    expect(started.code).toBe(1);
    expect(started.stderr).toBe(
      'mocks/DeleteMessage/x.json: error: the operation returns nothing; expected "response": null\n',
    );
    writeMocks({});
  });
});
