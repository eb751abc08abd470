/**
 * SOAP with Attachments (WS-I Attachments Profile 1.0) between our client and our server: the
 * scans fixture's attachment parts travel as MIME parts beside the envelope, and arrive whole.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScansClient } from "../../generated-samples/swa/index.js";
import { releaseAttachments, type Exchange } from "../../runtime/src/index.js";
import { binary, bytesOf } from "../support/binary.js";
import { startScans, type ScansServer } from "./scans-server.js";

let server: ScansServer;
beforeAll(async () => {
  server = await startScans();
});
afterAll(() => server.close());

describe("SOAP with Attachments, client → our server → client", () => {
  it("sends a binary attachment part and reads two back, byte for byte", async () => {
    const exchanges: Exchange[] = [];
    const client = new ScansClient({ endpoint: server.url, trace: (e) => exchanges.push(e) });
    const scan = binary(200_000, 7);
    const stored = await client.storeScan({ Title: "Page one", Pages: 1, scan });
    expect(stored.Size).toBe(BigInt(scan.byteLength));
    const kept = server.store.get(stored.Id)!;
    expect(kept.title).toBe("Page one");
    expect(Buffer.from(kept.scan).equals(Buffer.from(scan))).toBe(true);

    const sent = exchanges[0]!;
    expect(sent.requestHeaders["Content-Type"]).toMatch(
      /^multipart\/related; type="text\/xml"; boundary="[^"]+"; start="<root\.[^>]+>"$/,
    );
    // The envelope holds the body part only; the binary is no base64 text inside it.
    expect(sent.requestBody).toContain("<Title>Page one</Title>");
    expect(sent.requestBody).not.toContain("<scan");
    expect(sent.requestBody.length).toBeLessThan(1000);
    // The answer to a request without response attachments is a plain envelope.
    expect(sent.response!.headers["content-type"]).toMatch(/^text\/xml/);

    const fetched = await client.fetchScan({ Id: stored.Id });
    expect(fetched.Title).toBe("Page one");
    expect(fetched.Pages).toBe(1);
    expect(fetched.scan).toBeInstanceOf(Uint8Array);
    expect((await bytesOf(fetched.scan)).equals(Buffer.from(scan))).toBe(true);
    expect((await bytesOf(fetched.thumbnail)).equals(Buffer.from(scan.subarray(0, 16)))).toBe(true);
    expect(exchanges[1]!.response!.headers["content-type"]).toMatch(
      /^multipart\/related; type="text\/xml"/,
    );
  });

  it("refuses to send an input whose attachment part is no Uint8Array, before anything is sent", async () => {
    const exchanges: Exchange[] = [];
    const client = new ScansClient({ endpoint: server.url, trace: (e) => exchanges.push(e) });
    const before = server.store.size;
    const input = { Title: "t", Pages: 1 } as unknown as Parameters<typeof client.storeScan>[0];
    await expect(client.storeScan(input)).rejects.toThrow(
      "attachment part scan is not a Uint8Array",
    );
    expect(exchanges).toHaveLength(0);
    expect(server.store.size).toBe(before);
  });

  it("sends a part from a ReadableStream and reads a large one back as a Blob", async () => {
    const large = await startScans({ maxBodyBytes: 8 << 20 });
    try {
      const client = new ScansClient({ endpoint: large.url });
      const scan = binary(3 << 20, 9);
      const stream = new Blob([scan]).stream() as ReadableStream<Uint8Array>;
      const stored = await client.storeScan({ Title: "big", Pages: 9, scan: stream });
      expect(stored.Size).toBe(BigInt(scan.byteLength));
      const fetched = await client.fetchScan({ Id: stored.Id });
      expect(fetched.scan).toBeInstanceOf(Blob);
      expect((await bytesOf(fetched.scan)).equals(Buffer.from(scan))).toBe(true);
      // The thumbnail, under the spool threshold, stays bytes; released, the Blob reads no more.
      expect(fetched.thumbnail).toBeInstanceOf(Uint8Array);
      expect(await releaseAttachments(fetched)).toBe(1);
      await expect((fetched.scan as Blob).arrayBuffer()).rejects.toThrow();
    } finally {
      await large.close();
    }
  });
});
