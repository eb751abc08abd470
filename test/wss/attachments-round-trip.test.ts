/**
 * `security` beside attachments, between our client and our server, both ways: MTOM requests and
 * answers signed over their XOP infoset, SwA parts signed by `cid:` references (their content, or
 * with their MIME headers when asked), each verified by the other side; a part changed on the way
 * refused by the client as by the server. A client whose security cannot sign parts refuses to
 * send them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentsClient } from "../../generated-samples/documents/index.js";
import { createScansHandler, ScansClient } from "../../generated-samples/swa/index.js";
import { SecurityRefusal, SoapFault, type Exchange } from "../../runtime/src/index.js";
import {
  signEnvelope,
  signer,
  x509Security,
  type X509SecurityOptions,
} from "../../runtime/src/wss/index.js";
import { binary, bytesOf } from "../support/binary.js";
import { listen, rejection, type Loopback } from "../support/loopback.js";
import { makeKeys, opensslMissing, type TestKeys } from "../support/wss-keys.js";
import { startDocuments, type DocumentsServer } from "../mtom/documents-server.js";
import { scansService, type StoredScan } from "../swa/scans-server.js";
import { flipped, withExtraPart } from "./tamper.js";

const missing = opensslMissing();

/** A fetch that changes what it carries: `request` the body sent, `response` the body received. */
function tampering(o: { request?: (b: Buffer) => Buffer; response?: (b: Buffer) => Buffer }) {
  return async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = init?.body;
    const changed = o.request && body instanceof Uint8Array ? o.request(Buffer.from(body)) : body;
    const res = await fetch(url, { ...init, ...(changed !== undefined && { body: changed }) });
    if (!o.response) return res;
    const bytes = o.response(Buffer.from(await res.arrayBuffer()));
    return new Response(bytes, { status: res.status, headers: res.headers });
  };
}

