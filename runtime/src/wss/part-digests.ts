/**
 * Digests of attachment parts held as Blobs (spooled to a file, or given from one), computed as
 * they are read in chunks, so that a message signed or verified over large parts never holds one
 * whole. Each gives the digest the in-memory path (attachments.ts) gives for the same bytes:
 *
 * - SwA Attachment-Content: binary content as it is; text with CRLF line ends, normalized chunk by
 *   chunk (a CR ending a chunk waits for the next one's first byte); XML by exclusive C14N of the
 *   whole part, read into memory only up to MAX_XML_PART_BYTES. Attachment-Complete: the canonical
 *   headers, then that.
 * - MTOM: the exclusive C14N of the signed element with a random marker for each `xop:Include`;
 *   the hash is given the text between the markers, and each part's base64, encoded 3 bytes at a
 *   time across chunks.
 */
import { createHash, randomUUID, type Hash } from "node:crypto";
import { SecurityRefusal, type MessagePart, type MessageParts } from "../soap/message-security.js";
import { parseMediaType } from "../mime/headers.js";
import type { DigestName } from "./algorithms.js";
import {
  AttachmentCheck,
  canonicalContent,
  canonicalHeaders,
  checkPartDigest,
  digestInput,
  expanded,
  partDigest,
  XML_TYPE,
} from "./attachments.js";
import { excC14n } from "./c14n.js";
import { digestOf } from "./digest.js";
import type { SigElement } from "./tree.js";

/**
 * The largest XML-typed part hashed from a Blob: exclusive C14N needs the part's tree, so it is
 * read whole (several times its size in memory while canonicalized); a larger one is refused.
 */
export const MAX_XML_PART_BYTES = 16 * 1024 * 1024;

/** The part's content in chunks; a stream (read once) is refused: its bytes must go out after. */
async function* chunksOf(part: MessagePart, signing: boolean): AsyncGenerator<Buffer> {
  const c = part.content;
  if (c instanceof Uint8Array) return yield Buffer.from(c.buffer, c.byteOffset, c.byteLength);
  if (!(c instanceof Blob)) {
    const what = `the attachment part <${part.id.slice(0, 100)}> is a ReadableStream`;
    throw new Error(
      signing
        ? `${what}: a stream is read once, and a signed part is read twice (its digest, then to send it); expected a Blob (fs.openAsBlob) or a Uint8Array`
        : `${what}; a verified part is expected as a Uint8Array or a Blob`,
    );
  }
  for await (const chunk of c.stream() as unknown as AsyncIterable<Uint8Array>)
    yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** Gives `hash` the part's bytes in base64, 3 bytes at a time (no padding inside). */
async function hashBase64(hash: Hash, part: MessagePart, signing: boolean): Promise<void> {
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of chunksOf(part, signing)) {
    const buf = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    const whole = buf.length - (buf.length % 3);
    if (whole > 0) hash.update(buf.toString("base64", 0, whole), "latin1");
    carry = Buffer.from(buf.subarray(whole));
  }
  if (carry.length > 0) hash.update(carry.toString("base64"), "latin1");
}

/** Gives `hash` the part's text with every line end CRLF (latin1 keeps each byte as it is). */
async function hashCrlf(hash: Hash, part: MessagePart, signing: boolean): Promise<void> {
  let cr = false;
  for await (const chunk of chunksOf(part, signing)) {
    let text: string = (cr ? "\r" : "") + chunk.toString("latin1");
    // A CR at the chunk's end may be the first half of a CRLF the next chunk ends.
    cr = text.endsWith("\r");
    if (cr) text = text.slice(0, -1);
    hash.update(text.replace(/\r\n|\r|\n/g, "\r\n"), "latin1");
  }
  if (cr) hash.update("\r\n", "latin1");
}

/** An XML-typed Blob part in memory, within MAX_XML_PART_BYTES. */
async function wholeXmlPart(part: MessagePart, signing: boolean): Promise<MessagePart> {
  const blob = part.content as Blob;
  if (blob.size > MAX_XML_PART_BYTES) {
    const message = `an XML attachment part is larger than ${MAX_XML_PART_BYTES} bytes, the most canonicalized for a signature`;
    if (signing) throw new Error(`the attachment part <${part.id.slice(0, 100)}>: ${message}`);
    throw new SecurityRefusal(message, "too-large");
  }
  return { ...part, content: new Uint8Array(await blob.arrayBuffer()) };
}

/** What a `cid:` reference to `part` digests (see partDigest), its content read in chunks. */
export async function partDigestStreamed(
  d: DigestName,
  part: MessagePart,
  complete: boolean,
  signing: boolean,
): Promise<string> {
  if (part.content instanceof Uint8Array) return partDigest(d, part, complete, signing);
  const type = parseMediaType(part.headers["content-type"] ?? "text/plain").type;
  const hash = createHash(d);
  if (complete) hash.update(canonicalHeaders(part), "utf8");
  if (XML_TYPE.test(type))
    hash.update(canonicalContent(await wholeXmlPart(part, signing), signing));
  else if (type.startsWith("text/")) await hashCrlf(hash, part, signing);
  else for await (const chunk of chunksOf(part, signing)) hash.update(chunk);
  return hash.digest("base64");
}

/**
 * The digest of a reference to `el` (see digestInput), the parts it includes hashed as they are
 * read between the texts of its canonical form.
 */
export async function elementDigestStreamed(
  d: DigestName,
  el: SigElement,
  prefixes: Iterable<string>,
  parts: MessageParts | undefined,
  signing: boolean,
): Promise<string> {
  if (!parts) return digestOf(d, digestInput(el, prefixes, parts));
  // A random marker stands for each part: no text of the message can hold it by chance or design.
  const marker = `\u2063${randomUUID()}\u2063`;
  const included: MessagePart[] = [];
  const x = expanded(el, parts, (p) => (included.push(p), marker));
  if (typeof x === "string")
    throw new SecurityRefusal("a signed element is an xop:Include", "malformed");
  const texts = excC14n(x, prefixes).split(marker);
  if (texts.length !== included.length + 1) throw new Error("an XOP marker was not found once");
  const hash = createHash(d);
  hash.update(texts[0]!, "utf8");
  for (let i = 0; i < included.length; i++) {
    await hashBase64(hash, included[i]!, signing);
    hash.update(texts[i + 1]!, "utf8");
  }
  return hash.digest("base64");
}

/** Refuses a referenced part whose digest does not match, each read in chunks. */
export async function checkPartDigestsStreamed(check: AttachmentCheck): Promise<void> {
  for (const r of check.referenced)
    checkPartDigest(r, await partDigestStreamed(r.digest, r.part, r.complete, false));
}
