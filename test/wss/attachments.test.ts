/**
 * Attachments under a signature (issue 42, R2): a verifying handler refuses an MTOM or SwA part
 * that was swapped after signing, and a part the signature does not cover at all; the genuine
 * message, sent after them, still passes (so a refused forgery does not burn it as a replay). The
 * packages are built here by hand, as an attacker relays them.
 */
import { X509Certificate } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScansHandler } from "../../generated-samples/swa/index.js";
import type { MessagePart } from "../../runtime/src/soap/message-security.js";
import { signEnvelope, signer, x509Security } from "../../runtime/src/wss/index.js";
import { binary } from "../support/binary.js";
import { listen, type Loopback } from "../support/loopback.js";
import { makeKeys, opensslMissing, type TestKeys } from "../support/wss-keys.js";
import {
  startDocuments,
  type DocumentsServer,
  type StoredDocument,
} from "../mtom/documents-server.js";
import { scansService, type StoredScan } from "../swa/scans-server.js";

const missing = opensslMissing();
const XOP = "http://www.w3.org/2004/08/xop/include";
const B = "b0undary";

/** A multipart/related body: each part its header lines and content, between `B` delimiters. */
function multipart(parts: readonly [string, string | Uint8Array][]): Buffer {
  const chunks: Buffer[] = [];
  parts.forEach(([headers, content], i) => {
    chunks.push(Buffer.from(`${i === 0 ? "" : "\r\n"}--${B}\r\n${headers}\r\n\r\n`, "latin1"));
    chunks.push(Buffer.from(content));
  });
  chunks.push(Buffer.from(`\r\n--${B}--\r\n`));
  return Buffer.concat(chunks);
}

/** A part as security signs it: the headers it is sent with, names in lower case. */
const messagePart = (id: string, type: string, content: Uint8Array): MessagePart => ({
  id,
  headers: { "content-type": type, "content-id": `<${id}>` },
  content,
});
const headerLines = (p: MessagePart): string =>
  `Content-Type: ${p.headers["content-type"]}\r\nContent-ID: ${p.headers["content-id"]}`;

const include = (id: string) => `<xop:Include xmlns:xop="${XOP}" href="cid:${id}"/>`;
const uploadEnvelope = (content: string): string =>
  `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>` +
  `<Upload xmlns="urn:wsdl-tsgen:documents"><Name>n</Name><MediaType>m</MediaType>` +
  `<Content>${content}</Content></Upload></s:Body></s:Envelope>`;
const scanEnvelope =
  '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
  '<ScanInfo xmlns="urn:wsdl-tsgen:scans"><Title>t</Title><Pages>1</Pages></ScanInfo>' +
  "</soap:Body></soap:Envelope>";

const MTOM_ROOT = `Content-Type: application/xop+xml; charset=utf-8; type="text/xml"\r\nContent-ID: <root>`;
const MTOM_CT = `multipart/related; type="application/xop+xml"; boundary="${B}"; start="<root>"; start-info="text/xml"`;
const SWA_ROOT = "Content-Type: text/xml; charset=utf-8\r\nContent-ID: <root>";
const SWA_CT = `multipart/related; type="text/xml"; boundary="${B}"; start="<root>"`;

async function post(url: string, type: string, action: string, body: Buffer) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": type, SOAPAction: `"${action}"` },
    body,
  });
  return { status: res.status, text: await res.text() };
}

