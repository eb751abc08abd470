/**
 * The time a request body gets to arrive (`requestTimeoutMs`): the reads under way share one timer
 * (runtime/src/server/body.ts), which must still end each late body at its own time, also after
 * bodies that arrived in time, and one after another.
 */
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiHandler } from "../../generated-samples/message-service/index.js";

const TIMEOUT_MS = 150;

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer(
    createApiHandler({ getMessages: () => [] }, { requestTimeoutMs: TIMEOUT_MS }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const BODY =
  '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetMessages xmlns="http://api.example.com/messages/"><email>a</email><password>b</password></GetMessages></soap:Body></soap:Envelope>';

/** A SOAP 1.1 request declaring BODY's length, with `sent` bytes of it sent; the answer. */
function post(sent: number): Promise<{ answer: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let out = "";
    socket.on("data", (d) => {
      out += d.toString("latin1");
      // A whole answer: the headers and the body they declare.
      const sep = out.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length: (\d+)/i.exec(out)?.[1];
      if (sep !== -1 && length !== undefined && out.length >= sep + 4 + Number(length))
        socket.end();
    });
    socket.on("error", reject);
    socket.on("close", () => resolve({ answer: out, ms: performance.now() - started }));
    socket.write(
      "POST /api.asmx HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/xml; charset=utf-8\r\n" +
        `SOAPAction: "http://api.example.com/messages/GetMessages"\r\n` +
        `Content-Length: ${BODY.length}\r\n\r\n${BODY.slice(0, sent)}`,
    );
  });
}

const status = (answer: string) => answer.slice(9, 12);

describe("a request body that does not arrive in time", () => {
  it("gets 408 at the time limit, whole bodies before and between it being answered", async () => {
    const late = post(10);
    const whole = await post(BODY.length);
    expect(status(whole.answer)).toBe("200");
    const first = await late;
    expect(status(first.answer)).toBe("408");
    expect(first.answer).toContain("The request body did not arrive in time.");
    expect(first.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    // After the shared timer fired with nothing left to wait for, a late body still gets its 408,
    // and two begun apart each get theirs.
    const again = post(20);
    await new Promise((r) => setTimeout(r, TIMEOUT_MS / 2));
    const third = post(30);
    expect(status((await post(BODY.length)).answer)).toBe("200");
    const [second, last] = await Promise.all([again, third]);
    expect(status(second.answer)).toBe("408");
    expect(status(last.answer)).toBe("408");
    expect(last.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
  });
});

describe("a time limit longer than a timer takes (2^31 - 1 ms)", () => {
  it("waits without firing at once, again and again", async () => {
    const long = createServer(
      createApiHandler({ getMessages: () => [] }, { requestTimeoutMs: 3e9 }),
    );
    await new Promise<void>((resolve) => long.listen(0, "127.0.0.1", resolve));
    const warned = vi.spyOn(process, "emitWarning");
    const socket = connect((long.address() as AddressInfo).port, "127.0.0.1");
    let answered = false;
    socket.on("data", () => (answered = true));
    socket.write(
      `POST /api.asmx HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/xml; charset=utf-8\r\n` +
        `Content-Length: ${BODY.length}\r\n\r\n${BODY.slice(0, 10)}`,
    );
    try {
      await new Promise((r) => setTimeout(r, 200));
      // Node warns of each delay past the limit and runs the timer in 1 ms instead.
      const overflows = warned.mock.calls.filter((c) => String(c[1] ?? c[0]).includes("Overflow"));
      expect(overflows).toEqual([]);
      expect(answered).toBe(false);
    } finally {
      warned.mockRestore();
      socket.destroy();
      long.closeAllConnections();
      long.close();
    }
  });
});
