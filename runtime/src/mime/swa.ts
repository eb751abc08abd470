/**
 * SOAP with Attachments (WS-I Attachments Profile 1.0): an envelope sent as the root part of a
 * multipart/related package, each attachment part of the operation a MIME part beside it whose
 * Content-ID is `<partname=uniqueid@host>` (R2933). Bytes go as the caller's, read as views.
 */
import { randomUUID } from "node:crypto";
import type { AttachmentDesc } from "../descriptors/operations.js";
import { quoted } from "./headers.js";
import {
  binaryPart,
  MultipartError,
  outgoing,
  writeMultipart,
  type BodyPart,
} from "./multipart.js";
import { type MtomBody, type Packed, type SecureEnvelope } from "./xop.js";
import { andThen } from "../support/maybe-async.js";
import { isPartContent, type PartContent } from "../support/message-parts.js";

/**
 * The attachment parts of `value` that `descs` name, in order; a part that is no `Uint8Array`,
 * Blob or ReadableStream is a TypeError (a value the WSDL describes is never dropped).
 */
export function attachmentValues(
  descs: readonly AttachmentDesc[],
  value: unknown,
  what: string,
): PartContent[] {
  return descs.map((d) => {
    const v =
      value !== null && typeof value === "object" && Object.hasOwn(value, d.part)
        ? (value as Record<string, unknown>)[d.part]
        : undefined;
    if (isPartContent(v)) return v;
    throw new TypeError(
      `${what}'s attachment part ${d.part} is not a Uint8Array, a Blob or a ReadableStream`,
    );
  });
}

/**
 * The envelope `write` writes, secured by `secure` (signed, say) beside its attachment parts, and
 * packaged with them, `bytes[i]` being `descs[i]`'s.
 */
export function writeSwa(
  soapVersion: "1.1" | "1.2",
  action: string | undefined,
  write: () => string,
  descs: readonly AttachmentDesc[],
  bytes: readonly PartContent[],
  secure: SecureEnvelope = (xml) => xml,
): Packed {
  const tag = `${randomUUID()}@wsdl-tsgen`;
  const soapType = soapVersion === "1.1" ? "text/xml" : "application/soap+xml";
  const actionParam =
    soapVersion === "1.2" && action !== undefined ? `; action=${quoted(action)}` : "";
  const rootId = `root.${tag}`;
  const parts = descs.map((d, i) => binaryPart(d.type, `${d.part}=${i}.${tag}`, bytes[i]!));
  return andThen(secure(write(), parts), (xml) => {
    const rootType = `${soapType}; charset=UTF-8${actionParam}`;
    const root = binaryPart(rootType, rootId, Buffer.from(xml, "utf8"));
    const body = writeMultipart([root, ...parts].map(outgoing));
    const contentType =
      `multipart/related; type=${quoted(soapType)}; boundary=${quoted(body.boundary)}; ` +
      `start="<${rootId}>"${actionParam}`;
    return { contentType, body, xml };
  });
}

/**
 * The attachment parts `descs` name, read from a package's parts by their Content-ID's
 * `partname=` prefix (R2933); a part missing, or named by two parts, is a MultipartError.
 */
export function readSwa(
  parts: ReadonlyMap<string, BodyPart>,
  descs: readonly AttachmentDesc[],
): Record<string, Uint8Array | Blob> {
  const out: Record<string, Uint8Array | Blob> = {};
  for (const d of descs) {
    const found = [...parts.values()].filter((p) => p.id.startsWith(`${d.part}=`));
    if (found.length === 0)
      throw new MultipartError(
        `no part has a Content-ID <${d.part}=…> for the attachment part ${d.part}`,
        "missing-part",
      );
    if (found.length > 1)
      throw new MultipartError(
        `two parts have a Content-ID <${d.part}=…> for the attachment part ${d.part}`,
        "duplicate-part",
      );
    out[d.part] = found[0]!.content;
  }
  return out;
}
