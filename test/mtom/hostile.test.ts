/**
 * Hostile MTOM packages, to our server and from a server to our client: each refused with a clear
 * fault or error, never a crash, a stack trace or an unbounded buffer.
 */
import { bytesOf } from "../support/binary.js";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentsClient } from "../../generated-samples/documents/index.js";
import { ResponseFormatError, TransportError } from "../../runtime/src/index.js";
import { startDocuments, type DocumentsServer } from "./documents-server.js";

const XOP = "http://www.w3.org/2004/08/xop/include";
const B = "b0undary";

/** A multipart/related body: each part its headers and content, between `B` delimiters. */
function multipart(parts: readonly [string, string | Buffer][], close = true): Buffer {
  const chunks: Buffer[] = [];
  parts.forEach(([headers, content], i) => {
    chunks.push(Buffer.from(`${i === 0 ? "" : "\r\n"}--${B}\r\n${headers}\r\n\r\n`, "latin1"));
    chunks.push(typeof content === "string" ? Buffer.from(content) : content);
  });
  if (close) chunks.push(Buffer.from(`\r\n--${B}--\r\n`));
  return Buffer.concat(chunks);
}

const ROOT = `Content-Type: application/xop+xml; charset=utf-8; type="text/xml"\r\nContent-ID: <root>`;
const part = (id: string) => `Content-Type: application/octet-stream\r\nContent-ID: <${id}>`;
const include = (id: string) => `<xop:Include xmlns:xop="${XOP}" href="cid:${id}"/>`;
const CT = `multipart/related; type="application/xop+xml"; boundary="${B}"; start="<root>"; start-info="text/xml"`;

function uploadEnvelope(content: string, thumbnail = ""): string {
  return (
    `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>` +
    `<Upload xmlns="urn:wsdl-tsgen:documents"><Name>n</Name><MediaType>m</MediaType>` +
    `<Content>${content}</Content>${thumbnail && `<Thumbnail>${thumbnail}</Thumbnail>`}</Upload>` +
    `</s:Body></s:Envelope>`
  );
}

/** Every way to get a package wrong, and the words its refusal must hold. */
const CASES: readonly { name: string; body: Buffer; says: RegExp; upload?: true }[] = [
  {
    name: "a malformed multipart (no close delimiter)",
    body: multipart(
      [
        [ROOT, uploadEnvelope(include("a"))],
        [part("a"), "xyz"],
      ],
      false,
    ),
    says: /ends inside a part, before its close delimiter/,
  },
  {
    name: "a missing root part (start names none)",
    body: multipart([[part("a"), "xyz"]]),
    says: /no part has the Content-ID <root> that start names/,
  },
  {
    name: "a part referenced twice",
    body: multipart([
      [ROOT, uploadEnvelope(include("a"), include("a"))],
      [part("a"), "xyz"],
    ]),
    says: /names a part included already/,
  },
  {
    name: "a cid: that points nowhere",
    body: multipart([
      [ROOT, uploadEnvelope(include("nowhere"))],
      [part("a"), "xyz"],
    ]),
    says: /xop:Include href "cid:nowhere" names no part of the message/,
  },
  {
    name: "a boundary inside data",
    body: multipart([
      [ROOT, uploadEnvelope(include("a"))],
      [part("a"), `x\r\n--${B}junk\r\nmore`],
    ]),
    says: /the boundary appears inside a part's data/,
  },
  {
    name: "two parts with one Content-ID",
    body: multipart([
      [ROOT, uploadEnvelope(include("a"))],
      [part("a"), "x"],
      [part("a"), "y"],
    ]),
    says: /two parts have the Content-ID <a>/,
  },
  {
    name: "an xop:Include beside text",
    body: multipart([
      [ROOT, uploadEnvelope("QUJD" + include("a"))],
      [part("a"), "x"],
    ]),
    says: /holds more than its xop:Include/,
  },
  {
    name: "an xop:Include in an element that is not base64Binary",
    body: multipart([
      [
        ROOT,
        uploadEnvelope(include("a")).replace("<Name>n</Name>", `<Name>${include("b")}</Name>`),
      ],
      [part("a"), "x"],
      [part("b"), "y"],
    ]),
    says: /only a base64Binary value may be an xop:Include/,
    // In Upload's Name: the responses made of these cases hold Download's elements only.
    upload: true,
  },
  {
    name: "an unsupported Content-Transfer-Encoding",
    body: multipart([
      [ROOT, uploadEnvelope(include("a"))],
      [`${part("a")}\r\nContent-Transfer-Encoding: quoted-printable`, "x"],
    ]),
    says: /Content-Transfer-Encoding 'quoted-printable' is not supported/,
  },
  {
    name: "a base64 part that is not base64",
    body: multipart([
      [ROOT, uploadEnvelope(include("a"))],
      [`${part("a")}\r\nContent-Transfer-Encoding: base64`, "eHl6\r\n*g=="],
    ]),
    says: /part's base64 content is malformed: byte 0x2a is not base64/,
  },
  {
    name: "an href that is no cid: URL",
    body: multipart([
      [ROOT, uploadEnvelope(include("a").replace("cid:a", "http://x/a"))],
      [part("a"), "x"],
    ]),
    says: /is not a cid: URL/,
  },
];

