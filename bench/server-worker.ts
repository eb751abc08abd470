/**
 * One server in its own process, so that its CPU time can be measured: `ours` (the generated
 * handler), `node-soap` (soap.listen) or `bare` (node:http answering precomputed bytes). All answer
 * GetMessages with the same 100 messages. IPC: sends { port }; on "begin" starts measuring; on "end"
 * replies { cpuMicros } and exits.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as soap from "soap";
import { createApiHandler, type ApiService } from "../generated-samples/message-service/index.js";
import { messages, soapResponse, WSDL_PATH } from "./data.js";

const kind = process.argv[2]!;
const list = messages(100);
const service: ApiService = {
  getMessages: () => list,
  getMessagesInDateRange: () => list,
  deleteMessage: () => undefined,
};

let server;
if (kind === "ours") {
  server = createServer(createApiHandler(service));
} else if (kind === "bare") {
  const soapBytes = Buffer.from(soapResponse(list));
  // The HTTP GET answer of our server, fetched once from an in-process instance, so the bytes match.
  const ours = createServer(createApiHandler(service));
  await new Promise<void>((r) => ours.listen(0, "127.0.0.1", r));
  const getBytes = Buffer.from(await (await fetch(`http://127.0.0.1:${(ours.address() as AddressInfo).port}/api.asmx/GetMessages?email=a&password=b`)).arrayBuffer());
  ours.close();
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const body = req.method === "GET" ? getBytes : soapBytes;
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "Content-Type": "text/xml; charset=utf-8", "Content-Length": body.length });
      res.end(body);
    });
  });
} else {
  server = createServer();
  const services = { Api: { ApiSoap: { GetMessages: () => ({ GetMessagesResult: { Messages: list } }) } } };
  soap.listen(server, "/api.asmx", services as never, readFileSync(WSDL_PATH, "utf8"));
}
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
let start = process.cpuUsage();
process.on("message", (m: string) => {
  if (m === "begin") {
    start = process.cpuUsage();
  } else if (m === "end") {
    const d = process.cpuUsage(start);
    console.log("{}");
    process.send!({ cpuMicros: d.user + d.system }, () => process.exit(0));
  }
});
process.send!({ port: (server.address() as AddressInfo).port });