describe.skipIf(missing !== undefined)("a verifying handler and attachments", () => {
  let keys: TestKeys;
  let documents: DocumentsServer;
  let scans: Loopback;
  const stored = new Map<string, StoredDocument>();
  const scanned = new Map<string, StoredScan>();
  const signers: (X509Certificate | undefined)[] = [];

  beforeAll(async () => {
    keys = makeKeys("attacher");
    const security = x509Security({ verify: { trust: [keys.cert] } });
    documents = await startDocuments({ security }, stored);
    const service = scansService(scanned);
    scans = await listen(
      createScansHandler(
        {
          storeScan: (input, ctx) => (signers.push(ctx.signer), service.storeScan(input, ctx)),
          fetchScan: service.fetchScan,
        },
        { security },
      ),
    );
  });
  afterAll(async () => {
    await documents.close();
    await scans.close();
  });

  const sign = (xml: string, parts: readonly MessagePart[]): string =>
    x509Security({ sign: { key: keys.key, cert: keys.cert } }).secureRequest(
      xml,
      "1.1",
      parts,
    ) as string;

  /** A signed Upload whose Content is an attachment `a`, and the same with `a` swapped. */
  function mtomUpload(content: Uint8Array, swapped: Uint8Array) {
    const a = messagePart("a@x", "application/octet-stream", content);
    const xml = sign(uploadEnvelope(include("a@x")), [a]);
    const body = (bytes: Uint8Array) =>
      multipart([
        [MTOM_ROOT, xml],
        [headerLines(a), bytes],
      ]);
    return { genuine: body(content), forged: body(swapped), xml, a };
  }
  const uploadTo = (body: Buffer) =>
    post(documents.url, MTOM_CT, "urn:wsdl-tsgen:documents/Upload", body);

  it("refuses a swapped MTOM part (it got 200), then takes the genuine message", async () => {
    const content = binary(5000, 3);
    const { genuine, forged } = mtomUpload(content, binary(5000, 4));
    const before = stored.size;
    const refused = await uploadTo(forged);
    expect(refused.status).toBe(500);
    expect(refused.text).toContain("<faultcode>soap:Client</faultcode>");
    expect(refused.text).toContain("a signed part does not match its digest");
    expect(stored.size).toBe(before);
    const taken = await uploadTo(genuine);
    expect(taken.status).toBe(200);
    const last = [...stored.values()].at(-1)!;
    expect(Buffer.from(last.content).equals(Buffer.from(content))).toBe(true);
  });

  it("refuses an MTOM request with an extra part the signature does not cover", async () => {
    const { xml, a } = mtomUpload(binary(3000, 5), binary(3000, 5));
    const extra = messagePart("b@x", "application/octet-stream", binary(10, 6));
    const body = multipart([
      [MTOM_ROOT, xml],
      [headerLines(a), a.content as Uint8Array],
      [headerLines(extra), extra.content as Uint8Array],
    ]);
    const refused = await uploadTo(body);
    expect(refused.status).toBe(500);
    expect(refused.text).toContain("the attachment &lt;b@x&gt; is not covered by the signature");
  });

  it("refuses parts a handler's own security cannot check, whatever it says of the envelope", async () => {
    const blind = {
      checkRequest: () => ({ signer: new X509Certificate(keys.cert) }),
      understands: () => true,
    };
    const server = await startDocuments({ security: blind });
    try {
      const { genuine } = mtomUpload(binary(2000, 10), binary(2000, 10));
      const res = await post(server.url, MTOM_CT, "urn:wsdl-tsgen:documents/Upload", genuine);
      expect(res.status).toBe(500);
      expect(res.text).toContain("could not be verified: its attachments cannot be checked");
      expect(server.store.size).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("does not send answer parts its own security cannot sign: a server fault, logged", async () => {
    const logged: string[] = [];
    const store = new Map<string, StoredScan>([
      ["s1", { title: "t", pages: 1, scan: binary(20, 1) }],
    ]);
    const signing = {
      checkRequest: () => ({}),
      secureResponse: (xml: string) => xml,
      understands: () => false,
    };
    const server = await listen(
      createScansHandler(scansService(store), {
        security: signing,
        logger: (m) => logged.push(m),
      }),
    );
    try {
      const body =
        '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
        '<ScanId xmlns="urn:wsdl-tsgen:scans"><Id>s1</Id></ScanId></soap:Body></soap:Envelope>';
      const res = await fetch(`${server.url}/scans`, {
        method: "POST",
        headers: { "Content-Type": "text/xml", SOAPAction: '"urn:wsdl-tsgen:scans/FetchScan"' },
        body,
      });
      expect(res.status).toBe(500);
      expect(await res.text()).toContain("<faultcode>soap:Server</faultcode>");
      expect(logged.join()).toContain("its answer could not be secured");
    } finally {
      await server.close();
    }
  });

  /** A signed StoreScan with its scan part, and the same with the part swapped. */
  function swaStore(scan: Uint8Array, swapped: Uint8Array, extra: MessagePart[] = []) {
    const part = messagePart("scan=0@x", "image/png", scan);
    const xml = sign(scanEnvelope, [part]);
    const body = (bytes: Uint8Array) =>
      multipart([
        [SWA_ROOT, xml],
        [headerLines(part), bytes],
        ...extra.map((p): [string, Uint8Array] => [headerLines(p), p.content as Uint8Array]),
      ]);
    return { genuine: body(scan), forged: body(swapped), xml };
  }
  const storeTo = (body: Buffer) =>
    post(`${scans.url}/scans`, SWA_CT, "urn:wsdl-tsgen:scans/StoreScan", body);

  it("refuses a swapped SwA part (it got 200), then takes the genuine message", async () => {
    const scan = binary(2000, 7);
    const { genuine, forged, xml } = swaStore(scan, binary(2000, 8));
    const before = scanned.size;
    const refused = await storeTo(forged);
    expect(refused.status).toBe(500);
    expect(refused.text).toContain("an attachment does not match its digest");
    expect(xml).toContain('URI="cid:scan=0@x"');
    expect(xml).toContain("oasis-wss-SwAProfile-1.1#Attachment-Content-Signature-Transform");
    expect(scanned.size).toBe(before);
    const taken = await storeTo(genuine);
    expect(taken.status, taken.text).toBe(200);
    expect(Buffer.from([...scanned.values()].at(-1)!.scan).equals(Buffer.from(scan))).toBe(true);
    expect(signers.at(-1)?.fingerprint256).toBe(new X509Certificate(keys.cert).fingerprint256);
  });

  it("refuses an unsigned extra SwA part, and a signed envelope whose part it does not sign", async () => {
    const extra = messagePart("photo=1@x", "image/jpeg", binary(50, 9));
    const { genuine } = swaStore(binary(100, 9), binary(100, 9), [extra]);
    const refused = await storeTo(genuine);
    expect(refused.status).toBe(500);
    expect(refused.text).toContain("the attachment &lt;photo=1@x&gt; is not covered");
    // Signed as before attachments were: the Body and Timestamp only.
    const s = signer({ key: keys.key, cert: keys.cert });
    const bare = multipart([
      [SWA_ROOT, signEnvelope(scanEnvelope, s)],
      [headerLines(messagePart("scan=0@x", "image/png", binary(5, 1))), binary(5, 1)],
    ]);
    const unsigned = await storeTo(bare);
    expect(unsigned.status).toBe(500);
    expect(unsigned.text).toContain("the attachment &lt;scan=0@x&gt; is not covered");
  });
});
