/**
 * Signatures over attachment parts that never sit whole in memory (issue 47): a client signs a
 * Blob part of a few MiB (MTOM and SwA, content and complete transforms) as it reads it; the
 * verifying handler spools the parts above its threshold and checks them from their files before
 * the implementation sees them; the client spools and checks signed answers alike. A spooled part
 * changed on the way, or added beside the signed ones, is refused, and no spooled file is left.
 */
import { createHash } from "node:crypto";
import { openAsBlob, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createDocumentsHandler,
  DocumentsClient,
  type DocumentsService,
} from "../../generated-samples/documents/index.js";
import {
  createScansHandler,
  ScansClient,
  type ScansService,
} from "../../generated-samples/swa/index.js";
import { releaseAttachments, SecurityRefusal, SoapFault } from "../../runtime/src/index.js";
import { x509Security, type X509SecurityOptions } from "../../runtime/src/wss/index.js";
import { binary, bytesOf } from "../support/binary.js";
import { listen, rejection, type Loopback } from "../support/loopback.js";
import { spoolDir } from "../support/spool-dir.js";
import { makeKeys, opensslMissing, type TestKeys } from "../support/wss-keys.js";
import { flipped, withExtraPart } from "./tamper.js";

/** Bytes as latin1 text, one character each. */
const latin1 = (b: Uint8Array) => Buffer.from(b).toString("latin1");

const missing = opensslMissing();
const SPOOL = 64 * 1024;
const big = binary(3 * 1024 * 1024 + 2, 31);
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const BIG = sha256(big);

const tmp = spoolDir(false);
/** The spool directories and files left under the test's temporary directory. */
const spooled = () => tmp.entries().filter((f) => f.startsWith("wsdl-tsgen-"));

/** What an implementation saw of a binary: Blob or bytes, and its sha256 (read in chunks). */
interface Seen {
  readonly kind: string;
  readonly sha: string;
}
async function seen(v: Uint8Array | Blob): Promise<Seen> {
  if (!(v instanceof Blob)) return { kind: "Uint8Array", sha: sha256(v) };
  const hash = createHash("sha256");
  for await (const c of v.stream() as unknown as AsyncIterable<Uint8Array>) hash.update(c);
  return { kind: "Blob", sha: hash.digest("hex") };
}

/** A fetch that changes the body received (read whole here: the test's memory, not the client's). */
const tampering =
  (change: (b: Buffer) => Buffer) =>
  async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const res = await fetch(url, init);
    const bytes = change(Buffer.from(await res.arrayBuffer()));
    return new Response(bytes, { status: res.status, headers: res.headers });
  };

