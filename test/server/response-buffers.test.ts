import { EventEmitter } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { send } from "../../runtime/src/server/respond.js";

/** A body of about `kb` KB, different for every `tag`, with non-ASCII text in it. */
const body = (tag: string, kb: number) => `<r>${`${tag} → 日本 😘 & `.repeat(kb * 50)}</r>`;

/** A response with its methods on its prototype, as node:http's; `finish` is emitted by hand. */
class FakeResponse extends EventEmitter {
  headersSent = false;
  sent: Buffer | undefined;
  writeHead(): this {
    this.headersSent = true;
    return this;
  }
  end(b: Buffer): this {
    this.sent = b;
    return this;
  }
}

const sendFake = (text: string): FakeResponse => {
  const res = new FakeResponse();
  send(res as unknown as ServerResponse, 200, text, "text/xml");
  return res;
};

describe("response buffers", () => {
  it("reuses a body's buffer only once its response has finished", () => {
    const a = sendFake(body("a", 40));
    const b = sendFake(body("b", 40));
    expect(b.sent!.buffer).not.toBe(a.sent!.buffer);
    expect(a.sent!.toString("utf8")).toBe(body("a", 40));
    a.emit("finish");
    const c = sendFake(body("c", 40));
    expect(c.sent!.buffer).toBe(a.sent!.buffer);
    expect(b.sent!.toString("utf8")).toBe(body("b", 40));
    expect(c.sent!.toString("utf8")).toBe(body("c", 40));
  });

  it("never reuses the buffer of a response whose end a middleware replaced", () => {
    const a = new FakeResponse();
    a.end = (b: Buffer) => ((a.sent = b), a);
    send(a as unknown as ServerResponse, 200, body("a", 40), "text/xml");
    a.emit("finish");
    const b = sendFake(body("b", 40));
    expect(b.sent!.buffer).not.toBe(a.sent!.buffer);
    expect(a.sent!.toString("utf8")).toBe(body("a", 40));
  });

  it("sends every body intact over keep-alive connections, one after another and at once", async () => {
    let n = 0;
    const server = createServer((_req, res) =>
      send(res, 200, body(`r${n++}`, 20 + (n % 3) * 30), "text/plain"),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const texts: string[] = [];
      for (let i = 0; i < 5; i++) texts.push(await (await fetch(url)).text());
      texts.push(...(await Promise.all([...Array(10)].map(async () => (await fetch(url)).text()))));
      const want = [...Array(15)].map((_, i) => body(`r${i}`, 20 + ((i + 1) % 3) * 30));
      expect(texts.slice(0, 5)).toEqual(want.slice(0, 5));
      expect(new Set(texts.slice(5))).toEqual(new Set(want.slice(5)));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
