/**
 * A security hook's promise from another realm (or a library's thenable) is awaited like a native
 * one: a refusal it carries fails the call rather than passing for a checked answer.
 */
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../generated-samples/message-service/index.js";
import { listen, type Loopback } from "../support/loopback.js";
import { ALICE, item, NS, SOAP11 } from "./streamed-support.js";

const servers: Loopback[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const ANSWER =
  `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><GetMessagesResponse xmlns="${NS}">` +
  `<GetMessagesResult>${item(1)}</GetMessagesResult></GetMessagesResponse></soap:Body></soap:Envelope>`;

/** A promise made in a realm of its own, rejected with `message`: not `instanceof Promise` here. */
const foreignRejection = (message: string): Promise<never> =>
  runInNewContext(`Promise.reject(new Error(${JSON.stringify(message)}))`) as Promise<never>;

describe("a security hook answering with another realm's promise", () => {
  it("fails the call when checkResponse's promise rejects", async () => {
    const server = await listen((req, res) => {
      req.resume();
      req.once("end", () => {
        res.writeHead(200, { "Content-Type": "text/xml; charset=utf-8" });
        res.end(ANSWER);
      });
    });
    servers.push(server);
    const rejection = foreignRejection("the signature does not verify");
    expect(rejection instanceof Promise).toBe(false);
    rejection.catch(() => {});
    const security = { secureRequest: (x: string) => x, checkResponse: () => rejection };
    const client = new ApiClient({ endpoint: `${server.url}/api.asmx`, security });
    await expect(client.getMessages(ALICE)).rejects.toThrow("the signature does not verify");
  });
});
