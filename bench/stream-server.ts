/**
 * Child process: a loopback node:http server answering every POST with a SOAP 1.1
 * GetMessagesResponse of `?count=N` messages (default 10,000), written as it is generated, with
 * backpressure from the socket: the bench's 10,000 messages over and over (their Ids repeat), so
 * that a response of a million messages (~450 MB) never stands whole in memory here either. IPC:
 * sends { port, bytesPerMessage }; exits when the parent disconnects.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { messages, soapResponse } from "./data.js";
import { exitWithParent, reply } from "./util.js";

const whole = soapResponse(messages(10_000));
const open = whole.indexOf("<GetMessagesResult>") + "<GetMessagesResult>".length;
const close = whole.indexOf("</GetMessagesResult>");
const head = whole.slice(0, open);
const tail = whole.slice(close);
const items = whole
  .slice(open, close)
  .split("</Messages>")
  .filter((s) => s !== "")
  .map((s) => `${s}</Messages>`);
/** Items per write: ~450 KB. */
const BATCH = 1000;

/** The answer's text, a batch at a time, as it is pulled (piped: backpressure from the socket). */
function* answer(count: number): Generator<string> {
  yield head;
  for (let i = 0; i < count;) {
    let chunk = "";
    for (const end = Math.min(count, i + BATCH); i < end; i++) chunk += items[i % items.length];
    yield chunk;
  }
  yield tail;
}

const server = createServer((req, res) => {
  const count = Number(new URL(req.url ?? "/", "http://x").searchParams.get("count") ?? "10000");
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "Content-Type": "text/xml; charset=utf-8" });
    Readable.from(answer(count)).pipe(res);
  });
});
exitWithParent(() => server.close());
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const bytes = items.reduce((n, s) => n + Buffer.byteLength(s), 0);
await reply({
  port: (server.address() as AddressInfo).port,
  bytesPerMessage: bytes / items.length,
});
