/**
 * Attachments as files and streams between our client and our server on loopback: a large part
 * received is a Blob of a temporary file, a part sent may be a Blob or a ReadableStream, and the
 * temporary files are gone once the request or the call is over, whether it succeeded or failed.
 */
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createDocumentsHandler,
  DocumentsClient,
  type DocumentsService,
} from "../../generated-samples/documents/index.js";
import {
  releaseAttachments,
  ResponseFormatError,
  SoapFault,
  TransportError,
} from "../../runtime/src/index.js";
import { binary, bytesOf } from "../support/binary.js";
import { listen, type Loopback } from "../support/loopback.js";
import { spoolDir } from "../support/spool-dir.js";

const MiB = 1024 * 1024;
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const big = binary(3 * MiB + 3, 7);
const BIG = sha256(big);

const tmp = spoolDir(false);
/** The spooled files under the test's temporary directory. */
const files = () => tmp.entries().filter((f) => f.includes("/"));
const gone = () => vi.waitFor(() => expect(readdirSync(tmp.path)).toEqual([]));

/** A stream of `bytes` in 64 KiB chunks, read as it is sent. */
const streamOf = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += 65536) c.enqueue(bytes.subarray(i, i + 65536));
      c.close();
    },
  });

/** What the server's implementation saw of the last upload. */
let seen: { kind: string; sha: string } | undefined;
let failUpload = false;
/** What download answers with: bytes, a Blob or a stream of `big`, or a small binary. */
let answer: "bytes" | "blob" | "stream" | "small" = "bytes";

const impl: DocumentsService = {
  async upload(input) {
    const c = input.Content;
    const bytes = await bytesOf(c);
    seen = { kind: c instanceof Blob ? "Blob" : "Uint8Array", sha: sha256(bytes) };
    if (failUpload) throw new Error("the implementation fails");
    return {
      Id: "d1",
      Name: input.Name,
      MediaType: input.MediaType,
      Size: bytes.length,
      Created: "2026-11-29T00:00:00Z",
    };
  },
  download() {
    const Content =
      answer === "small"
        ? binary(100, 1)
        : answer === "blob"
          ? new Blob([big])
          : answer === "stream"
            ? streamOf(big)
            : big;
    return {
      Info: {
        Id: "d1",
        Name: "n",
        MediaType: "m",
        Size: big.length,
        Created: "2026-11-29T00:00:00Z",
      },
      Content,
    };
  },
  list: () => [],
};

let server: Loopback;
let url: string;
beforeAll(async () => {
  const handler = createDocumentsHandler(impl, {
    maxBodyBytes: 64 * MiB,
    maxAttachmentBytes: 8 * MiB,
    logger: () => {},
  });
  server = await listen(handler);
  url = `${server.url}/documents`;
});
afterAll(() => server.close());

describe.each(["DocumentsSoap", "DocumentsSoap12"] as const)("over %s", (port) => {
  const client = () => new DocumentsClient({ endpoint: url, port, mtom: true });

  it.each([
    ["a Uint8Array", () => big],
    ["a Blob", () => new Blob([big])],
    ["a ReadableStream (sent chunked)", () => streamOf(big)],
  ])(
    "sends %s; the server has a Blob of equal bytes, its file gone after the answer",
    async (_, content) => {
      await client().upload({ Name: "n", MediaType: "m", Content: content() });
      expect(seen).toEqual({ kind: "Blob", sha: BIG });
      await gone();
    },
  );

  it("gives a part under the threshold as a Uint8Array, spooling nothing", async () => {
    await client().upload({ Name: "n", MediaType: "m", Content: binary(MiB - 1, 2) });
    expect(seen?.kind).toBe("Uint8Array");
    answer = "small";
    const doc = await client().download({ Id: "d1" });
    expect(doc.Content).toBeInstanceOf(Uint8Array);
    expect(readdirSync(tmp.path)).toEqual([]);
  });

  it.each(["bytes", "blob", "stream"] as const)(
    "reads a large answer sent as %s into a Blob that lives until releaseAttachments",
    async (form) => {
      answer = form;
      const doc = await client().download({ Id: "d1" });
      expect(doc.Content).toBeInstanceOf(Blob);
      expect(sha256(await bytesOf(doc.Content))).toBe(BIG);
      expect(files()).toHaveLength(1);
      expect(await releaseAttachments(doc)).toBe(1);
      expect(readdirSync(tmp.path)).toEqual([]);
    },
  );

  it("removes the request's files when the implementation throws", async () => {
    failUpload = true;
    try {
      const up = client().upload({ Name: "n", MediaType: "m", Content: big });
      await expect(up).rejects.toBeInstanceOf(SoapFault);
      expect(seen?.kind).toBe("Blob");
    } finally {
      failUpload = false;
    }
    await gone();
  });
});

