/**
 * SOAP with Attachments on the server: a request's attachment parts read from its package into
 * the implementation's input, and a response written as a package with the result's parts.
 */
import type { ServerResponse } from "node:http";
import type { SoapOperationDesc } from "../descriptors/operations.js";
import type { SoapVersion } from "../errors.js";
import { MultipartError, type BodyPart } from "../mime/multipart.js";
import { attachmentValues, readSwa, writeSwa } from "../mime/swa.js";
import type { Packed, SecureEnvelope } from "../mime/xop.js";
import { soapFault } from "./respond.js";

/** The attachments of an operation that has none: one object, not one per request. */
const NO_PARTS: Record<string, Uint8Array | Blob> = Object.freeze({});

/**
 * The request's attachment parts the operation declares ({} when it declares none); undefined
 * when a Client fault answered a request that is no package or lacks a part.
 */
export function requestAttachments(
  res: ServerResponse,
  version: SoapVersion,
  op: SoapOperationDesc,
  parts: ReadonlyMap<string, BodyPart> | undefined,
): Record<string, Uint8Array | Blob> | undefined {
  if (!op.attachments) return NO_PARTS;
  const names = op.attachments.map((d) => d.part).join(", ");
  try {
    if (!parts) throw new MultipartError("it is no multipart/related package", "missing-part");
    return readSwa(parts, op.attachments);
  } catch (e) {
    if (!(e instanceof MultipartError)) throw e;
    const message = `The request is not a valid SOAP with Attachments message: ${e.message}; expected the attachment parts ${names}.`;
    soapFault(res, version, 400, "Client", message);
    return undefined;
  }
}

/** `input` with the attachment parts as its properties. */
export function withAttachments(input: unknown, parts: Record<string, Uint8Array | Blob>): unknown {
  if (parts === NO_PARTS || Object.keys(parts).length === 0) return input;
  return Object.assign(input !== null && typeof input === "object" ? input : {}, parts);
}

/**
 * The response package: the envelope, secured beside the result's attachment parts (one that is no
 * Uint8Array, Blob or ReadableStream is a TypeError, the implementation's defect); undefined when
 * the operation has none.
 */
export function responsePackage(
  op: SoapOperationDesc,
  version: SoapVersion,
  result: unknown,
  write: () => string,
  secure: SecureEnvelope,
): Packed | undefined {
  if (!op.responseAttachments) return undefined;
  const bytes = attachmentValues(op.responseAttachments, result, "the result");
  return writeSwa(version, undefined, write, op.responseAttachments, bytes, secure);
}