describe.skipIf(missing !== undefined)("signatures over spooled and Blob parts", () => {
  let clientKeys: TestKeys;
  let serviceKeys: TestKeys;
  let documents: Loopback;
  let scans: Loopback;
  let blob: Blob;
  const uploads: Seen[] = [];
  const stored: Seen[] = [];

  const clientSecurity = (o: Partial<X509SecurityOptions> = {}) =>
    x509Security({
      sign: { key: clientKeys.key, cert: clientKeys.cert },
      verify: { trust: [serviceKeys.cert] },
      ...o,
    });

  const documentsImpl: DocumentsService = {
    async upload(input) {
      uploads.push(await seen(input.Content));
      const info = { Id: "d1", Name: input.Name, MediaType: input.MediaType };
      return { ...info, Size: 0, Created: "2026-11-29T00:00:00Z" };
    },
    download: (input) => ({
      Info: { Id: input.Id, Name: "n", MediaType: "m", Size: big.length, Created: "2026-11-29Z" },
      Content: big,
    }),
    list: () => [],
  };
  const scansImpl: ScansService = {
    async storeScan(input) {
      stored.push(await seen(input.scan));
      return { Id: "s1", Size: 0 };
    },
    fetchScan: () => ({ Title: "t", Pages: 1, scan: big, thumbnail: big.subarray(0, 16) }),
  };

  beforeAll(async () => {
    clientKeys = makeKeys("spool-client");
    serviceKeys = makeKeys("spool-service");
    const security = x509Security({
      sign: { key: serviceKeys.key, cert: serviceKeys.cert },
      verify: { trust: [clientKeys.cert] },
    });
    const options = { security, attachmentSpoolBytes: SPOOL, maxBodyBytes: 16 << 20 };
    documents = await listen(createDocumentsHandler(documentsImpl, { ...options, mtom: "auto" }));
    scans = await listen(createScansHandler(scansImpl, options));
    const source = join(tmp.path, "source.bin");
    writeFileSync(source, big);
    blob = await openAsBlob(source);
  });
  afterAll(async () => {
    await documents.close();
    await scans.close();
  });

  it.each(["DocumentsSoap", "DocumentsSoap12"] as const)(
    "%s: an MTOM Blob signed as read, spooled and verified by the handler; the signed answer spooled and verified",
    async (port) => {
      const client = new DocumentsClient({
        endpoint: `${documents.url}/documents`,
        port,
        mtom: true,
        security: clientSecurity(),
        attachmentSpoolBytes: SPOOL,
      });
      uploads.length = 0;
      await client.upload({ Name: "a", MediaType: "b", Content: blob });
      expect(uploads).toEqual([{ kind: "Blob", sha: BIG }]);
      const doc = await client.download({ Id: "d1" });
      expect(await seen(doc.Content)).toEqual({ kind: "Blob", sha: BIG });
      expect(spooled()).not.toEqual([]);
      expect(await releaseAttachments(doc)).toBe(1);
    },
  );

  it.each([false, true])(
    "SwA (signAttachmentHeaders %s): a Blob signed as read, spooled and verified both ways",
    async (complete) => {
      const client = new ScansClient({
        endpoint: `${scans.url}/scans`,
        security: clientSecurity({ signAttachmentHeaders: complete }),
        attachmentSpoolBytes: SPOOL,
      });
      stored.length = 0;
      await client.storeScan({ Title: "t", Pages: 1, scan: blob });
      expect(stored).toEqual([{ kind: "Blob", sha: BIG }]);
      const fetched = await client.fetchScan({ Id: "s1" });
      expect(await seen(fetched.scan)).toEqual({ kind: "Blob", sha: BIG });
      expect((await bytesOf(fetched.thumbnail)).equals(Buffer.from(big.subarray(0, 16)))).toBe(
        true,
      );
      expect(await releaseAttachments(fetched)).toBe(1);
    },
  );

  it("a signed answer whose spooled part was changed, or beside an unsigned part, is refused; no file is left", async () => {
    const options = { endpoint: `${scans.url}/scans`, attachmentSpoolBytes: SPOOL };
    const security = clientSecurity();
    const changed = new ScansClient({
      ...options,
      security,
      fetch: tampering((b) => flipped(b, big, 2 * SPOOL)),
    });
    const e = await rejection(changed.fetchScan({ Id: "s1" }), SecurityRefusal);
    expect([e.reason, e.message]).toEqual(["digest", "an attachment does not match its digest"]);
    const added = new ScansClient({
      ...options,
      security,
      fetch: tampering((b) => withExtraPart(b, latin1(binary(4 * SPOOL, 5)))),
    });
    const extra = await rejection(added.fetchScan({ Id: "s1" }), SecurityRefusal);
    expect([extra.reason, extra.message]).toEqual([
      "unsigned-attachment",
      "the attachment <extra@x> is not covered by the signature",
    ]);
    const mtom = new DocumentsClient({
      endpoint: `${documents.url}/documents`,
      mtom: true,
      security,
      attachmentSpoolBytes: SPOOL,
      fetch: tampering((b) => flipped(b, big, 2 * SPOOL)),
    });
    const m = await rejection(mtom.download({ Id: "d1" }), SecurityRefusal);
    expect([m.reason, m.message]).toEqual(["digest", "a signed part does not match its digest"]);
    // The client's spools removed with each refusal; the handler's once each answer was sent.
    await vi.waitFor(() => expect(spooled()).toEqual([]));
  });

  it("the handler refuses a spooled request part changed on the way, before the implementation sees it", async () => {
    stored.length = 0;
    // The request body (a stream of the Blob) is read here whole, and its part changed.
    const relay = async (url: string | URL | Request, init?: RequestInit) => {
      const body = Buffer.from(await new Response(init!.body as ReadableStream).arrayBuffer());
      const { duplex: _, ...rest } = init as RequestInit & { duplex?: string };
      return fetch(url, { ...rest, body: flipped(body, big, 2 * SPOOL) });
    };
    const client = new ScansClient({
      endpoint: `${scans.url}/scans`,
      security: clientSecurity(),
      fetch: relay,
    });
    const e = await rejection(client.storeScan({ Title: "t", Pages: 1, scan: blob }), SoapFault);
    expect(e.message).toContain("an attachment does not match its digest");
    expect(stored).toEqual([]);
    // The handler removes its spool once the answer is sent.
    await vi.waitFor(() => expect(spooled()).toEqual([]));
  });

  it("a ReadableStream part is not signed: an Error before anything is sent", async () => {
    let sent = 0;
    const client = new ScansClient({
      endpoint: `${scans.url}/scans`,
      security: clientSecurity(),
      fetch: async () => (sent++, new Response("", { status: 503 })),
    });
    const stream = new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(big), c.close()) });
    await expect(client.storeScan({ Title: "t", Pages: 1, scan: stream })).rejects.toThrow(
      /is a ReadableStream: a stream is read once.*expected a Blob \(fs\.openAsBlob\)/,
    );
    expect(sent).toBe(0);
  });
});
