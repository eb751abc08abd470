/**
 * SOAP with Attachments refused whole: a request or response that lacks an attachment part the
 * operation declares is a Client fault (server) or a ResponseFormatError (client), never a value
 * with a part missing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScansClient } from "../../generated-samples/swa/index.js";
import { ResponseFormatError } from "../../runtime/src/index.js";
import { listen } from "../support/loopback.js";
import { startScans, type ScansServer } from "./scans-server.js";

let server: ScansServer;
beforeAll(async () => {
  server = await startScans();
});
afterAll(() => server.close());

const ENVELOPE =
  '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
  '<ScanInfo xmlns="urn:wsdl-tsgen:scans"><Title>t</Title><Pages>1</Pages></ScanInfo>' +
  "</soap:Body></soap:Envelope>";

/** A multipart/related body of `parts` ([Content-ID, content]), the first the envelope. */
function related(parts: readonly [string, string][]): { type: string; body: string } {
  const b = "b0undary";
  const body =
    parts
      .map(
        ([id, content], i) =>
          `--${b}\r\nContent-Type: ${i === 0 ? "text/xml; charset=UTF-8" : "image/png"}\r\n` +
          `Content-ID: <${id}>\r\n\r\n${content}\r\n`,
      )
      .join("") + `--${b}--\r\n`;
  return { type: `multipart/related; type="text/xml"; boundary=${b}; start="<root@x>"`, body };
}

async function post(contentType: string, body: string): Promise<Response> {
  return fetch(server.url, {
    method: "POST",
    headers: { "Content-Type": contentType, SOAPAction: '"urn:wsdl-tsgen:scans/StoreScan"' },
    body,
  });
}

describe("the server refuses a SOAP with Attachments request without its attachment part", () => {
  const cases: [string, () => { type: string; body: string }][] = [
    ["a package without the scan part", () => related([["root@x", ENVELOPE]])],
    [
      "a package whose part's Content-ID names another part",
      () =>
        related([
          ["root@x", ENVELOPE],
          ["photo=1@x", "PNG"],
        ]),
    ],
    ["a plain envelope", () => ({ type: "text/xml; charset=utf-8", body: ENVELOPE })],
  ];
  it.each(cases)("%s: 400 and a Client fault, nothing stored", async (_, make) => {
    const before = server.store.size;
    const { type, body } = make();
    const res = await post(type, body);
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain("<faultcode>soap:Client</faultcode>");
    expect(text).toContain("expected the attachment parts scan");
    expect(server.store.size).toBe(before);
  });

  it("a part named twice is refused too", async () => {
    const before = server.store.size;
    const { type, body } = related([
      ["root@x", ENVELOPE],
      ["scan=1@x", "one"],
      ["scan=2@x", "two"],
    ]);
    const res = await post(type, body);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("two parts have a Content-ID &lt;scan=…&gt;");
    expect(server.store.size).toBe(before);
  });
});

describe("the client refuses a SOAP with Attachments response without its attachment part", () => {
  it("a FetchScan answer lacking the thumbnail part is a ResponseFormatError", async () => {
    const { type, body } = related([
      ["root@x", ENVELOPE],
      ["scan=1@x", "PNG"],
    ]);
    const peer = await listen((_req, res) => {
      res.writeHead(200, { "Content-Type": type }).end(body);
    });
    try {
      const client = new ScansClient({ endpoint: peer.url });
      const call = client.fetchScan({ Id: "s1" });
      await expect(call).rejects.toBeInstanceOf(ResponseFormatError);
      await expect(call).rejects.toThrow(
        "no part has a Content-ID <thumbnail=…> for the attachment part thumbnail",
      );
    } finally {
      await peer.close();
    }
  });

  it("a plain envelope answer is a ResponseFormatError", async () => {
    const peer = await listen((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/xml; charset=utf-8" }).end(ENVELOPE);
    });
    try {
      const client = new ScansClient({ endpoint: peer.url });
      await expect(client.fetchScan({ Id: "s1" })).rejects.toThrow(
        "the response is no multipart/related package",
      );
    } finally {
      await peer.close();
    }
  });
});
