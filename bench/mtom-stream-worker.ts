/**
 * Child process of the streamed MTOM benchmark (bench/mtom-stream.ts), one role per process so
 * that each one's peak RSS is its own:
 *   server: the documents service whose upload hashes the attachment's Blob as it reads it, and
 *     whose download answers with a stream of the same bytes made as they are sent; replies
 *     { port }, then { maxRss, sha256 } (of the last upload) whenever asked.
 *   client <url> <bytes>: uploads `bytes` made as they are sent (a ReadableStream), then downloads
 *     them (a Blob of a spooled file) and hashes that. Replies { uploadMs, downloadMs, cpuMs,
 *     growth, sent, received }, growth being the peak RSS over the RSS before the round trip.
 * A fourth argument `memory` makes either the in-memory path, the peer of the streamed one: no
 * spooling (attachmentSpoolBytes: Infinity), the upload a Uint8Array made before it is sent, the
 * download answered from one (`stream`: the streamed path).
 * With a fifth argument, the keys' directory (bench/wss.ts makeKeys: client.key, client.pem,
 * server.key, server.pem), both sides sign and verify (x509Security): the client writes the bytes
 * to a file first and uploads its Blob (a stream cannot be signed), the server keeps the upload in
 * a file of its own and answers the download with its Blob; the parts are hashed as read.
 */
import { createHash, type Hash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createDocumentsHandler,
  DocumentsClient,
  type DocumentsService,
} from "../generated-samples/documents/index.js";
import { releaseAttachments } from "@wsdl-tsgen/runtime";
import { x509Security } from "@wsdl-tsgen/runtime/wss";
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { exitWithParent, fail, gc, reply } from "./util.js";

const [role, url, size, mode, keys] = process.argv.slice(2);
const memory = mode === "memory";
const spool = memory ? { attachmentSpoolBytes: Infinity } : {};
const maxRss = () => process.resourceUsage().maxRSS * 1024;
const CHUNK = 64 * 1024;

/**
 * The pattern's bytes repeat every 64 KiB (`(i * 7 + (i >> 8)) & 0xff`). Each chunk handed out is a
 * copy of its own, as a file's reads are: one buffer sent again and again would hide a sender that
 * keeps what it sent (fetch's tee did, 2026-11-29, and the bench did not show it).
 */
const PATTERN = Uint8Array.from({ length: CHUNK }, (_, i) => (i * 7 + (i >> 8)) & 0xff);

/**
 * `n` bytes of every value given chunk by chunk as they are read, hashed into `hash` as they go.
 */
function generated(n: number, hash: Hash): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= n) return c.close();
      const out = PATTERN.slice(0, Math.min(CHUNK, n - at));
      at += out.length;
      hash.update(out);
      c.enqueue(out);
    },
  });
}

/** `n` bytes of `generated`'s in one Uint8Array, hashed into `hash`. */
function whole(n: number, hash: Hash): Uint8Array {
  const out = new Uint8Array(n);
  for (let at = 0; at < n; at += CHUNK) out.set(PATTERN.subarray(0, Math.min(CHUNK, n - at)), at);
  hash.update(out);
  return out;
}

/** The sha256 of a binary as received, read as a stream when it is a Blob. */
async function digest(v: Uint8Array | Blob): Promise<string> {
  const hash = createHash("sha256");
  if (v instanceof Uint8Array) return hash.update(v).digest("hex");
  for await (const c of v.stream() as unknown as AsyncIterable<Uint8Array>) hash.update(c);
  return hash.digest("hex");
}

/** `me` signing, the other side's certificate trusted; undefined for the unsigned run. */
function security(me: "client" | "server") {
  if (!keys) return undefined;
  const pem = (name: string) => readFileSync(join(keys, name), "utf8");
  const peer = me === "client" ? "server" : "client";
  return x509Security({
    sign: { key: pem(`${me}.key`), cert: pem(`${me}.pem`) },
    verify: { trust: [pem(`${peer}.pem`)] },
  });
}

/** A stream written to a new file of its own (in bounded memory); its path. */
async function toFile(stream: ReadableStream<Uint8Array>): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), "bench-mtom-signed-")), "content");
  await pipeline(Readable.fromWeb(stream as never), createWriteStream(path));
  return path;
}

function server(): void {
  let uploaded = "";
  let length = 0;
  let kept: string | undefined;
  const info = (id: string, n: number) => ({
    Id: id,
    Name: id,
    MediaType: "application/octet-stream",
    Size: n,
    Created: "2026-01-01T00:00:00Z",
  });
  const impl: DocumentsService = {
    upload: async (input) => {
      uploaded = await digest(input.Content);
      length = input.Content instanceof Blob ? input.Content.size : input.Content.byteLength;
      // Signed, the answer is a Blob (a stream cannot be signed): the upload kept in a file.
      const c = input.Content;
      if (keys) kept = await toFile((c instanceof Blob ? c : new Blob([c])).stream());
      return info(input.Name, length);
    },
    download: async (input) => ({
      Info: info(input.Id, length),
      Content: kept
        ? await openAsBlob(kept)
        : memory
          ? whole(length, createHash("sha256"))
          : generated(length, createHash("sha256")),
    }),
    list: () => [],
  };
  const handler = createDocumentsHandler(impl, {
    mtom: "always",
    maxBodyBytes: Number(size) + 1024 * 1024,
    ...spool,
    ...(keys && { security: security("server")! }),
  });
  const s = createServer(handler);
  exitWithParent(() => s.close());
  s.listen(0, "127.0.0.1", () => void reply({ port: (s.address() as AddressInfo).port }));
  process.on("message", () => {
    gc();
    void reply({ maxRss: maxRss(), sha256: uploaded });
  });
}

async function client(n: number): Promise<object> {
  const c = new DocumentsClient({
    endpoint: url!,
    mtom: true,
    maxResponseBytes: n + 1024 * 1024,
    ...spool,
    ...(keys && { security: security("client")! }),
  });
  const small = new Uint8Array(4096);
  await c.upload({ Name: "warm", MediaType: "x", Content: small });
  await releaseAttachments(await c.download({ Id: "warm" }));
  gc();
  const before = process.memoryUsage().rss;
  const sent = createHash("sha256");
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const content = keys
    ? await openAsBlob(await toFile(generated(n, sent)))
    : memory
      ? whole(n, sent)
      : generated(n, sent);
  await c.upload({ Name: "big", MediaType: "x", Content: content });
  const t1 = performance.now();
  const uploadGrowth = maxRss() - before;
  const doc = await c.download({ Id: "big" });
  const received = await digest(doc.Content);
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const growth = maxRss() - before;
  await releaseAttachments(doc);
  if (!memory && !(doc.Content instanceof Blob)) fail("the download was not spooled");
  if (memory && doc.Content instanceof Blob) fail("the in-memory download was spooled");
  return {
    uploadMs: t1 - t0,
    downloadMs: t2 - t1,
    cpuMs: (cpu.user + cpu.system) / 1000,
    growth,
    uploadGrowth,
    sent: sent.digest("hex"),
    received,
  };
}

if (role === "server") server();
else
  void client(Number(size))
    .then(reply)
    .then(
      () => process.exit(0),
      (e: unknown) => (console.error(e), process.exit(1)),
    );
