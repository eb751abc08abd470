/**
 * Child process: a loopback node:http server that answers every POST with the same precomputed SOAP 1.1
 * GetMessagesResponse of `count` messages, so that the clients measured elsewhere share the transport
 * and nothing else. IPC: sends { port, bytes, sha256 }; exits when the parent disconnects.
 */
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { messages, soapResponse } from "./data.js";
import type { BytesServerReady } from "./protocol.js";
import { exitWithParent, reply } from "./util.js";

const count = Number(process.argv[2] ?? "10000");
const body = Buffer.from(soapResponse(messages(count)), "utf8");
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "Content-Type": "text/xml; charset=utf-8", "Content-Length": body.length, "Cache-Control": "private, max-age=0" });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
exitWithParent(() => server.close());
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const ready: BytesServerReady = { port: (server.address() as AddressInfo).port, bytes: body.length, sha256: createHash("sha256").update(body).digest("hex") };
await reply(ready);
