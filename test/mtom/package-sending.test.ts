/**
 * The server sending an MTOM package whose attachment is a ReadableStream: a client that goes away
 * while the server waits for the socket to drain cancels the stream, and a part that fails to read
 * mid-answer closes the connection and is logged.
 */
import { connect } from "node:net";
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createDocumentsHandler,
  DocumentsClient,
  type DocumentsService,
} from "../../generated-samples/documents/index.js";
import { listen, type Loopback } from "../support/loopback.js";
import { sizeCounting } from "./documents-server.js";

const ENVELOPE =
  '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>' +
  '<Download xmlns="urn:wsdl-tsgen:documents"><Id>d1</Id></Download></s:Body></s:Envelope>';

const INFO = { Id: "d1", Name: "n", MediaType: "m", Size: 0, Created: "2026-11-29T00:00:00Z" };

/** A service whose download answers with the stream `content()` makes. */
const serviceOf = (content: () => ReadableStream<Uint8Array>): DocumentsService => ({
  upload: () => INFO,
  download: () => ({ Info: INFO, Content: content() }),
  list: () => [],
});

const servers: Loopback[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** Serves `impl`; `responses` holds each response, `logged` each message logged. */
async function serve(impl: DocumentsService, maxBodyBytes?: number) {
  const logged: string[] = [];
  const responses: ServerResponse[] = [];
  const handler = createDocumentsHandler(impl, {
    mtom: "always",
    ...(maxBodyBytes !== undefined && { maxBodyBytes }),
    logger: (m, e) => void logged.push(`${m}: ${String(e)}`),
  });
  const server = await listen((req, res) => {
    responses.push(res);
    void handler(req, res);
  });
  servers.push(server);
  return { url: new URL(`${server.url}/documents`), logged, responses };
}

describe("sending a package with a streamed attachment", () => {
  it("cancels the stream when the client goes away while the socket is full", async () => {
    let cancelled!: () => void;
    const cancel = new Promise<void>((resolve) => (cancelled = resolve));
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull: (c) => c.enqueue(new Uint8Array(64 * 1024).fill(65)),
        cancel: () => cancelled(),
      });
    const { url, responses } = await serve(serviceOf(endless));
    // A client that sends its request and never reads: the server's writes back up.
    const socket = connect(Number(url.port), url.hostname);
    socket.on("error", () => {});
    socket.pause();
    socket.write(
      `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n` +
        "Content-Type: text/xml; charset=utf-8\r\n" +
        'SOAPAction: "urn:wsdl-tsgen:documents/Download"\r\n' +
        `Content-Length: ${Buffer.byteLength(ENVELOPE)}\r\n\r\n${ENVELOPE}`,
    );
    await vi.waitFor(() => expect(responses[0]?.writableNeedDrain).toBe(true), {
      timeout: 10_000,
    });
    socket.destroy();
    await cancel;
  });

  it("closes the connection and logs a part that fails to read mid-answer", async () => {
    const failing = () => {
      let sent = false;
      return new ReadableStream<Uint8Array>({
        pull: (c) => {
          if (sent) return c.error(new Error("the disk went away"));
          sent = true;
          c.enqueue(new Uint8Array(4096).fill(66));
        },
      });
    };
    const { url, logged } = await serve(serviceOf(failing));
    const client = new DocumentsClient({ endpoint: url.href });
    await expect(client.download({ Id: "d1" })).rejects.toThrow();
    expect(logged).toEqual([
      expect.stringMatching(/Documents\.Download: an attachment failed.*the disk went away/),
    ]);
  });
});

describe("a client sending a package from a Blob", () => {
  it("sends it without fetch's tee, which would keep every chunk sent", async () => {
    // fetch clones a request whose redirects it may follow, and the clone tees a stream body:
    // the branch no one reads holds the whole upload in memory (200 MiB for 200 MiB).
    const tee = vi.spyOn(ReadableStream.prototype, "tee");
    const counting = sizeCounting();
    const { url } = await serve(counting.impl, 8 * 1024 * 1024);
    const client = new DocumentsClient({ endpoint: url.href, mtom: true });
    const content = new Blob([new Uint8Array(3 * 1024 * 1024).fill(7)]);
    try {
      await client.upload({ Name: "big", MediaType: "application/octet-stream", Content: content });
      expect(counting.received()).toBe(3 * 1024 * 1024);
      expect(tee).not.toHaveBeenCalled();
    } finally {
      tee.mockRestore();
    }
  });
});
