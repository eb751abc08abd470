/**
 * multipart/related bodies (RFC 2046 §5.1, RFC 2387), read and written without copying a part's
 * bytes: a part read is a view of the body, a part written is sent as the caller's bytes.
 */
import { randomUUID } from "node:crypto";
import { bareContentId, parseMediaType, type MediaType } from "./headers.js";
import type { MessagePart, PartContent } from "../support/message-parts.js";
import {
  afterPadding,
  checkHeaderBytes,
  checkPartBytes,
  checkPartCount,
  delimiterOf,
  MultipartError,
  partHeaders,
  type MultipartLimits,
} from "./part-rules.js";
import { decodeBase64, transferEncoding } from "./transfer-encoding.js";

export { MultipartError, type MultipartLimits } from "./part-rules.js";

/**
 * One body part: its headers (names lower-cased) and its content, a view of the body, or, for a
 * large attachment read as a stream, a Blob of its temporary file (see multipart-stream.ts).
 */
export interface BodyPart {
  readonly headers: Readonly<Record<string, string>>;
  /** The Content-ID without angle brackets; "" when the part has none. */
  readonly id: string;
  readonly contentType: MediaType;
  readonly content: Uint8Array | Blob;
}

/**
 * The parts of a multipart body whose boundary is `boundary`. Strict where leniency would let data
 * be read as structure: delimiters are CRLF `--boundary`, a delimiter line holds only transport
 * padding after it, and a part's content may not hold its delimiter in any other form.
 */
export function parseMultipart(
  body: Uint8Array,
  boundary: string,
  limits: MultipartLimits,
): BodyPart[] {
  const delimiter = delimiterOf(boundary);
  const dash = delimiter.subarray(2);
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // The first delimiter may open the body, or follow a preamble (which is ignored).
  let at = buf.subarray(0, dash.length).equals(dash) ? 0 : buf.indexOf(delimiter);
  if (at === -1)
    throw new MultipartError("the body holds no part delimited by its boundary", "malformed");
  if (at > 0) at += 2;
  const parts: BodyPart[] = [];
  for (;;) {
    const after = at + dash.length;
    if (buf[after] === 0x2d && buf[after + 1] === 0x2d) break; // the close delimiter
    const start = afterPadding(buf, after);
    if (start === -1)
      throw new MultipartError(
        "the body ends after a delimiter, before its close delimiter",
        "malformed",
      );
    const next = buf.indexOf(delimiter, start);
    if (next === -1)
      throw new MultipartError(
        "the body ends inside a part, before its close delimiter",
        "malformed",
      );
    checkPartCount(parts.length, limits);
    parts.push(bodyPart(buf, start, next, limits));
    at = next + 2;
  }
  if (parts.length === 0) throw new MultipartError("the body holds no part", "missing-part");
  return parts;
}

/** The part between `start` (after its delimiter line) and `end` (its next delimiter's CRLF). */
function bodyPart(buf: Buffer, start: number, end: number, limits: MultipartLimits): BodyPart {
  let split = buf.indexOf("\r\n\r\n", start);
  let contentStart = split + 4;
  // A part with no headers begins with the blank line.
  if (buf[start] === 0x0d && buf[start + 1] === 0x0a) ((split = start), (contentStart = start + 2));
  if (split === -1 || split > end)
    throw new MultipartError("a part's headers do not end with a blank line", "malformed");
  checkHeaderBytes(split - start);
  const headers = partHeaders(buf.toString("latin1", start, split));
  let content: Uint8Array = buf.subarray(contentStart, end);
  if (transferEncoding(headers) === "base64") content = decodeBase64(content);
  checkPartBytes(content.byteLength, limits.maxPartBytes);
  return {
    headers,
    id: bareContentId(headers["content-id"] ?? ""),
    contentType: parseMediaType(headers["content-type"] ?? "text/plain"),
    content,
  };
}

/** A part to write: its headers as lines, and its content. */
export interface OutgoingPart {
  readonly headers: readonly string[];
  readonly content: PartContent;
}

/** A part of ours, sent in binary transfer encoding, as security signs it. */
export const binaryPart = (type: string, id: string, content: PartContent): MessagePart => ({
  id,
  headers: { "content-type": type, "content-transfer-encoding": "binary", "content-id": `<${id}>` },
  content,
});

/** `p` to write, its headers (those binaryPart gives) in their usual case. */
export const outgoing = (p: MessagePart): OutgoingPart => ({
  headers: [
    `Content-Type: ${p.headers["content-type"]}`,
    "Content-Transfer-Encoding: binary",
    `Content-ID: ${p.headers["content-id"]}`,
  ],
  content: p.content,
});

/**
 * A multipart body to send: the chunks in order (contents as given, not copied) and its length,
 * undefined when a part is a stream (whose length is known only once it has been read).
 */
export interface MultipartBody {
  readonly boundary: string;
  readonly chunks: readonly PartContent[];
  readonly length: number | undefined;
}

/**
 * Writes `parts` between delimiters of a fresh boundary that none of their contents in memory
 * holds (a Blob's or a stream's are not read for it: a random UUID is not found by chance).
 */
export function writeMultipart(parts: readonly OutgoingPart[]): MultipartBody {
  let boundary = "";
  do boundary = "uuid:" + randomUUID();
  while (
    parts.some(
      (p) =>
        p.content instanceof Uint8Array &&
        Buffer.from(p.content.buffer, p.content.byteOffset, p.content.byteLength).includes(
          boundary,
        ),
    )
  );
  const chunks: PartContent[] = [];
  let length: number | undefined = 0;
  const add = (c: PartContent) => {
    chunks.push(c);
    if (length === undefined) return;
    length =
      c instanceof ReadableStream
        ? undefined
        : c instanceof Blob
          ? length + c.size
          : length + c.byteLength;
  };
  for (const [i, p] of parts.entries()) {
    add(
      Buffer.from(
        `${i === 0 ? "" : "\r\n"}--${boundary}\r\n${p.headers.join("\r\n")}\r\n\r\n`,
        "latin1",
      ),
    );
    add(p.content);
  }
  add(Buffer.from(`\r\n--${boundary}--\r\n`, "latin1"));
  return { boundary, chunks, length };
}

/**
 * The bytes of a multipart body's chunks (writeMultipart's) in order, each Blob or stream read as
 * it is reached.
 */
export async function* multipartChunks(chunks: readonly PartContent[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) {
    if (c instanceof Uint8Array) yield c;
    else yield* (c instanceof Blob ? c.stream() : c) as AsyncIterable<Uint8Array>;
  }
}
