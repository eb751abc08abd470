/**
 * An HTTP GET call answered with a multipart/related package: its spooled attachment files are
 * removed when the answer fails or its result holds none of them, as a SOAP call's are.
 */
import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentsDesc } from "../../generated-samples/documents/descriptors.js";
import { HttpBindingError, releaseAttachments, type ServiceDesc } from "../../runtime/src/index.js";
import { ServiceClient } from "../../runtime/src/internal.js";
import { listen, type Loopback } from "../support/loopback.js";
import { spoolDir } from "../support/spool-dir.js";

const tmp = spoolDir(true);

/** The documents service with an HTTP GET port for Download (its SOAP port makes it spool). */
const desc: ServiceDesc = {
  ...DocumentsDesc,
  ports: {
    ...DocumentsDesc.ports,
    DocumentsHttpGet: {
      name: "DocumentsHttpGet",
      protocol: "httpGet",
      address: "http://localhost/documents",
      operations: {
        Download: {
          kind: "http",
          location: "/Download",
          params: [],
          response: DocumentsDesc.ports.DocumentsSoap!.operations["Download"]!.response,
        },
      },
    },
  },
} as ServiceDesc;

const B = "b0undary";
const CT =
  `multipart/related; type="application/xop+xml"; boundary="${B}"; start="<root>"; ` +
  'start-info="text/xml"';
/** A package whose root is a DownloadResponse with `content` and a 2 MiB part `a`. */
const pkg = (content: string) =>
  `--${B}\r\nContent-Type: application/xop+xml; type="text/xml"\r\nContent-ID: <root>\r\n\r\n` +
  `<DownloadResponse xmlns="urn:wsdl-tsgen:documents"><DownloadResult><Info><Id>d1</Id>` +
  `<Name>n</Name><MediaType>m</MediaType><Size>1</Size><Created>2026-11-29T00:00:00Z</Created>` +
  `</Info><Content>${content}</Content></DownloadResult></DownloadResponse>\r\n` +
  `--${B}\r\nContent-Type: application/octet-stream\r\nContent-ID: <a>\r\n\r\n` +
  "x".repeat(2 * 1024 * 1024) +
  `\r\n--${B}--\r\n`;

let status = 200;
let content = "";
let server: Loopback;
beforeAll(async () => {
  server = await listen((_, res) => {
    res.writeHead(status, { "Content-Type": CT });
    res.end(pkg(content));
  });
});
afterAll(() => server.close());

const call = () =>
  new ServiceClient(desc, { endpoint: server.url, port: "DocumentsHttpGet" }).call("Download", {});
const XOP = '<xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include" href="cid:a"/>';

describe("an HTTP GET call answered with a package", () => {
  it("keeps the spooled part its result holds", async () => {
    status = 200;
    content = XOP;
    const doc = (await call()) as { Content: unknown };
    expect(doc.Content).toBeInstanceOf(Blob);
    expect(readdirSync(tmp.path)).not.toEqual([]);
    expect(await releaseAttachments(doc)).toBe(1);
  });

  it("removes the spooled part when the result does not hold it", async () => {
    status = 200;
    content = "AAAA";
    const doc = (await call()) as { Content: unknown };
    expect(doc.Content).toBeInstanceOf(Uint8Array);
    expect(readdirSync(tmp.path)).toEqual([]);
  });

  it("removes the spooled part when the answer fails", async () => {
    status = 500;
    content = XOP;
    await expect(call()).rejects.toBeInstanceOf(HttpBindingError);
    expect(readdirSync(tmp.path)).toEqual([]);
  });
});