describe("the server refuses hostile MTOM requests with a Client fault", () => {
  let server: DocumentsServer;
  beforeAll(async () => {
    server = await startDocuments({ maxBodyBytes: 64 * 1024, maxAttachmentBytes: 1000 });
  });
  afterAll(() => server.close());

  const post = (body: Buffer, contentType = CT) =>
    fetch(server.url, {
      method: "POST",
      headers: { "Content-Type": contentType, SOAPAction: '"urn:wsdl-tsgen:documents/Upload"' },
      body,
    });

  it.each(CASES)("$name", async ({ body, says }) => {
    const res = await post(body);
    const text = (await res.text()).replace(/&lt;/g, "<").replace(/&gt;/g, ">");
    expect([400, 500]).toContain(res.status);
    expect(text).toContain("<faultcode>soap:Client</faultcode>");
    expect(text).toMatch(says);
    expect(text).not.toMatch(/at .*\.ts:\d+/);
    expect(server.store.size).toBe(0);
  });

  it("takes a well-formed package (the cases above are refused for what they break)", async () => {
    const res = await post(
      multipart([
        [ROOT, uploadEnvelope(include("a%40b"))],
        [part("a@b"), "xyz"],
      ]),
    );
    expect(res.status).toBe(200);
    expect(Buffer.from(server.store.get("d1")!.content).toString()).toBe("xyz");
    // A part in base64 (RFC 2045), its Content-ID without angle brackets.
    const encoded = `Content-Type: application/octet-stream\r\nContent-ID: c@d\r\nContent-Transfer-Encoding: base64`;
    const res2 = await post(
      multipart([
        [ROOT, uploadEnvelope(include("c@d"))],
        [encoded, "eHl6\r\neg=="],
      ]),
    );
    expect(res2.status).toBe(200);
    expect(Buffer.from(server.store.get("d2")!.content).toString()).toBe("xyzz");
    server.store.clear();
  });

  it("refuses an attachment over maxAttachmentBytes, and counts attachments in maxBodyBytes", async () => {
    const big = multipart([
      [ROOT, uploadEnvelope(include("a"))],
      [part("a"), Buffer.alloc(1001)],
    ]);
    const res = await post(big);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/a part is larger than 1000 bytes/);
    const huge = multipart([
      [ROOT, uploadEnvelope(include("a"))],
      [part("a"), Buffer.alloc(70_000)],
    ]);
    const over = await post(huge);
    expect(over.status).toBe(413);
    await over.text();
  });

  it("refuses a package without a boundary", async () => {
    const res = await post(
      multipart([[ROOT, uploadEnvelope("")]]),
      'multipart/related; type="application/xop+xml"',
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/has no boundary/);
  });
});

describe("the client refuses hostile MTOM responses with a ResponseFormatError", () => {
  let raw: Server;
  let url = "";
  let answer: Buffer = Buffer.alloc(0);
  beforeAll(async () => {
    raw = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "Content-Type": CT.replace("text/xml", "text/xml") });
        res.end(answer);
      });
    });
    await new Promise<void>((r) => raw.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/documents`;
  });
  afterAll(() => new Promise<void>((r) => raw.close(() => r())));

  const downloadEnvelope = (content: string, thumbnail = "") =>
    `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>` +
    `<DownloadResponse xmlns="urn:wsdl-tsgen:documents"><DownloadResult><Info><Id>d1</Id><Name>n</Name>` +
    `<MediaType>m</MediaType><Size>3</Size><Created>2026-01-01T00:00:00Z</Created></Info>` +
    `<Content>${content}</Content>${thumbnail && `<Thumbnail>${thumbnail}</Thumbnail>`}</DownloadResult>` +
    `</DownloadResponse></s:Body></s:Envelope>`;

  it.each(CASES.filter((c) => !c.upload))("$name", async ({ body, says }) => {
    // The same package, its envelope a response.
    answer = Buffer.from(
      body
        .toString("latin1")
        .replace(/<Upload xmlns[^]*<\/Upload>/, (m) =>
          downloadEnvelope(
            m.match(/<Content>([^]*?)<\/Content>/)![1]!,
            m.match(/<Thumbnail>([^]*?)<\/Thumbnail>/)?.[1] ?? "",
          ).replace(/^.*<s:Body>|<\/s:Body>.*$/g, ""),
        ),
      "latin1",
    );
    const client = new DocumentsClient({ endpoint: url, maxAttachmentBytes: 1000 });
    const e = await client.download({ Id: "d1" }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ResponseFormatError);
    expect((e as Error).message).toMatch(says);
  });

  it("reads the well-formed package, and refuses an attachment over maxAttachmentBytes", async () => {
    answer = multipart([
      [ROOT, downloadEnvelope(include("a"))],
      [part("a"), "xyz"],
    ]);
    const ok = await new DocumentsClient({ endpoint: url }).download({ Id: "d1" });
    expect((await bytesOf(ok.Content)).toString()).toBe("xyz");
    answer = multipart([
      [ROOT, downloadEnvelope(include("a"))],
      [part("a"), Buffer.alloc(2000)],
    ]);
    const client = new DocumentsClient({ endpoint: url, maxAttachmentBytes: 1000 });
    const e = await client.download({ Id: "d1" }).catch((x: unknown) => x);
    expect((e as Error).message).toMatch(/a part is larger than 1000 bytes/);
    const small = new DocumentsClient({ endpoint: url, maxResponseBytes: 1500 });
    expect(await small.download({ Id: "d1" }).catch((x: unknown) => x)).toBeInstanceOf(
      TransportError,
    );
  });
});