/** Posts a raw multipart body to the server; resolves with the status and the answer's text. */
async function post(body: Blob, contentType: string) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": contentType, SOAPAction: '"urn:wsdl-tsgen:documents/Upload"' },
    body,
    duplex: "half",
  } as RequestInit);
  return { status: res.status, text: await res.text() };
}

const B = "b0undary";
const CT = `multipart/related; type="application/xop+xml"; boundary="${B}"; start="<root>"; start-info="text/xml"`;
const ROOT =
  `--${B}\r\nContent-Type: application/xop+xml; type="text/xml"\r\nContent-ID: <root>\r\n\r\n` +
  `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><Upload xmlns="urn:wsdl-tsgen:documents">` +
  `<Name>n</Name><MediaType>m</MediaType><Content><xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include" href="cid:a"/></Content>` +
  `</Upload></s:Body></s:Envelope>\r\n--${B}\r\nContent-Type: application/octet-stream\r\nContent-ID: <a>\r\n\r\n`;

describe("the server, on a request that fails mid-body", () => {
  it("answers a package cut short (no close delimiter) with a fault, its spooled file gone", async () => {
    const r = await post(new Blob([ROOT, big]), CT);
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/ends inside a part, before its close delimiter/);
    await gone();
  });

  it("answers a part over maxAttachmentBytes with a fault, its spooled file gone", async () => {
    const r = await post(new Blob([ROOT, binary(9 * MiB, 3), `\r\n--${B}--\r\n`]), CT);
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/larger than 8388608 bytes/);
    await gone();
  });

  it("removes the files of a request whose client goes away mid-body", async () => {
    const req = request(`${url}`, {
      method: "POST",
      headers: { "Content-Type": CT, "Content-Length": String(64 * MiB) },
    });
    req.on("error", () => {});
    req.write(ROOT);
    req.write(big);
    await vi.waitFor(() => expect(files()).toHaveLength(1));
    req.destroy();
    await gone();
  });
});

describe("the client, on an answer that fails mid-body", () => {
  let raw: Loopback;
  let cut: "malformed" | "hang" = "malformed";
  beforeAll(async () => {
    raw = await listen((_, res) => {
      res.writeHead(200, { "Content-Type": CT });
      res.write(ROOT.replace("Upload", "DownloadResponse"));
      res.write(big);
      if (cut === "malformed") res.end();
      // "hang": the rest never comes.
    });
  });
  afterAll(() => raw.close());

  it("rejects an answer cut short, its spooled file gone", async () => {
    const c = new DocumentsClient({ endpoint: raw.url });
    await expect(c.download({ Id: "d1" })).rejects.toBeInstanceOf(ResponseFormatError);
    expect(readdirSync(tmp.path)).toEqual([]);
  });

  it("fails with the spool's error, not as a bad answer, when it cannot make files", async () => {
    cut = "malformed";
    const before = process.env["TMPDIR"];
    process.env["TMPDIR"] = join(tmp.path, "missing");
    try {
      const c = new DocumentsClient({ endpoint: raw.url });
      const e = await c.download({ Id: "d1" }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(TransportError);
      expect((e as TransportError).cause).toMatchObject({ code: "ENOENT", syscall: "mkdtemp" });
    } finally {
      process.env["TMPDIR"] = before;
    }
    expect(readdirSync(tmp.path)).toEqual([]);
  });

  it("removes the files of a call aborted mid-answer", async () => {
    cut = "hang";
    const abort = new AbortController();
    const c = new DocumentsClient({ endpoint: raw.url });
    const call = c.download({ Id: "d1" }, { signal: abort.signal });
    await vi.waitFor(() => expect(files()).toHaveLength(1));
    abort.abort();
    await expect(call).rejects.toThrow();
    expect(readdirSync(tmp.path)).toEqual([]);
  });
});
