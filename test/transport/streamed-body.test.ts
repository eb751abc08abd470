/**
 * The Node transport (brought in by auth, proxy, tls, agent, keepAlive or connectTimeoutMs) sends
 * a streamed package body as it is read, unless an NTLM or Negotiate handshake may send it again:
 * the server sees the first bytes before the part's last chunk is made.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  createDocumentsHandler,
  DocumentsClient,
} from "../../generated-samples/documents/index.js";
import { sizeCounting } from "../mtom/documents-server.js";
import { listen, type Loopback } from "../support/loopback.js";

const CHUNK = 64 * 1024;
const CHUNKS = 48;

const servers: Loopback[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** A service counting the upload's bytes, and a promise of the moment 1 MiB has come in. */
async function serve() {
  let arrived!: () => void;
  const started = new Promise<void>((resolve) => (arrived = resolve));
  const { impl, received } = sizeCounting();
  const handler = createDocumentsHandler(impl, { mtom: "always", maxBodyBytes: 16 << 20 });
  const server = await listen((req, res) => void handler(req, res));
  let bytes = 0;
  server.server.on("connection", (socket) =>
    socket.on("data", (d: Buffer) => {
      bytes += d.length;
      if (bytes > 1 << 20) arrived();
    }),
  );
  servers.push(server);
  return { url: `${server.url}/documents`, started, received };
}

/** A part whose second half is made only once the server has seen the first. */
function waitingPart(started: Promise<void>): ReadableStream<Uint8Array> {
  let n = 0;
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      if (n === CHUNKS / 2) await started;
      if (n++ === CHUNKS) return c.close();
      c.enqueue(new Uint8Array(CHUNK).fill(n & 0xff));
    },
  });
}

describe("the Node transport sending a streamed package", () => {
  it("sends the part as it is read, with the socket's backpressure", async () => {
    const s = await serve();
    const client = new DocumentsClient({
      endpoint: s.url,
      mtom: true,
      // Any of these options brings in the Node transport; this one changes nothing else.
      connectTimeoutMs: 10_000,
      timeoutMs: 10_000,
    });
    const content = waitingPart(s.started);
    // Read whole first, the part would wait for bytes the server cannot have: a time-out.
    await client.upload({ Name: "big", MediaType: "application/octet-stream", Content: content });
    expect(s.received()).toBe(CHUNKS * CHUNK);
  });

  it("cancels the part when the call is aborted mid-upload, and fails a part that fails", async () => {
    const s = await serve();
    const client = new DocumentsClient({ endpoint: s.url, mtom: true, connectTimeoutMs: 10_000 });
    let cancelled!: (reason: unknown) => void;
    const cancel = new Promise((resolve) => (cancelled = resolve));
    let n = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull: (c) => c.enqueue(new Uint8Array(CHUNK).fill(n++ & 0xff)),
      cancel: (reason) => cancelled(reason),
    });
    const abort = new AbortController();
    void s.started.then(() => abort.abort(new Error("the caller left")));
    const input = { Name: "big", MediaType: "application/octet-stream", Content: endless };
    await expect(client.upload(input, { signal: abort.signal })).rejects.toThrow();
    await cancel;

    const failing = new ReadableStream<Uint8Array>({
      pull: (c) => (n++ < 40 ? c.enqueue(new Uint8Array(CHUNK)) : c.error(new Error("disk gone"))),
    });
    n = 0;
    const failed = client.upload({ ...input, Content: failing });
    await expect(failed).rejects.toThrow();
  });
});
