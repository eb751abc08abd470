/** Loopback HTTP servers for tests: port 0, closed after use. */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from "node:http";
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
  let closed = false;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (closed) return resolve();
        closed = true;
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

/**
 * Answers with `head`, then 64 MiB of spaces as fast as the client takes them: a body that does not
 * end in any time a test waits. `finished` tells whether all of it was sent; `closed` settles when
 * the response is over, sent whole or cut off by the client (read `finished` after it).
 */
export function endlessBody(
  res: ServerResponse,
  head: string,
): { readonly finished: boolean; readonly closed: Promise<void> } {
  const closed = new Promise<void>((resolve) => res.once("close", () => resolve()));
  const state = { finished: false, closed };
  const chunk = Buffer.alloc(16 * 1024, 32);
  let sent = 0;
  const more = (): void => {
    while (sent < 64 * 1024 * 1024) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", more);
    }
    state.finished = true;
    res.end();
  };
  res.write(head, more);
  return state;
}

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: Buffer;
}

/** A server that records each request and answers with whatever `respond` gives. */
export async function recordingServer(
  respond: (req: RecordedRequest, res: ServerResponse) => void,
): Promise<Loopback & { requests: RecordedRequest[] }> {
  const requests: RecordedRequest[] = [];
  const lb = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(r);
      respond(r, res);
    });
  });
  return Object.assign(lb, { requests });
}

/**
 * For a describe block whose tests each start a server: `serve` starts one (closing the last), and
 * every test's server is closed after it.
 */
export function serverPerTest(afterEach: (fn: () => Promise<void>) => void): {
  serve(handler: RequestListener): Promise<Loopback>;
} {
  let current: Loopback | undefined;
  const close = async () => {
    await current?.close();
    current = undefined;
  };
  afterEach(close);
  return {
    async serve(handler) {
      await close();
      return (current = await listen(handler));
    },
  };
}

/** The error `p` rejects with, which must be a `type`; fails when it resolves. */
export async function rejection<T>(
  p: Promise<unknown>,
  type: abstract new (...args: never[]) => T,
): Promise<T> {
  try {
    await p;
  } catch (e) {
    if (e instanceof type) return e;
    throw e;
  }
  throw new Error(`expected a ${type.name}, but it succeeded`);
}
