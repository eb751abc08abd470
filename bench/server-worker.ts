/**
 * Child process: one server, alone, so that its CPU time can be measured, for one binding (SOAP
 * 1.1, SOAP 1.2, HTTP GET or HTTP POST). All answer GetMessages for one fixed account with the
 * same 100 messages.
 *   ours       the generated handler (`createApiHandler`) over an in-memory `ApiService`;
 *   node-soap  `soap.listen(server, "/api.asmx", service, wsdl)` (SOAP 1.1 only);
 *   bare       node:http answering with precomputed bytes, taken from an in-process instance of ours;
 *   template   the hand-written template server of server-template.ts.
 * Arguments: the kind, the binding. IPC: sends { port }; "begin" starts the measured window; "end"
 * replies with the CPU time, minor page faults and number of requests since "begin". Exits when the
 * parent disconnects.
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
import { templateListener, type Recorded } from "./server-template.js";
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
  server = createServer(templateListener(list, await oursAnswer()));
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
let startFaults = process.resourceUsage().minorPageFault;
let startTime = performance.now();
process.on("message", (m: unknown) => {
  if (m === "begin") {
    requests = 0;
    startTime = performance.now();
    start = process.cpuUsage();
    startFaults = process.resourceUsage().minorPageFault;
    void reply("begun");
  } else if (m === "end") {
    const d = process.cpuUsage(start);
    const usage: ServerUsage = {
      cpuMicros: d.user + d.system,
      userMicros: d.user,
      systemMicros: d.system,
      minorFaults: process.resourceUsage().minorPageFault - startFaults,
      requests,
      elapsedMs: performance.now() - startTime,
    };
    void reply(usage);
  }
});
const ready: ServerReady = { port: await listen(server) };
await reply(ready);
