/**
 * A client whose security only signs (no `verify`) reads responses as any client does: it may
 * stream a result, where one that verifies must read the whole response to check its signature.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiClient,
  createApiHandler,
  type ApiService,
} from "../../generated-samples/message-service/index.js";
import { x509Security } from "../../runtime/src/wss/index.js";
import { listen, type Loopback } from "../support/loopback.js";
import { makeKeys } from "../support/wss-keys.js";

const keys = makeKeys("sign-only");
const message = (i: number) => ({
  DateArrived: "2024-01-05T10:00:00",
  UserId: 1,
  Id: i,
  Sender: "s",
  Transcription: "t",
});
const impl: ApiService = {
  getMessages: () => [message(1), message(2)],
  getMessagesInDateRange: () => [],
  deleteMessage: () => undefined,
};

let lb: Loopback;
// The server verifies the signed requests (and so understands their Security header).
const security = x509Security({ verify: { trust: [keys.cert] } });
beforeAll(async () => void (lb = await listen(createApiHandler(impl, { security }))));
afterAll(() => lb.close());

describe("a client that signs and does not verify", () => {
  it("has no response check, and streams", async () => {
    const sign = { key: keys.key, cert: keys.cert };
    expect(x509Security({ sign }).checkResponse).toBeUndefined();
    const client = new ApiClient({
      endpoint: `${lb.url}/api.asmx`,
      port: "ApiSoap",
      security: x509Security({ sign }),
    });
    const ids: number[] = [];
    for await (const m of client.stream.getMessages({ email: "a", password: "b" })) ids.push(m!.Id);
    expect(ids).toEqual([1, 2]);
  });

  it("one that verifies still refuses to stream, saying why", async () => {
    const client = new ApiClient({
      endpoint: `${lb.url}/api.asmx`,
      port: "ApiSoap",
      security: x509Security({ verify: { trust: [keys.cert] } }),
    });
    const items = client.stream.getMessages({ email: "a", password: "b" });
    await expect(items[Symbol.asyncIterator]().next()).rejects.toThrow(/verifies signed responses/);
  });
});
