/**
 * Loading from URLs stays bounded whatever the server does: a body is read no further than the size
 * limit (declared or not), imports that never end stop at a number of documents, and a connection
 * cut mid-body is a diagnostic.
 */
import { afterEach, describe, expect, it } from "vitest";
import { DiagnosticError, type Diagnostic } from "../../src/diagnostics.js";
import { loadDocuments } from "../../src/parse/loader.js";
import { endlessBody, rejection, serverPerTest } from "../support/loopback.js";

const servers = serverPerTest(afterEach);
const diagnosticOf = async (p: Promise<unknown>): Promise<Diagnostic> =>
  (await rejection(p, DiagnosticError)).diagnostics[0]!;

const XS = "http://www.w3.org/2001/XMLSchema";
const wsdlImporting = (location: string) =>
  `<?xml version="1.0"?>\n<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:s="${XS}" targetNamespace="urn:t"><wsdl:types><s:schema targetNamespace="urn:t"><s:import namespace="urn:d" schemaLocation="${location}"/></s:schema></wsdl:types></wsdl:definitions>`;

describe("loading from URLs, bounded", () => {
  it("a body over the size limit is not read further, whether its length is declared or not", async () => {
    const sent: { readonly finished: boolean; readonly closed: Promise<void> }[] = [];
    const server = await servers.serve((req, res) => {
      const declared = req.url === "/declared";
      res.writeHead(200, {
        "Content-Type": "text/xml",
        ...(declared ? { "Content-Length": String(64 * 1024 * 1024) } : {}),
      });
      sent.push(
        endlessBody(
          res,
          '<?xml version="1.0"?>\n<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">',
        ),
      );
    });
    for (const path of ["/chunked", "/declared"]) {
      const url = `${server.url}${path}`;
      const d = await diagnosticOf(
        loadDocuments(url, { limits: { maxBytes: 100_000, maxDepth: 256 } }),
      );
      expect(d).toMatchObject({
        code: "XML_TOO_LARGE",
        message: `${url} is larger than 100000 bytes, the limit`,
      });
    }
    // Once each connection is over: a reader that went on draining it would have taken it all.
    await Promise.all(sent.map((s) => s.closed));
    expect(sent.map((s) => s.finished)).toEqual([false, false]);
  });

  it("imports that never end stop at maxDocuments, located at the import that would exceed it", async () => {
    const hits: string[] = [];
    const server = await servers.serve((req, res) => {
      hits.push(req.url!);
      if (req.url === "/root?WSDL")
        return res.writeHead(200, { "Content-Type": "text/xml" }).end(wsdlImporting("d/1.xsd"));
      const n = Number(/^\/d\/(\d+)\.xsd$/.exec(req.url!)?.[1]);
      res
        .writeHead(200, { "Content-Type": "text/xml" })
        .end(
          `<s:schema xmlns:s="${XS}" targetNamespace="urn:d">\n<s:import namespace="urn:d${n + 1}" schemaLocation="${n + 1}.xsd"/></s:schema>`,
        );
    });
    const d = await diagnosticOf(loadDocuments(`${server.url}/root?WSDL`, { maxDocuments: 20 }));
    expect(d).toMatchObject({
      code: "INPUT_TOO_MANY_DOCUMENTS",
      file: `${server.url}/d/19.xsd`,
      line: 2,
    });
    expect(d.message).toBe(
      `importing ${server.url}/d/20.xsd would read more than 20 documents in all; expected imports that end`,
    );
    expect(hits).toHaveLength(20);
  });

  it("a connection cut in the middle of a body is a diagnostic, not a crash", async () => {
    const server = await servers.serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/xml", "Content-Length": "100000" });
      res.write('<?xml version="1.0"?>\n<wsdl:definitions', () => res.socket?.destroy());
    });
    const d = await diagnosticOf(loadDocuments(`${server.url}/api.asmx?WSDL`));
    expect(d.code).toBe("INPUT_FETCH_FAILED");
    expect(d.message).toMatch(/^fetching http:\/\/127\.0\.0\.1:\d+\/api\.asmx\?WSDL failed: /);
  });
});
