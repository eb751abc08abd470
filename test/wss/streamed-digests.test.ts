/**
 * Digests of attachment parts read in chunks from Blobs (wss/part-digests.ts) against two oracles:
 * the in-memory path (wss/attachments.ts) over the same bytes, and node:crypto over the whole
 * canonical bytes made here independently. Chunk ends are placed where the chunked reading could
 * go wrong: a CR ending a chunk before its LF, base64 groups split across chunks.
 */
import { createHash } from "node:crypto";
import { openAsBlob, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { MessagePart } from "../../runtime/src/soap/message-security.js";
import { digestInput, partDigest } from "../../runtime/src/wss/attachments.js";
import { digestOf } from "../../runtime/src/wss/digest.js";
import {
  elementDigestStreamed,
  MAX_XML_PART_BYTES,
  partDigestStreamed,
} from "../../runtime/src/wss/part-digests.js";
import { readTree } from "../../runtime/src/wss/tree.js";
import { SecurityRefusal } from "../../runtime/src/index.js";
import { binary } from "../support/binary.js";
import { spoolDir } from "../support/spool-dir.js";

const tmp = spoolDir(false);

/** A Blob whose stream gives `bytes` in the chunks `sizes` says (then the rest in one). */
function chunkedBlob(bytes: Uint8Array, sizes: readonly number[]): Blob {
  const pieces: Uint8Array[] = [];
  let at = 0;
  for (const n of sizes) pieces.push(bytes.subarray(at, (at += n)));
  pieces.push(bytes.subarray(at));
  // Node gives a Blob's pieces as the chunks of its stream.
  return new Blob(pieces);
}

const part = (type: string, content: MessagePart["content"]): MessagePart => ({
  id: "p@x",
  headers: { "content-type": type, "content-id": "<p@x>" },
  content,
});

const b64 = (b: Uint8Array | string) => createHash("sha256").update(b).digest("base64");

describe("digests of parts read in chunks", () => {
  it("binary content: the hash of the bytes, as in memory", async () => {
    const bytes = binary(300_001, 3);
    const blob = chunkedBlob(bytes, [1, 2, 65_536, 7]);
    const streamed = await partDigestStreamed("sha256", part("image/png", blob), false, false);
    expect(streamed).toBe(b64(bytes));
    expect(streamed).toBe(partDigest("sha256", part("image/png", bytes), false, false));
  });

  it("text content: every line end CRLF, a CR at a chunk's end kept for the LF after it", async () => {
    const text = "a\rb\nc\r\nd\r" + "x".repeat(100) + "\r\n\r\r\n\n" + "y\r";
    const bytes = Buffer.from(text, "latin1");
    // Chunk ends: after "a\r", after "c\r" (its LF next), inside "\r\r\n", at the final CR.
    const cuts = [2, 4, 1, 104, 2];
    const blob = chunkedBlob(bytes, cuts);
    const expected = b64(Buffer.from(text.replace(/\r\n|\r|\n/g, "\r\n"), "latin1"));
    const p = part("text/plain; charset=us-ascii", blob);
    expect(await partDigestStreamed("sha256", p, false, false)).toBe(expected);
    const inMemory = part("text/plain; charset=us-ascii", bytes);
    expect(partDigest("sha256", inMemory, false, false)).toBe(expected);
    // Attachment-Complete: the canonical headers first, as in memory.
    expect(await partDigestStreamed("sha512", p, true, false)).toBe(
      partDigest("sha512", inMemory, true, false),
    );
  });

  it("a spooled file (fs.openAsBlob) of several MiB: the hash of its bytes", async () => {
    const bytes = binary(3 * 1024 * 1024 + 1, 9);
    const path = join(tmp.path, "big.bin");
    writeFileSync(path, bytes);
    const blob = await openAsBlob(path);
    const p = part("application/octet-stream", blob);
    expect(await partDigestStreamed("sha256", p, false, true)).toBe(b64(bytes));
  });

  it("an XML part is canonicalized whole, up to its bound; a larger one is refused", async () => {
    const xml = '<a xmlns="urn:a" z="1"  b="2"><c/></a>';
    const p = part("application/xml", chunkedBlob(Buffer.from(xml), [5]));
    expect(await partDigestStreamed("sha256", p, false, false)).toBe(
      b64('<a xmlns="urn:a" b="2" z="1"><c></c></a>'),
    );
    const huge = part("text/xml", new Blob([new Uint8Array(MAX_XML_PART_BYTES + 1)]));
    const refused = partDigestStreamed("sha256", huge, false, false);
    await expect(refused).rejects.toBeInstanceOf(SecurityRefusal);
    await expect(refused).rejects.toMatchObject({ reason: "too-large" });
    await expect(partDigestStreamed("sha256", huge, false, true)).rejects.toThrow(
      /larger than 16777216 bytes/,
    );
  });

  it("MTOM: an element's XOP infoset, each part's base64 made 3 bytes at a time across chunks", async () => {
    const XOP = "http://www.w3.org/2004/08/xop/include";
    const el = readTree(
      `<b:Body xmlns:b="urn:b"><Up xmlns="urn:u"><C><xop:Include xmlns:xop="${XOP}" href="cid:one@x"/></C>` +
        `<D>t</D><E><xop:Include xmlns:xop="${XOP}" href="cid:two@x"/></E></Up></b:Body>`,
    );
    const one = binary(200_002, 4);
    const two = binary(65_537, 5);
    const inMemory = new Map([
      ["one@x", { ...part("a/b", one), id: "one@x" }],
      ["two@x", { ...part("a/b", two), id: "two@x" }],
    ]);
    const blobs = new Map([
      ["one@x", { ...part("a/b", chunkedBlob(one, [1, 1, 4, 65_536])), id: "one@x" }],
      ["two@x", { ...part("a/b", chunkedBlob(two, [2, 3, 5])), id: "two@x" }],
    ]);
    const expected = digestOf("sha256", digestInput(el, [], inMemory));
    expect(await elementDigestStreamed("sha256", el, [], blobs, false)).toBe(expected);
    // The oracle: the canonical form written out here, each part's base64 whole.
    const b = (x: Uint8Array) => Buffer.from(x).toString("base64");
    const canonical =
      `<b:Body xmlns:b="urn:b"><Up xmlns="urn:u"><C>${b(one)}</C><D>t</D><E>${b(two)}</E>` +
      `</Up></b:Body>`;
    expect(expected).toBe(b64(canonical));
  });

  it("a ReadableStream part is not signed: it could not be read twice", async () => {
    const stream = new ReadableStream<Uint8Array>({ start: (c) => c.close() });
    await expect(partDigestStreamed("sha256", part("a/b", stream), false, true)).rejects.toThrow(
      /is a ReadableStream: a stream is read once.*expected a Blob/,
    );
  });
});
