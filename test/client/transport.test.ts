/**
 * Transport failures reach the caller as a TransportError naming the request: a server that stops
 * answering (before or in the middle of its body) once the time-out passes, a refused connection, and
 * the caller's own abort.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient, TransportError } from "../../generated-samples/message-service/index.js";
import { MIN_PIECE } from "../../runtime/src/xml/pieces.js";
import { endlessBody, rejection, serverPerTest } from "../support/loopback.js";

const ALICE = { email: "alice@example.com", password: "alice-pass" };
const HEAD =
  '<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>';

const servers = serverPerTest(afterEach);
const failure = (p: Promise<unknown>): Promise<TransportError> => rejection(p, TransportError);

describe("transport failures", () => {
  it("a server that never answers: timed out, after the client's timeoutMs or the call's own", async () => {
    const server = await servers.serve(() => {});
    const url = `${server.url}/api.asmx`;
    const e = await failure(new ApiClient({ endpoint: url, timeoutMs: 150 }).getMessages(ALICE));
    expect(e.message).toBe(`POST ${url} timed out after 150 ms`);
    const perCall = await failure(
      new ApiClient({ endpoint: url, timeoutMs: 60_000 }).getMessages(ALICE, { timeoutMs: 100 }),
    );
    expect(perCall.message).toBe(`POST ${url} timed out after 100 ms`);
  });

  it("a server that stops in the middle of its body: timed out too, not a half-read response", async () => {
    const server = await servers.serve((req, res) => {
      req.resume();
      res.writeHead(200, { "Content-Type": "text/xml; charset=utf-8", "Content-Length": "100000" });
      res.write(HEAD);
    });
    const e = await failure(
      new ApiClient({ endpoint: `${server.url}/api.asmx`, timeoutMs: 150 }).getMessages(ALICE),
    );
    expect(e.message).toMatch(/timed out after 150 ms$/);
  });

  it("a connection that closes in the middle of the body fails, rather than decoding what came", async () => {
    const server = await servers.serve((req, res) => {
      req.resume();
      res.writeHead(200, { "Content-Type": "text/xml; charset=utf-8", "Content-Length": "100000" });
      res.write(HEAD, () => res.socket?.destroy());
    });
    const e = await failure(
      new ApiClient({ endpoint: `${server.url}/api.asmx` }).getMessages(ALICE),
    );
    expect(e.message).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/api\.asmx failed: /);
  });

  it("a connection that closes after megabytes of messages, decoded as they came, fails; the next call decodes in full", async () => {
    const message =
      "<Messages><DateArrived>2024-01-15T08:30:00.1234567</DateArrived><UserId>1</UserId><Sender>«Ω» 😀</Sender><Id>7</Id></Messages>";
    const open = `${HEAD}<GetMessagesResponse xmlns="http://api.example.com/messages/"><GetMessagesResult>`;
    const count = Math.ceil((3 * MIN_PIECE) / message.length);
    const whole = Buffer.from(
      `${open}${message.repeat(count)}</GetMessagesResult></GetMessagesResponse></soap:Body></soap:Envelope>`,
      "utf8",
    );
    let cut = true;
    const server = await servers.serve((req, res) => {
      req.resume();
      res.writeHead(200, {
        "Content-Type": "text/xml; charset=utf-8",
        "Content-Length": String(whole.length),
      });
      // Two and a half pieces, cut inside a character, then the connection goes.
      if (cut)
        res.write(whole.subarray(0, Math.floor(2.5 * MIN_PIECE) + 1), () => res.socket?.destroy());
      else res.end(whole);
    });
    const client = new ApiClient({ endpoint: `${server.url}/api.asmx` });
    const e = await failure(client.getMessages(ALICE));
    expect(e.message).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/api\.asmx failed: /);
    cut = false;
    const list = await client.getMessages(ALICE);
    expect(list?.length).toBe(count);
    expect(list?.[count - 1]?.Sender).toBe("«Ω» 😀");
  });

  it("a response body beyond maxResponseBytes is not read further", async () => {
    let sent: { readonly finished: boolean; readonly closed: Promise<void> } | undefined;
    const server = await servers.serve((req, res) => {
      req.resume();
      // Chunked, no Content-Length: the client finds out as the bytes arrive.
      res.writeHead(200, { "Content-Type": "text/xml; charset=utf-8" });
      sent = endlessBody(res, HEAD);
    });
    const e = await failure(
      new ApiClient({ endpoint: `${server.url}/api.asmx`, maxResponseBytes: 100_000 }).getMessages(
        ALICE,
      ),
    );
    expect(e.message).toMatch(
      / failed: the response body is larger than 100000 bytes \(the client's maxResponseBytes\)$/,
    );
    // Once the connection is over: a client that went on draining it would have taken it all.
    await sent!.closed;
    expect(sent!.finished).toBe(false);
  });

  it("a refused connection, and the caller's abort, name the request and keep the cause", async () => {
    const closed = await servers.serve(() => {});
    const url = `${closed.url}/api.asmx`;
    await closed.close();
    const refused = await failure(
      new ApiClient({ endpoint: url, port: "ApiHttpGet" }).getMessages(ALICE),
    );
    expect(refused.message).toMatch(
      new RegExp(
        `^GET ${url.replace(/[.]/g, "\\.")}/GetMessages\\?email=alice%40example\\.com&password=alice-pass failed: connection refused \\(ECONNREFUSED\\) to ${closed.url.slice("http://".length).replace(/[.]/g, "\\.")}$`,
      ),
    );
    expect(refused.cause).toBeInstanceOf(Error);

    const server = await servers.serve(() => {});
    const controller = new AbortController();
    const call = new ApiClient({ endpoint: `${server.url}/api.asmx` }).getMessages(ALICE, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    const aborted = await failure(call);
    expect(aborted.message).toMatch(/failed: /);
    expect((aborted.cause as Error).name).toBe("AbortError");
  });
});
