/**
 * Streamed results (issue #47 item 2): an implementation returning an iterable for GetMessages is
 * answered item by item, the same bytes as the whole array on every binding; an error once bytes
 * are out closes the connection; a slow reader holds the pulling back; a client that goes away
 * ends the iteration.
 */
import { request, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiClient,
  SoapFault,
  createApiHandler,
  type ApiService,
  type MessagesInput,
} from "../../generated-samples/message-service/index.js";
import { listen, type Loopback } from "../support/loopback.js";

const NS = "http://api.example.com/messages/";
const message = (i: number): MessagesInput => ({
  DateArrived: "2024-01-05T10:00:00",
  UserId: 1,
  Id: i,
  Sender: `sender ${i} <&>`,
  Transcription: "x".repeat(200),
});
const many = (n: number) => Array.from({ length: n }, (_, i) => message(i));

type Result = readonly (MessagesInput | null)[] | Iterable<MessagesInput | null>;
let answer: () => Result | AsyncIterable<MessagesInput | null> = () => [];
const logged: string[] = [];
const impl: ApiService = {
  getMessages: () => answer(),
  getMessagesInDateRange: () => [],
  deleteMessage: () => undefined,
};

let lb: Loopback;
beforeAll(async () => {
  const handler = createApiHandler(impl, { logger: (m) => void logged.push(m) });
  lb = await listen(handler);
});
afterAll(() => lb.close());

const soapBody = `<GetMessages xmlns="${NS}"><email>a</email><password>b</password></GetMessages>`;
const envelopeOf = (ns: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}"><soap:Body>${soapBody}</soap:Body></soap:Envelope>`;
const BINDINGS: Record<string, () => Promise<Response>> = {
  soap11: () =>
    fetch(`${lb.url}/api.asmx`, {
      method: "POST",
      headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${NS}GetMessages"` },
      body: envelopeOf("http://schemas.xmlsoap.org/soap/envelope/"),
    }),
  soap12: () =>
    fetch(`${lb.url}/api.asmx`, {
      method: "POST",
      headers: { "Content-Type": "application/soap+xml; charset=utf-8" },
      body: envelopeOf("http://www.w3.org/2003/05/soap-envelope"),
    }),
  httpGet: () => fetch(`${lb.url}/api.asmx/GetMessages?email=a&password=b`),
  httpPost: () =>
    fetch(`${lb.url}/api.asmx/GetMessages`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=a&password=b",
    }),
};

async function answered(binding: string) {
  const res = await BINDINGS[binding]!();
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    length: res.headers.get("content-length"),
    text: await res.text(),
  };
}

function* syncItems(items: readonly (MessagesInput | null)[]) {
  yield* items;
}
async function* asyncItems(items: readonly (MessagesInput | null)[]) {
  for (const m of items) {
    await Promise.resolve();
    yield m;
  }
}

/** The client reads the same values whether the implementation answers `items` whole or not. */
async function sameThroughClient(client: ApiClient, items: MessagesInput[]) {
  answer = () => items;
  const whole = await client.getMessages({ email: "a", password: "b" });
  answer = () => asyncItems(items);
  const streamed = await client.getMessages({ email: "a", password: "b" });
  expect(streamed).toEqual(whole);
  expect(streamed).toHaveLength(items.length);
}

