/**
 * The client's multipart/related requests, MTOM and SOAP with Attachments, and the attachment
 * parts of a SOAP with Attachments response.
 */
import type { AttachmentDesc, SoapOperationDesc } from "../descriptors/operations.js";
import { ResponseFormatError, type SoapVersion } from "../errors.js";
import { multipartChunks, MultipartError } from "../mime/multipart.js";
import type { PartContent } from "../support/message-parts.js";
import { attachmentValues, readSwa, writeSwa } from "../mime/swa.js";
import type { MtomBody, SecureEnvelope } from "../mime/xop.js";
import { andThen } from "../support/maybe-async.js";
import type { Received } from "./received.js";

/** The envelopes of packaged request bodies, for `trace` (the body's root part, as text). */
export const packaged = new WeakMap<object, string>();

/** The POST of a package: the envelope and its parts, sent as they are. */
export function packagedRequest(
  pkg: MtomBody,
  version: SoapVersion,
  action: string | undefined,
): RequestInit {
  const { contentType, body, xml } = pkg;
  const headers: Record<string, string> = { "Content-Type": contentType, "MIME-Version": "1.0" };
  if (version === "1.1") headers["SOAPAction"] = `"${action ?? ""}"`;
  const chunks = body.chunks;
  if (body.length !== undefined && body.length <= STREAMED_FROM && chunks.every(inMemory)) {
    const bytes = Buffer.concat(chunks, body.length);
    packaged.set(bytes, xml);
    return { method: "POST", headers, body: bytes };
  }
  // fetch copies a byte body whole; a stream's chunks (the caller's bytes, a Blob's or a stream's
  // as they are read) it sends as they come. Without a length (a part is a stream), it is chunked.
  const stream = ReadableStream.from(multipartChunks(chunks));
  packaged.set(stream, xml);
  if (body.length !== undefined) headers["Content-Length"] = String(body.length);
  // Unless redirects are an error, fetch clones the request to follow one, and the clone's tee
  // keeps every chunk sent (a 1 GiB part held whole); a streamed body cannot be sent twice anyway.
  const init = { method: "POST", headers, body: stream, duplex: "half", redirect: "error" };
  return init as RequestInit;
}

const inMemory = (c: PartContent): c is Uint8Array => c instanceof Uint8Array;

/** Package request bodies larger than this are streamed from their parts rather than joined. */
const STREAMED_FROM = 1024 * 1024;

/**
 * The POST of a SOAP with Attachments request: the envelope `write` writes, secured beside the
 * input's attachment parts (a part that is no Uint8Array is a TypeError, before anything is sent).
 */
export function swaRequest(
  name: string,
  attachments: readonly AttachmentDesc[],
  action: string | undefined,
  version: SoapVersion,
  input: unknown,
  write: () => string,
  secure: SecureEnvelope,
): RequestInit | Promise<RequestInit> {
  const bytes = attachmentValues(attachments, input, `the input of ${name}`);
  const pkg = writeSwa(version, action, write, attachments, bytes, secure);
  return andThen(pkg, (p) => packagedRequest(p, version, action));
}

/**
 * The result with the response's attachment parts as its properties; a response that is no
 * package, or lacks a part, is a ResponseFormatError.
 */
export function withResponseAttachments(
  op: SoapOperationDesc,
  result: unknown,
  res: Received,
): unknown {
  if (!op.responseAttachments) return result;
  const fail = (why: string, cause?: unknown) =>
    new ResponseFormatError(
      `the response ${why}; expected a multipart/related package with the attachment parts ${op.responseAttachments!.map((d) => d.part).join(", ")}`,
      res.status,
      res.text,
      cause,
    );
  const parts = res.parts;
  if (!parts) throw fail("is no multipart/related package");
  try {
    const read = readSwa(parts, op.responseAttachments);
    return Object.assign(result !== null && typeof result === "object" ? result : {}, read);
  } catch (e) {
    if (e instanceof MultipartError) throw fail(e.message, e);
    throw e;
  }
}
