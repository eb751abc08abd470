/**
 * MTOM both ways between our client and our server (the documents fixture): binaries as XOP
 * attachment parts, read back whole, over SOAP 1.1 and 1.2.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentsClient } from "../../generated-samples/documents/index.js";
import type { Exchange } from "../../runtime/src/index.js";
import { binary, bytesOf } from "../support/binary.js";
import { startDocuments, type DocumentsServer } from "./documents-server.js";

let server: DocumentsServer;
beforeAll(async () => {
  server = await startDocuments({ maxBodyBytes: 64 * 1024 * 1024 });
});
afterAll(() => server.close());

describe.each(["DocumentsSoap", "DocumentsSoap12"] as const)("MTOM over %s", (port) => {
  it("sends a multi-MiB binary as an attachment and reads it back from an MTOM answer", async () => {
    const exchanges: Exchange[] = [];
    const client = new DocumentsClient({
      endpoint: server.url,
      port,
      mtom: true,
      trace: (e) => exchanges.push(e),
    });
    const content = binary(3 * 1024 * 1024 + 7, 1);
    const info = await client.upload({
      Name: "scan.pdf",
      MediaType: "application/pdf",
      Content: content,
    });
    expect(info.Size).toBe(BigInt(content.byteLength));
    const sent = exchanges[0]!;
    expect(sent.requestHeaders["Content-Type"]).toMatch(
      /^multipart\/related; type="application\/xop\+xml"/,
    );
    // The envelope holds an xop:Include where the bytes were, not 4 MiB of base64.
    expect(sent.requestBody).toMatch(
      /<Content><xop:Include xmlns:xop="http:\/\/www.w3.org\/2004\/08\/xop\/include" href="cid:[^"]+"\/><\/Content>/,
    );
    expect(sent.requestBody.length).toBeLessThan(2000);
    expect(sent.response!.headers["content-type"]).toMatch(/^multipart\/related/);
    const stored = server.store.get(info.Id)!;
    expect(Buffer.from(stored.content).equals(Buffer.from(content))).toBe(true);

    const doc = await client.download({ Id: info.Id });
    expect(doc.Info.Name).toBe("scan.pdf");
    // Over the spool threshold (1 MiB): a Blob of a temporary file.
    expect(doc.Content).toBeInstanceOf(Blob);
    expect((await bytesOf(doc.Content)).equals(Buffer.from(content))).toBe(true);
  });

  it("writes binaries under the threshold inline, and reads a plain answer to a plain request", async () => {
    const exchanges: Exchange[] = [];
    const client = new DocumentsClient({
      endpoint: server.url,
      port,
      mtom: { threshold: 100 },
      trace: (e) => exchanges.push(e),
    });
    const small = await client.upload({
      Name: "a",
      MediaType: "text/plain",
      Content: binary(99, 2),
    });
    expect(exchanges[0]!.requestBody).toContain("<Content>");
    expect(exchanges[0]!.requestBody).not.toContain("xop:Include");
    const plain = new DocumentsClient({
      endpoint: server.url,
      port,
      trace: (e) => exchanges.push(e),
    });
    const doc = await plain.download({ Id: small.Id });
    expect((await bytesOf(doc.Content)).equals(Buffer.from(binary(99, 2)))).toBe(true);
    // A plain request: "auto" answers it plain over SOAP 1.1; the SOAP 1.2 binding's WSDL policy
    // asks for MTOM, which makes "always" the server's default there, and the client's.
    const policy = port === "DocumentsSoap12";
    expect(/multipart/.test(exchanges[1]!.response!.headers["content-type"]!)).toBe(policy);
    expect(/multipart/.test(exchanges[1]!.requestHeaders["Content-Type"]!)).toBe(policy);
    const off = new DocumentsClient({
      endpoint: server.url,
      port,
      mtom: false,
      trace: (e) => exchanges.push(e),
    });
    await off.download({ Id: small.Id });
    expect(exchanges[2]!.requestHeaders["Content-Type"]).not.toMatch(/multipart/);
  });

  it("lists several documents, each binary its own part", async () => {
    const client = new DocumentsClient({ endpoint: server.url, port, mtom: { threshold: 0 } });
    const a = binary(5000, 3);
    const b = binary(70_000, 4);
    await client.upload({ Name: "a", MediaType: "x/a", Content: a });
    await client.upload({ Name: "b", MediaType: "x/b", Content: b });
    const list = await client.list({ WithContent: true });
    const byName = new Map(list.map((d) => [d.Info.Name, d.Content]));
    expect((await bytesOf(byName.get("a")!)).equals(Buffer.from(a))).toBe(true);
    expect((await bytesOf(byName.get("b")!)).equals(Buffer.from(b))).toBe(true);
  });
});

describe("the handler's mtom option", () => {
  it('answers MTOM to a plain request when it is "always", plain when it is "never"', async () => {
    for (const [mode, multipart] of [
      ["always", true],
      ["never", false],
    ] as const) {
      const s = await startDocuments({ mtom: mode });
      try {
        const exchanges: Exchange[] = [];
        const client = new DocumentsClient({
          endpoint: s.url,
          mtom: true,
          trace: (e) => exchanges.push(e),
        });
        const content = binary(4096, 5);
        const info = await client.upload({ Name: "n", MediaType: "m", Content: content });
        const plain = new DocumentsClient({ endpoint: s.url, trace: (e) => exchanges.push(e) });
        const doc = await plain.download({ Id: info.Id });
        expect((await bytesOf(doc.Content)).equals(Buffer.from(content))).toBe(true);
        expect(/multipart\/related/.test(exchanges[1]!.response!.headers["content-type"]!)).toBe(
          multipart,
        );
      } finally {
        await s.close();
      }
    }
  });
});

describe("the help page of an operation", () => {
  it("says MTOM on the binding whose WSDL policy asks for it, and only there", async () => {
    const page = await (await fetch(`${server.url}?op=Download`)).text();
    const sections = page.split('<section class="sample"').slice(1);
    const soap12 = sections.find((s) => s.includes('data-protocol="soap12"'))!;
    const soap11 = sections.find((s) => s.includes('data-protocol="soap11"'))!;
    expect(soap12).toContain("This binding's policy asks for MTOM");
    expect(soap12).toContain(`<code>xop:Include href="cid:…"</code>`);
    expect(soap11).not.toContain("MTOM");
  });
});
