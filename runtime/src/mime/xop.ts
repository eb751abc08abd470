/**
 * MTOM (SOAP Message Transmission Optimization, W3C 2005) over XOP: a SOAP envelope whose
 * base64Binary values are attachment parts of a multipart/related package, each standing in the
 * envelope as an `xop:Include href="cid:…"`. Read into `Uint8Array` views of the body, written
 * from the caller's bytes: an attachment is never turned into text.
 */
import { andThen } from "../support/maybe-async.js";
import { XmlDecodeError, type XopAttachments } from "../xml/decode-options.js";
import { withBinaryParts } from "../xml/write-scalars.js";
import { XOP_NS } from "../xml/namespaces.js";
import { escapeAttr } from "../xml/escape.js";
import { randomUUID } from "node:crypto";
import { bareContentId, cidOf, cidUrl, parseMediaType, quoted, type MediaType } from "./headers.js";
import {
  binaryPart,
  MultipartError,
  outgoing,
  parseMultipart,
  writeMultipart,
  type BodyPart,
  type MultipartBody,
  type MultipartLimits,
} from "./multipart.js";
import type { MessagePart } from "../support/message-parts.js";
import { readMultipartStream, type StreamLimits } from "./multipart-stream.js";
import type { Spool } from "./spool.js";

export const XOP_TYPE = "application/xop+xml";

/** A multipart/related message read: its root (the envelope) and the attachments it may include. */
export interface MtomMessage {
  /** The envelope's bytes, a view of the body. */
  readonly root: Uint8Array;
  /** The envelope's own media type: text/xml (SOAP 1.1) or application/soap+xml (SOAP 1.2). */
  readonly soapType: MediaType;
  /** The envelope's charset, if its part declares one. */
  readonly charset: string | undefined;
  /** Resolves the envelope's `xop:Include`s (see DecodeOptions.xop). */
  readonly attachments: XopAttachments;
  /** The parts besides the root, by Content-ID (SOAP with Attachments reads them, see swa.ts). */
  readonly parts: ReadonlyMap<string, BodyPart>;
}

/** Whether a Content-Type is a multipart/related package (MTOM or SOAP with Attachments). */
export const isMultipartRelated = (ct: MediaType): boolean => ct.type === "multipart/related";

/**
 * Reads a multipart/related body: the root part is the one `start` names (the first when it names
 * none), an XOP package (`application/xop+xml`) or a plain envelope with attachments.
 */
export function readMtom(body: Uint8Array, ct: MediaType, limits: MultipartLimits): MtomMessage {
  return messageOf(parseMultipart(body, boundaryOf(ct), limits), ct);
}

/**
 * readMtom of a body read as it arrives: attachment parts of at least `limits.spoolBytes` are
 * spooled to `spool`'s files and given as Blobs (the caller releases the spool, also on failure).
 */
export async function readMtomStream(
  chunks: AsyncIterable<Uint8Array>,
  ct: MediaType,
  limits: StreamLimits,
  spool: Spool,
): Promise<MtomMessage> {
  const parts = await readMultipartStream(
    chunks,
    boundaryOf(ct),
    ct.params["start"],
    limits,
    spool,
  );
  return messageOf(parts, ct);
}

function boundaryOf(ct: MediaType): string {
  const boundary = ct.params["boundary"];
  if (boundary === undefined)
    throw new MultipartError("the multipart/related Content-Type has no boundary", "malformed");
  return boundary;
}

/** The message of a package's parts: its root, the one `start` names (the first when none). */
function messageOf(parts: readonly BodyPart[], ct: MediaType): MtomMessage {
  const byId = new Map<string, BodyPart>();
  for (const p of parts) {
    if (p.id === "") continue;
    if (byId.has(p.id))
      throw new MultipartError(`two parts have the Content-ID <${p.id}>`, "duplicate-part");
    byId.set(p.id, p);
  }
  const start = ct.params["start"];
  const root = start === undefined ? parts[0]! : byId.get(bareContentId(start));
  if (root === undefined)
    throw new MultipartError(
      `no part has the Content-ID ${start} that start names`,
      "missing-part",
    );
  let soapType = root.contentType;
  if (soapType.type === XOP_TYPE)
    soapType = parseMediaType(root.contentType.params["type"] ?? ct.params["start-info"] ?? "");
  if (soapType.type !== "text/xml" && soapType.type !== "application/soap+xml")
    throw new MultipartError(
      `the root part's type '${root.contentType.type}' is no SOAP envelope; expected ${XOP_TYPE} of text/xml or application/soap+xml`,
      "unsupported",
    );
  byId.delete(root.id);
  if (!(root.content instanceof Uint8Array))
    throw new MultipartError("the root part was not read into memory", "malformed");
  return {
    root: root.content,
    soapType,
    charset: root.contentType.params["charset"],
    attachments: attachmentsOf(byId),
    parts: byId,
  };
}

