/**
 * A binding's GetMessages request put through a request listener in-process: a fake request (a
 * PassThrough with the recorded request's method, URL, headers and body) and a fake response that
 * records what is sent. No sockets, so that what is measured is the listener's own work. Shared by
 * server-count.ts and server-builds.ts.
 */
import { PassThrough } from "node:stream";
import type { IncomingMessage, ServerResponse } from "node:http";
import { bindingRequest, type Binding } from "./data.js";
import type { Recorded } from "./server-template.js";

export type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** One request of `binding` through a listener; resolves with the response, rejects on non-200. */
export function fakeExchange(binding: Binding): (listener: Listener) => Promise<Recorded> {
  const q = bindingRequest(binding, "http://127.0.0.1/api.asmx");
  const url = new URL(q.url);
  const body = q.body === undefined ? undefined : Buffer.from(q.body);
  const headers: Record<string, string> = { host: "127.0.0.1" };
  for (const [k, v] of Object.entries(q.headers ?? {})) headers[k.toLowerCase()] = v;
  if (body) headers["content-length"] = String(body.length);
  return (listener) =>
    new Promise<Recorded>((resolve, reject) => {
      const req = Object.assign(new PassThrough(), {
        method: q.method,
        url: url.pathname + url.search,
        headers,
        socket: { remoteAddress: "127.0.0.1", localAddress: "127.0.0.1", localPort: 80 },
      });
      let status = 0;
      let sent: Record<string, string | number> = {};
      const res = {
        headersSent: false,
        writeHead(s: number, h: Record<string, string | number>) {
          status = s;
          sent = h;
          this.headersSent = true;
          return this;
        },
        end(b: Buffer) {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(sent)) headers[k.toLowerCase()] = String(v);
          if (status === 200) resolve({ status, headers, body: b });
          else reject(new Error(`status ${status}: ${b.toString()}`));
        },
        on() {},
        once() {},
      };
      listener(req as unknown as IncomingMessage, res as unknown as ServerResponse);
      req.end(body);
    });
}
