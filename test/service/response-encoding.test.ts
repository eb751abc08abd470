/**
 * Response bodies are UTF-8 whatever their size: small ones go through the server's reused scratch
 * space, very large ones (over its 4 MiB bound) are encoded apart; both arrive intact, with a
 * Content-Length that counts bytes, not characters.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiClient,
  createApiHandler,
  type ApiService,
  type MessagesInput,
} from "../../generated-samples/message-service/index.js";
import { listen, type Loopback } from "../support/loopback.js";

const TEXT = "Grüße 日本 📦 & <tags> — ";
const make = (n: number, repeat: number): MessagesInput[] =>
  Array.from({ length: n }, (_, i) => ({
    Id: i,
    UserId: 1,
    DateArrived: "2024-01-05T10:00:00",
    Sender: `s${i}`,
    MessageText: TEXT.repeat(repeat) + i,
  }));

let lb: Loopback;
let list: MessagesInput[] = [];
beforeAll(async () => {
  const service: ApiService = {
    getMessages: () => list,
    getMessagesInDateRange: () => [],
    deleteMessage: () => undefined,
  };
  lb = await listen(createApiHandler(service));
});
afterAll(() => lb.close());

describe("response encoding", () => {
  for (const [what, n, repeat] of [
    ["a small response", 3, 1],
    ["a response over the scratch bound", 40, 2000],
  ] as const) {
    it(`${what} arrives intact, its Content-Length in bytes`, async () => {
      list = make(n, repeat);
      const res = await fetch(`${lb.url}/api.asmx/GetMessages?email=a&password=b`);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get("content-length"))).toBe(bytes.length);
      const text = bytes.toString("utf8");
      expect(bytes.length).toBeGreaterThan(text.length);
      if (repeat > 1) expect(text.length * 3).toBeGreaterThan(4 * 1024 * 1024);
      const got = await new ApiClient({ endpoint: `${lb.url}/api.asmx` }).getMessages({
        email: "a",
        password: "b",
      });
      expect(got!.map((m) => m!.MessageText)).toEqual(list.map((m) => m.MessageText));
    });
  }
});