describe.skipIf(missing !== undefined)("security beside attachments, both ways", () => {
  let client: TestKeys;
  let service: TestKeys;
  let documents: DocumentsServer;
  let scans: Loopback;
  const scanned = new Map<string, StoredScan>();

  const clientSecurity = (o: Partial<X509SecurityOptions> = {}) =>
    x509Security({
      sign: { key: client.key, cert: client.cert },
      verify: { trust: [service.cert] },
      ...o,
    });

  beforeAll(async () => {
    client = makeKeys("mtom-client");
    service = makeKeys("mtom-service");
    const security = x509Security({
      sign: { key: service.key, cert: service.cert },
      verify: { trust: [client.cert] },
    });
    // "always", once refused beside a signing security, now signs its MTOM answers.
    documents = await startDocuments({ security, mtom: "always" });
    scans = await listen(createScansHandler(scansService(scanned), { security }));
  });
  afterAll(async () => {
    await documents.close();
    await scans.close();
  });

  it.each(["DocumentsSoap", "DocumentsSoap12"] as const)(
    "%s: an MTOM request signed and verified, and the signed MTOM answer verified",
    async (port) => {
      const exchanges: Exchange[] = [];
      const documentsClient = new DocumentsClient({
        endpoint: documents.url,
        port,
        mtom: true,
        security: clientSecurity(),
        trace: (e) => exchanges.push(e),
      });
      const content = binary(300_000, 11);
      const info = await documentsClient.upload({ Name: "a", MediaType: "b", Content: content });
      expect(exchanges[0]!.requestHeaders["Content-Type"]).toMatch(/^multipart\/related/);
      expect(exchanges[0]!.requestBody).toContain("<ds:Signature");
      expect(exchanges[0]!.requestBody).toMatch(/<Content><xop:Include [^>]*href="cid:/);
      const doc = await documentsClient.download({ Id: info.Id });
      expect(exchanges[1]!.response!.headers["content-type"]).toMatch(/^multipart\/related/);
      expect(exchanges[1]!.response!.body).toContain("<ds:Signature");
      expect((await bytesOf(doc.Content)).equals(Buffer.from(content))).toBe(true);
    },
  );

  it("the client refuses a signed MTOM answer whose part was changed on the way", async () => {
    const content = binary(4000, 12);
    const plain = new DocumentsClient({ endpoint: documents.url, security: clientSecurity() });
    const info = await plain.upload({ Name: "a", MediaType: "b", Content: content });
    const fetch = tampering({ response: (b) => flipped(b, content) });
    const documentsClient = new DocumentsClient({
      endpoint: documents.url,
      security: clientSecurity(),
      fetch,
    });
    const e = await rejection(documentsClient.download({ Id: info.Id }), SecurityRefusal);
    expect([e.reason, e.message]).toEqual(["digest", "a signed part does not match its digest"]);
  });

  it("SwA: a signed request's part verified; a signed answer's two parts verified", async () => {
    const exchanges: Exchange[] = [];
    const scansClient = new ScansClient({
      endpoint: `${scans.url}/scans`,
      security: clientSecurity(),
      trace: (e) => exchanges.push(e),
    });
    const scan = binary(20_000, 13);
    const stored = await scansClient.storeScan({ Title: "t", Pages: 2, scan });
    expect(exchanges[0]!.requestBody).toMatch(/<ds:Reference URI="cid:scan=0\.[^"]+">/);
    const fetched = await scansClient.fetchScan({ Id: stored.Id });
    expect(exchanges[1]!.response!.body).toMatch(/<ds:Reference URI="cid:thumbnail=1\.[^"]+">/);
    expect((await bytesOf(fetched.scan)).equals(Buffer.from(scan))).toBe(true);
    expect((await bytesOf(fetched.thumbnail)).equals(Buffer.from(scan.subarray(0, 16)))).toBe(true);
    // The answer's part changed on the way: the client refuses it.
    const fetch = tampering({ response: (b) => flipped(b, scan) });
    const tampered = new ScansClient({
      endpoint: `${scans.url}/scans`,
      security: clientSecurity(),
      fetch,
    });
    const e = await rejection(tampered.fetchScan({ Id: stored.Id }), SecurityRefusal);
    expect(e.message).toBe("an attachment does not match its digest");
    // A part added on the way, which nothing signed: refused too.
    const added = new ScansClient({
      endpoint: `${scans.url}/scans`,
      security: clientSecurity(),
      fetch: tampering({ response: (b) => withExtraPart(b) }),
    });
    const extra = await rejection(added.fetchScan({ Id: stored.Id }), SecurityRefusal);
    expect([extra.reason, extra.message]).toEqual([
      "unsigned-attachment",
      "the attachment <extra@x> is not covered by the signature",
    ]);
  });

  it("SwA with signAttachmentHeaders: the Attachment-Complete transform covers the part's type", async () => {
    const exchanges: Exchange[] = [];
    const options = { endpoint: `${scans.url}/scans`, trace: (e: Exchange) => exchanges.push(e) };
    const security = clientSecurity({ signAttachmentHeaders: true });
    await new ScansClient({ ...options, security }).storeScan({
      Title: "t",
      Pages: 1,
      scan: binary(100, 14),
    });
    expect(exchanges[0]!.requestBody).toContain("#Attachment-Complete-Signature-Transform");
    // The part's Content-Type changed on the way: its headers were signed, so it is refused.
    const retyped = (b: Buffer) =>
      Buffer.from(
        b.toString("latin1").replace("Content-Type: image/png", "Content-Type: image/gif"),
        "latin1",
      );
    const fetch = tampering({ request: retyped });
    const e = await rejection(
      new ScansClient({ ...options, security, fetch }).storeScan({
        Title: "t",
        Pages: 1,
        scan: binary(100, 15),
      }),
      SoapFault,
    );
    expect(e.message).toContain("an attachment does not match its digest");
  });

  it("a client whose security cannot sign parts refuses to send them, before anything is sent", async () => {
    const exchanges: Exchange[] = [];
    const scansClient = new ScansClient({
      endpoint: `${scans.url}/scans`,
      security: { secureRequest: (xml) => xml },
      trace: (e) => exchanges.push(e),
    });
    await expect(
      scansClient.storeScan({ Title: "t", Pages: 1, scan: binary(9, 1) }),
    ).rejects.toThrow(/security does not sign attachment parts/);
    expect(exchanges).toHaveLength(0);
  });

  it("a signer refuses a part included from an element it does not sign", () => {
    const XOP = "http://www.w3.org/2004/08/xop/include";
    const xml =
      '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header>' +
      `<Blob xmlns="urn:x"><xop:Include xmlns:xop="${XOP}" href="cid:a@x"/></Blob></s:Header>` +
      "<s:Body><Ping xmlns='urn:x'/></s:Body></s:Envelope>";
    const part = { id: "a@x", headers: {}, content: binary(10, 2) };
    const s = signer({ key: client.key, cert: client.cert });
    expect(() => signEnvelope(xml, s, {}, {}, [part])).toThrow(
      /the attachment part <a@x> is included from an element the signature does not cover/,
    );
    // Signed with its header entry, it is covered by that entry's digest.
    const signed = signEnvelope(xml, s, { signedHeaders: [{ ns: "urn:x", local: "Blob" }] }, {}, [
      part,
    ]);
    expect(signed.match(/<ds:Reference /g)).toHaveLength(3);
    expect(signed).not.toContain('URI="cid:');
  });
});
