/**
 * In-process harness for profiling the runtime's hot paths with `node --cpu-prof` (not a benchmark:
 * it prints CPU time per operation with no peer, so use it to compare your own before and after).
 *   npx tsx bench/profile.ts server soap|get [n]   the generated handler answering GetMessages
 *                                                  (100 messages) to fake requests, no sockets
 *   npx tsx bench/profile.ts decode [n]            decodeEnvelope on the 10,000-message response (bytes)
 * Profile: node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile.ts server soap
 * (with TSX_TSCONFIG_PATH=bench/tsconfig.dist.json, the built runtime, as `npm run bench` measures)
 */
import { PassThrough } from "node:stream";
import type { IncomingMessage, ServerResponse } from "node:http";
import { field } from "@wsdl-tsgen/runtime";
import { decodeEnvelope } from "@wsdl-tsgen/runtime/internal";
import {
  createApiHandler,
  SoapFault,
  type ApiService,
} from "../generated-samples/message-service/index.js";
import { GetMessagesResponse, NS } from "../generated-samples/message-service/descriptors.js";
import {
  ACCOUNT,
  GET_QUERY,
  messages,
  recordedSoapRequest,
  SOAP_ACTION,
  soapResponse,
} from "./data.js";

const [part = "server", a1, a2] = process.argv.slice(2);

function report(label: string, times: number[]): void {
  times.sort((x, y) => x - y);
  console.log(
    `${label}: CPU per operation min ${times[0]!.toFixed(1)} µs, median ${times[times.length >> 1]!.toFixed(1)} µs (${times.length} runs)`,
  );
}

async function timed(n: number, warmup: number, op: () => Promise<void> | void): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await op();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = process.cpuUsage();
    await op();
    const d = process.cpuUsage(c);
    times.push(d.user + d.system);
  }
  return times;
}

if (part === "server") {
  const kind = a1 === "get" ? "get" : "soap";
  const list = messages(100, 7);
  const service: ApiService = {
    getMessages: ({ email, password }) => {
      if (email !== ACCOUNT.email || password !== ACCOUNT.password)
        throw new SoapFault({ code: "Client", message: "Invalid email or password." });
      return list;
    },
    getMessagesInDateRange: () => [],
    deleteMessage: () => undefined,
  };
  const handler = createApiHandler(service);
  const body = Buffer.from(recordedSoapRequest());
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = Object.assign(new PassThrough(), {
        method: kind === "soap" ? "POST" : "GET",
        url: kind === "soap" ? "/api.asmx" : `/api.asmx/GetMessages?${GET_QUERY}`,
        headers:
          kind === "soap"
            ? {
                "content-type": "text/xml; charset=utf-8",
                soapaction: SOAP_ACTION,
                "content-length": String(body.length),
                host: "127.0.0.1",
              }
            : { host: "127.0.0.1" },
        socket: { remoteAddress: "127.0.0.1", localAddress: "127.0.0.1", localPort: 80 },
      });
      let status = 0;
      const res = {
        headersSent: false,
        writeHead(s: number) {
          status = s;
          this.headersSent = true;
        },
        end(b: Buffer) {
          if (status === 200) resolve();
          else reject(new Error(`status ${status}: ${b.toString()}`));
        },
        on() {},
      };
      handler(req as unknown as IncomingMessage, res as unknown as ServerResponse);
      req.end(kind === "soap" ? body : undefined);
    });
  report(`server ${kind}`, await timed(Number(a2 ?? 3000), 500, one));
} else if (part === "decode") {
  const buf = Buffer.from(soapResponse(messages(10_000, 42)));
  const f = field("GetMessagesResponse", NS, () => GetMessagesResponse);
  report(
    "decode 10,000 messages",
    await timed(Number(a1 ?? 15), 3, () => {
      // The bytes, as the client decodes them.
      const r = decodeEnvelope(buf, () => f);
      if (!r.body) throw new Error("no body decoded");
    }),
  );
} else {
  console.error("usage: bench/profile.ts server soap|get [n] | decode [n]");
  process.exitCode = 2;
}
