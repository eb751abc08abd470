/**
 * Child process of the MTOM benchmark (bench/mtom.ts), one role per process so that each one's peak
 * RSS is its own:
 *   server <always|never>: the documents fixture server, MTOM answers always or never; replies
 *     { port }, then { maxRss } whenever asked ("rss").
 *   client <mtom|inline|node-soap> <url> <bytes>: one round trip of a `bytes`-long document after a
 *     small warm-up: upload and download (ours, as MTOM or as inline base64), or download only
 *     (node-soap, of the document `big`, which the parent uploaded). Replies { uploadMs,
 *     downloadMs, growth }, growth being the peak RSS over the RSS before the round trip (the
 *     payload already made).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createDocumentsHandler,
  DocumentsClient,
  type DocumentsService,
} from "../generated-samples/documents/index.js";
import { exitWithParent, fail, gc, reply } from "./util.js";

const [role, mode, url, size] = process.argv.slice(2);
const maxRss = () => process.resourceUsage().maxRSS * 1024;

/** Bytes of every value (CRLFs, dashes and all), the same for a given length. */
export function payload(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 7 + (i >> 8)) & 0xff;
  return out;
}

function server(): void {
  const store = new Map<string, Uint8Array>();
  const info = (id: string, c: Uint8Array) => ({
    Id: id,
    Name: id,
    MediaType: "application/octet-stream",
    Size: c.byteLength,
    Created: "2026-01-01T00:00:00Z",
  });
  const impl: DocumentsService = {
    // A large upload is a Blob of a temporary file removed after the answer: kept in memory here,
    // as before (the streamed bench, mtom-stream-worker.ts, keeps it as a file).
    upload: async (input) => {
      const id = input.Name;
      const c = input.Content;
      const content = c instanceof Blob ? new Uint8Array(await c.arrayBuffer()) : c;
      store.set(id, content);
      return info(id, content);
    },
    download: (input) => ({
      Info: info(input.Id, store.get(input.Id)!),
      Content: store.get(input.Id)!,
    }),
    list: () => [],
  };
  const handler = createDocumentsHandler(impl, {
    mtom: mode as "always" | "never",
    maxBodyBytes: 1024 * 1024 * 1024,
  });
  const s = createServer(handler);
  exitWithParent(() => s.close());
  s.listen(0, "127.0.0.1", () => void reply({ port: (s.address() as AddressInfo).port }));
  process.on("message", () => {
    gc();
    void reply({ maxRss: maxRss() });
  });
}

async function ours(inline: boolean, bytes: Uint8Array): Promise<object> {
  const client = new DocumentsClient({
    endpoint: url!,
    mtom: !inline,
    maxResponseBytes: 1024 * 1024 * 1024,
  });
  const small = payload(4096);
  await client.upload({ Name: "warm", MediaType: "x", Content: small });
  await client.download({ Id: "warm" });
  gc();
  const before = process.memoryUsage().rss;
  const t0 = performance.now();
  await client.upload({ Name: "big", MediaType: "x", Content: bytes });
  const t1 = performance.now();
  const doc = await client.download({ Id: "big" });
  const t2 = performance.now();
  const growth = maxRss() - before;
  const c = doc.Content;
  const back = c instanceof Blob ? Buffer.from(await c.arrayBuffer()) : Buffer.from(c);
  if (!back.equals(Buffer.from(bytes))) fail("the document came back changed");
  return { uploadMs: t1 - t0, downloadMs: t2 - t1, growth };
}

/** node-soap's client, as far as this benchmark calls it. */
interface NodeSoapClient {
  DownloadAsync(input: { Id: string }): Promise<[{ DownloadResult: { Content: NodeSoapInclude } }]>;
  /** The parts of the last MTOM answer, which node-soap leaves to its caller. */
  readonly lastResponseAttachments?: {
    readonly parts: readonly { headers: Record<string, string>; body: Buffer }[];
  };
}

/** What node-soap reads an xop:Include as. */
interface NodeSoapInclude {
  readonly Include?: { readonly attributes?: { readonly href?: string } };
}

/** node-soap downloads the MTOM answer: its result, and the part its xop:Include names. */
async function nodeSoap(expected: Uint8Array): Promise<object> {
  const soap = await import("soap");
  // node-soap reads a multipart answer's parts only when asked (its option's spelling).
  const client = (await soap.createClientAsync(`${url}?WSDL`, {
    endpoint: url!,
    parseReponseAttachments: true,
  })) as unknown as NodeSoapClient;
  const download = async (id: string): Promise<Buffer | undefined> => {
    const [result] = await client.DownloadAsync({ Id: id });
    const href = result.DownloadResult.Content.Include?.attributes?.href ?? "";
    const cid = `<${decodeURIComponent(href.slice(4))}>`;
    return client.lastResponseAttachments?.parts.find((p) => p.headers["content-id"] === cid)?.body;
  };
  await download("warm");
  gc();
  const before = process.memoryUsage().rss;
  const t0 = performance.now();
  const body = await download("big");
  const t1 = performance.now();
  const growth = maxRss() - before;
  if (!body?.equals(expected)) fail("node-soap did not read the document as sent");
  return { uploadMs: 0, downloadMs: t1 - t0, growth };
}

if (role === "server") server();
else {
  const n = Number(size);
  const run = mode === "node-soap" ? nodeSoap(payload(n)) : ours(mode === "inline", payload(n));
  run.then(
    async (r) => {
      await reply(r);
      process.exit(0);
    },
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
