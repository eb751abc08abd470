/**
 * Child process: one server, alone, so that its CPU time can be measured, for one binding (SOAP
 * 1.1,
 * SOAP 1.2, HTTP GET or HTTP POST). All answer GetMessages for one fixed account with the same 100
 * messages.
 *   ours       the generated handler (`createApiHandler`) over an in-memory `ApiService`;
 *   node-soap  `soap.listen(server, "/api.asmx", service, wsdl)` (SOAP 1.1 only);
 *   bare       node:http answering with precomputed bytes, taken from an in-process instance of ours;
 *   template   node:http building those same bytes for every request from the same messages with a
 *              hand-written template (string concatenation, the four escapes, UTF-8 encoding) and
 *              nothing else: no request parsing, routing, validation or descriptors. A floor for
 *              what a JavaScript server that builds this response per request can expect to spend.
 * Arguments: the kind, the binding. IPC: sends { port }; "begin" starts the measured window; "end"
 * replies with the CPU time and the
 * number of requests since "begin". Exits when the parent disconnects.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as soap from "soap";
import {
  createApiHandler,
  SoapFault,
  type ApiService,
} from "../generated-samples/message-service/index.js";
import { ACCOUNT, bindingRequest, messages, WSDL_PATH, type Binding } from "./data.js";
import {
  SERVER_MESSAGES,
  SERVER_SEED,
  type ServerKind,
  type ServerReady,
  type ServerUsage,
} from "./protocol.js";
import { exitWithParent, reply } from "./util.js";

const kind = process.argv[2] as ServerKind;
const binding = process.argv[3] as Binding;
const list = messages(SERVER_MESSAGES, SERVER_SEED);
const authorized = (email: string | undefined, password: string | undefined) =>
  email === ACCOUNT.email && password === ACCOUNT.password;

const service: ApiService = {
  getMessages: ({ email, password }) => {
    if (!authorized(email, password))
      throw new SoapFault({ code: "Client", message: "Invalid email or password." });
    return list;
  },
  getMessagesInDateRange: () => {
    throw new SoapFault({ code: "Server", message: "not part of the benchmark" });
  },
  deleteMessage: () => {
    throw new SoapFault({ code: "Server", message: "not part of the benchmark" });
  },
};

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** A response as our server sends it: status, the headers that matter, body bytes. */
interface Recorded {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

async function record(url: string, init: RequestInit): Promise<Recorded> {
  const res = await fetch(url, init);
  const body = Buffer.from(await res.arrayBuffer());
  const headers: Record<string, string> = {};
  for (const h of ["content-type", "cache-control"]) {
    const v = res.headers.get(h);
    if (v !== null) headers[h] = v;
  }
  return { status: res.status, headers, body };
}

/** Our server's answer to the binding's request, from an in-process instance. */
async function oursAnswer(): Promise<Recorded> {
  const ours = createServer(createApiHandler(service));
  const q = bindingRequest(binding, `http://127.0.0.1:${await listen(ours)}/api.asmx`);
  const answer = await record(q.url, {
    method: q.method,
    headers: q.headers ?? {},
    body: q.body ?? null,
  });
  await new Promise<void>((resolve) => ours.close(() => resolve()));
  return answer;
}

/** Element text escaped as our writer escapes it (`&`, `<`, `>`, CR), jumping from one to the next. */
const SPECIAL = /[&<>\r]/g;
function escapeText(s: string): string {
  SPECIAL.lastIndex = 0;
  if (!SPECIAL.test(s)) return s;
  let out = "";
  let last = 0;
  do {
    const i = SPECIAL.lastIndex - 1;
    const c = s.charCodeAt(i);
    out +=
      s.slice(last, i) + (c === 38 ? "&amp;" : c === 60 ? "&lt;" : c === 62 ? "&gt;" : "&#xD;");
    last = i + 1;
  } while (SPECIAL.test(s));
  return out + s.slice(last);
}

/** `<name>value</name>`, `<name />` for "", nothing when absent: as our writer writes a message's fields. */
function field(name: string, v: string | number | undefined | null): string {
  if (v === undefined || v === null) return "";
  if (v === "") return `<${name} />`;
  return `<${name}>${typeof v === "string" ? escapeText(v) : String(v)}</${name}>`;
}

/** The messages as XML, built anew on every call. */
function messagesXml(): string {
  let s = "";
  for (const m of list) {
    s +=
      "<Messages>" +
      field("DateArrived", m.DateArrived) +
      field("UserId", m.UserId) +
      field("Sender", m.Sender) +
      field("MessageText", m.MessageText) +
      field("MessageUrl", m.MessageUrl) +
      field("Transcription", m.Transcription) +
      field("Id", m.Id) +
      "</Messages>";
  }
  return s;
}

const encoder = new TextEncoder();
let scratch = new Uint8Array(256 * 1024);
/** UTF-8 bytes in one pass, as our server encodes a response. */
function utf8(s: string): Buffer {
  if (scratch.length < s.length * 3) scratch = new Uint8Array(s.length * 3);
  const { written } = encoder.encodeInto(s, scratch);
  return Buffer.from(scratch.subarray(0, written));
}

let server: Server;
if (kind === "ours") {
  server = createServer(createApiHandler(service));
} else if (kind === "bare") {
  // Ask an in-process instance of our server once; answer with exactly its bytes from then on.
  const answer = await oursAnswer();
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(answer.status, {
        "Cache-Control": answer.headers["cache-control"] ?? "",
        "Content-Length": answer.body.length,
        "Content-Type": answer.headers["content-type"] ?? "",
      });
      res.end(answer.body);
    });
  });
} else if (kind === "template") {
  // Our answers' envelope (or document root) around the messages, kept as text; the messages are
  // written per request. The bytes must be ours exactly, or the comparison means nothing.
  const answer = await oursAnswer();
  const text = answer.body.toString("utf8");
  const from = text.indexOf("<Messages>");
  const to = text.lastIndexOf("</Messages>") + "</Messages>".length;
  if (from < 0 || to < from) throw new Error("our answer holds no <Messages> element");
  const f = { ...answer, head: text.slice(0, from), tail: text.slice(to) };
  if (!utf8(f.head + messagesXml() + f.tail).equals(f.body))
    throw new Error("the hand-written template does not write our server's bytes");
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on("end", () => {
      const body = utf8(f.head + messagesXml() + f.tail);
      res.writeHead(f.status, {
        "Cache-Control": f.headers["cache-control"] ?? "",
        "Content-Length": body.length,
        "Content-Type": f.headers["content-type"] ?? "",
      });
      res.end(body);
    });
  });
} else if (kind === "node-soap") {
  if (binding !== "soap11") throw new Error("node-soap is measured over SOAP 1.1 only");
  server = createServer();
  type Args = { email?: string; password?: string };
  const services = {
    Api: {
      ApiSoap: {
        GetMessages: (args: Args) => {
          if (!authorized(args.email, args.password))
            throw {
              Fault: { faultcode: "soap:Client", faultstring: "Invalid email or password." },
            };
          return { GetMessagesResult: { Messages: list } };
        },
      },
    },
  };
  // node-soap installs its 'request' listener (replacing the others) once the WSDL is processed.
  await new Promise<void>((resolve, reject) =>
    soap.listen(server, "/api.asmx", services, readFileSync(WSDL_PATH, "utf8"), (err: unknown) =>
      err ? reject(err as Error) : resolve(),
    ),
  );
} else {
  throw new Error(`unknown server kind '${kind}'`);
}

// Counted here, after node-soap has replaced the 'request' listeners with its own.
let requests = 0;
server.on("request", () => {
  requests++;
});
server.keepAliveTimeout = 60_000;
exitWithParent(() => server.close());

let start = process.cpuUsage();
let startTime = performance.now();
process.on("message", (m: unknown) => {
  if (m === "begin") {
    requests = 0;
    startTime = performance.now();
    start = process.cpuUsage();
    void reply("begun");
  } else if (m === "end") {
    const d = process.cpuUsage(start);
    const usage: ServerUsage = {
      cpuMicros: d.user + d.system,
      userMicros: d.user,
      systemMicros: d.system,
      requests,
      elapsedMs: performance.now() - startTime,
    };
    void reply(usage);
  }
});
const ready: ServerReady = { port: await listen(server) };
await reply(ready);