describe("a streamed GetMessages", () => {
  for (const binding of Object.keys(BINDINGS)) {
    it(`answers ${binding} with the bytes of the whole array, chunked when large`, async () => {
      for (const n of [0, 1, 3, 2000]) {
        const items = [...many(n), ...(n > 0 ? [null] : [])];
        answer = () => items;
        const whole = await answered(binding);
        expect(whole.status).toBe(200);
        answer = () => syncItems(items);
        const fromSync = await answered(binding);
        answer = () => asyncItems(items);
        const fromAsync = await answered(binding);
        for (const streamed of [fromSync, fromAsync]) {
          expect(streamed.status).toBe(200);
          expect(streamed.type).toBe(whole.type);
          expect(streamed.text).toBe(whole.text);
          // Large answers go out as they are written, without a length; short ones gathered whole
          // before any write carry theirs, as the whole answer (and ASMX) does.
          if (n === 2000) expect(streamed.length).toBeNull();
          else expect(streamed.length).toBe(whole.length);
        }
      }
    });
  }

  it("reads back value for value through the generated client on every port", async () => {
    const items = many(50);
    for (const port of ["ApiSoap", "ApiSoap12", "ApiHttpGet", "ApiHttpPost"] as const) {
      await sameThroughClient(new ApiClient({ endpoint: `${lb.url}/api.asmx`, port }), items);
    }
  });

  it("answers an error before anything was written as a fault, as a thrown one", async () => {
    answer = () =>
      (function* () {
        throw new SoapFault({ code: "Client", message: "Invalid email or password." });
      })();
    const early = await answered("soap11");
    expect(early.status).toBe(500);
    expect(early.text).toContain("Invalid email or password.");
    answer = () =>
      (function* () {
        yield message(1);
        throw new Error("cursor lost");
      })();
    for (const binding of ["soap12", "httpGet"]) {
      const r = await answered(binding);
      expect(r.status).toBe(500);
      expect(r.text).toContain("Server was unable to process request.");
      expect(r.text).not.toContain("cursor lost");
    }
  });

  it("closes the connection on an error after the first bytes: no second envelope", async () => {
    for (const binding of Object.keys(BINDINGS)) {
      answer = () =>
        (function* () {
          yield* many(500);
          throw new Error("cursor lost");
        })();
      const res = await BINDINGS[binding]!();
      expect(res.status).toBe(200);
      await expect(res.text()).rejects.toThrow();
      // An item that does not fit its type is such an error too.
      answer = () =>
        (function* () {
          yield* many(500);
          yield { ...message(500), UserId: "not a number" } as unknown as MessagesInput;
        })();
      const misfit = await BINDINGS[binding]!();
      await expect(misfit.text()).rejects.toThrow();
    }
    const client = new ApiClient({ endpoint: `${lb.url}/api.asmx`, port: "ApiSoap" });
    const failure = await client.getMessages({ email: "a", password: "b" }).catch((e) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(SoapFault);
    expect(logged.some((m) => m.includes("streamed"))).toBe(true);
  });
});

describe("an answer that must be written whole", () => {
  it("collects the items when responses are MTOM packages: the same values, with a length", async () => {
    const mtom = await listen(createApiHandler(impl, { mtom: "always" }));
    try {
      const client = new ApiClient({ endpoint: `${mtom.url}/api.asmx`, port: "ApiSoap" });
      await sameThroughClient(client, many(300));
      const res = await fetch(`${mtom.url}/api.asmx`, {
        method: "POST",
        headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${NS}GetMessages"` },
        body: envelopeOf("http://schemas.xmlsoap.org/soap/envelope/"),
      });
      expect(res.headers.get("content-type")).toContain("multipart/related");
      expect(res.headers.get("content-length")).not.toBeNull();
      await res.arrayBuffer();
    } finally {
      await mtom.close();
    }
  });
});

describe("the implementation's type", () => {
  it("allows iterables of the items for GetMessages, of nothing else", () => {
    const typed: Partial<ApiService> = {
      getMessages: () => syncItems([message(1)]),
      getMessagesInDateRange: async () => asyncItems([null]),
    };
    const wrong: Partial<ApiService> = {
      // @ts-expect-error: the items are Messages
      *getMessages() {
        yield "not a message";
      },
    };
    expect(Object.keys(typed)).toHaveLength(2);
    expect(Object.keys(wrong)).toHaveLength(1);
  });
});

/** A GetMessages over HTTP GET, and its response once its head has come. */
async function getMessages() {
  const req = request(`${lb.url}/api.asmx/GetMessages?email=a&password=b`);
  const res = await new Promise<IncomingMessage>((resolve) => {
    req.on("response", resolve);
    req.end();
  });
  return { req, res };
}

/** Resolves once `count()` has not moved for `ms` milliseconds. */
async function settled(count: () => number, ms: number): Promise<void> {
  let last = -1;
  while (count() !== last) {
    last = count();
    await new Promise((r) => setTimeout(r, ms));
  }
}

describe("backpressure and disconnects", () => {
  it("pulls only what the socket takes from a paused reader, and returns the iterator when it goes away", async () => {
    const TOTAL = 1_000_000;
    let pulled = 0;
    let returned!: () => void;
    const ended = new Promise<void>((resolve) => (returned = resolve));
    answer = () =>
      (function* () {
        try {
          for (; pulled < TOTAL; pulled++) yield message(pulled);
        } finally {
          returned();
        }
      })();
    const { req, res } = await getMessages();
    res.pause();
    // Wait for the server to stop pulling: the socket's buffers are full.
    await settled(() => pulled, 100);
    expect(pulled).toBeGreaterThan(0);
    expect(pulled).toBeLessThan(TOTAL / 10);
    req.destroy();
    await ended;
    expect(pulled).toBeLessThan(TOTAL / 10);
  });

  it("pulls only what the socket takes when each item waits a turn (flushed by the wait)", async () => {
    const TOTAL = 200_000;
    let pulled = 0;
    let returned!: () => void;
    const ended = new Promise<void>((resolve) => (returned = resolve));
    answer = () =>
      (async function* () {
        try {
          for (; pulled < TOTAL; pulled++) {
            await new Promise((r) => setImmediate(r));
            yield message(pulled);
          }
        } finally {
          returned();
        }
      })();
    const { req, res } = await getMessages();
    res.pause();
    await settled(() => pulled, 200);
    expect(pulled).toBeLessThan(TOTAL / 10);
    req.destroy();
    await ended;
  });

  it("returns the iterator of a client gone before its first item came", async () => {
    let release!: () => void;
    const firstRow = new Promise<void>((resolve) => (release = resolve));
    let pulled = 0;
    let returned!: () => void;
    const ended = new Promise<void>((resolve) => (returned = resolve));
    answer = () =>
      (async function* () {
        try {
          await firstRow;
          for (; pulled < 1_000_000; pulled++) yield message(pulled);
        } finally {
          returned();
        }
      })();
    const req = request(`${lb.url}/api.asmx/GetMessages?email=a&password=b`);
    req.on("error", () => {});
    req.end();
    await new Promise((r) => setTimeout(r, 100));
    req.destroy();
    await new Promise((r) => setTimeout(r, 100));
    release();
    await ended;
    expect(pulled).toBeLessThan(1000);
  });

  it("sends the head and the items read while the cursor waits for its next rows", async () => {
    // The cursor's second row comes only once the client has read the first: unsent, it never
    // would.
    let received!: () => void;
    const firstSeen = new Promise<void>((resolve) => (received = resolve));
    answer = () =>
      (async function* () {
        yield message(1);
        await firstSeen;
        yield message(2);
      })();
    const { req, res } = await getMessages();
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      text += chunk;
      if (text.includes("sender 1 &lt;&amp;&gt;")) received();
    });
    await new Promise((resolve) => res.on("end", resolve));
    expect(res.statusCode).toBe(200);
    expect(text.indexOf("sender 1")).toBeLessThan(text.indexOf("sender 2"));
    expect(text).toMatch(/<\/ArrayOfMessages>$/);
  });

  it("returns a cursor whose client left while it waited for the next row", async () => {
    let pulled = 0;
    let returned!: () => void;
    const ended = new Promise<void>((resolve) => (returned = resolve));
    let stalled!: () => void;
    const stalling = new Promise<void>((resolve) => (stalled = resolve));
    // A cursor as a database driver gives one: rows, then a next() that does not settle.
    const cursor: AsyncIterator<MessagesInput> & AsyncIterable<MessagesInput> = {
      [Symbol.asyncIterator]: () => cursor,
      next: () => {
        if (pulled === 500) {
          stalled();
          return new Promise(() => {});
        }
        return Promise.resolve({ done: false, value: message(pulled++) });
      },
      return: () => {
        returned();
        return Promise.resolve({ done: true, value: undefined });
      },
    };
    answer = () => cursor;
    const req = request(`${lb.url}/api.asmx/GetMessages?email=a&password=b`);
    req.on("error", () => {});
    req.end();
    await stalling;
    req.destroy();
    await ended;
    expect(pulled).toBe(500);
  });
});
