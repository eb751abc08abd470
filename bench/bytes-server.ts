/**
 * Child process: a loopback node:http server that answers every POST with the same precomputed SOAP 1.1
 * GetMessagesResponse of `count` messages, so that the clients measured elsewhere share the transport
 * and nothing else. With `mbits` (megabits per second), the body goes out in 64 KiB slices paced to
 * that rate, as over a slower link than loopback. IPC: sends { port, bytes, sha256 }; exits when the
 * parent disconnects.
 */
import { createHash } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { messages, soapResponse } from "./data.js";
import type { BytesServerReady } from "./protocol.js";
import { exitWithParent, reply } from "./util.js";

const count = Number(process.argv[2] ?? "10000");
const mbits = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
const body = Buffer.from(soapResponse(messages(count)), "utf8");
const SLICE = 64 * 1024;

/** Writes the body in slices, each when the link at `mbits` would have carried the ones before it. */
function paced(res: ServerResponse, rate: number): void {
  const start = performance.now();
  const bytesPerMs = (rate * 1e6) / 8 / 1000;
  const next = (at: number): void => {
    if (at >= body.length) return void res.end();
    res.write(body.subarray(at, at + SLICE));
    const sent = Math.min(at + SLICE, body.length);
    setTimeout(() => next(sent), Math.max(0, start + sent / bytesPerMs - performance.now()));
  };
  next(0);
}

const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, {
      "Content-Type": "text/xml; charset=utf-8",
      "Content-Length": body.length,
      "Cache-Control": "private, max-age=0",
    });
    if (mbits === undefined) res.end(body);
    else paced(res, mbits);
  });
});
server.keepAliveTimeout = 60_000;
exitWithParent(() => server.close());
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const ready: BytesServerReady = {
  port: (server.address() as AddressInfo).port,
  bytes: body.length,
  sha256: createHash("sha256").update(body).digest("hex"),
};
await reply(ready);