/** Each part included once: a second `xop:Include` of a part would give one value twice. */
function attachmentsOf(byId: ReadonlyMap<string, BodyPart>): XopAttachments {
  const used = new Set<string>();
  return {
    include(href: string): Uint8Array | Blob {
      const id = cidOf(href);
      const shown = JSON.stringify(href.slice(0, 100));
      if (id === undefined)
        throw new XmlDecodeError(`xop:Include href ${shown} is not a cid: URL`, "malformed");
      const part = byId.get(id);
      if (part === undefined)
        throw new XmlDecodeError(
          `xop:Include href ${shown} names no part of the message`,
          "malformed",
        );
      if (used.has(id))
        throw new XmlDecodeError(
          `xop:Include href ${shown} names a part included already`,
          "malformed",
        );
      used.add(id);
      return part.content;
    },
  };
}

/** When binaries go as attachments: those of at least `threshold` bytes. */
export interface MtomPolicy {
  readonly threshold: number;
}

/** An envelope written as an MTOM package: its Content-Type and the body's chunks. */
export interface MtomBody {
  readonly contentType: string;
  readonly body: MultipartBody;
  /** The envelope as written in the root part, `xop:Include`s in place of its attachments. */
  readonly xml: string;
}

/**
 * Runs `write`, which writes an envelope: each base64Binary value of at least `threshold` bytes
 * written in it becomes an attachment. Then `secure` (signing, say) has the envelope beside its
 * attachments, and the envelope it gives is packaged with them.
 */
export function writeMtom(
  policy: MtomPolicy,
  soapVersion: "1.1" | "1.2",
  action: string | undefined,
  write: () => string,
  secure: SecureEnvelope = (xml) => xml,
): Packed {
  const tag = randomUUID();
  const attachments: MessagePart[] = [];
  const written = withBinaryParts((bytes) => {
    // A Blob or a stream always goes as a part: as text it would be read whole.
    if (bytes instanceof Uint8Array && bytes.byteLength < policy.threshold) return undefined;
    const id = `${attachments.length + 1}.${tag}@wsdl-tsgen`;
    attachments.push(binaryPart("application/octet-stream", id, bytes));
    return `<xop:Include xmlns:xop="${XOP_NS}" href="${escapeAttr(cidUrl(id))}"/>`;
  }, write);
  return andThen(secure(written, attachments), (xml) => {
    const soapType = soapVersion === "1.1" ? "text/xml" : "application/soap+xml";
    const typeParam =
      soapType +
      (soapVersion === "1.2" && action !== undefined ? `; action=${quoted(action)}` : "");
    const rootId = `0.${tag}@wsdl-tsgen`;
    const rootType = `${XOP_TYPE}; charset=UTF-8; type=${quoted(typeParam)}`;
    const root = binaryPart(rootType, rootId, Buffer.from(xml, "utf8"));
    const body = writeMultipart([root, ...attachments].map(outgoing));
    const contentType =
      `multipart/related; type="${XOP_TYPE}"; boundary=${quoted(body.boundary)}; ` +
      `start="<${rootId}>"; start-info=${quoted(soapType)}` +
      (soapVersion === "1.2" && action !== undefined ? `; action=${quoted(action)}` : "");
    return { contentType, body, xml };
  });
}

/**
 * Secures an envelope beside the attachment parts it is sent with (see `securing`): a promise when
 * the parts are read first (a signature over Blobs).
 */
export type SecureEnvelope = (
  xml: string,
  parts: readonly MessagePart[],
) => string | Promise<string>;

/** A package, or its promise when its envelope's securing reads the parts first. */
export type Packed = MtomBody | Promise<MtomBody>;
