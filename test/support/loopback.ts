/** Loopback HTTP servers for tests: port 0, closed after use. */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Loopback {
  readonly server: Server;
  readonly url: string;
  close(): Promise<void>;
}

export async function listen(handler: RequestListener): Promise<Loopback> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: Buffer;
}

/** A server that records each request and answers with whatever `respond` gives. */
export async function recordingServer(respond: (req: RecordedRequest, res: ServerResponse) => void): Promise<Loopback & { requests: RecordedRequest[] }> {
  const requests: RecordedRequest[] = [];
  const lb = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(r);
      respond(r, res);
    });
  });
  return Object.assign(lb, { requests });
}
