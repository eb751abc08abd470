/**
 * SOAP with Attachments in the operation types: each attachment part of an input or output is a
 * `Uint8Array` property beside the body's fields (`Request & { scan: Uint8Array }`).
 */
import type { AttachmentPart } from "../../model/model.js";
import { cat, type Code } from "../code.js";
import { propertyKey } from "../../names/identifiers.js";

/** `t`, with one required `Uint8Array` property per part when there are any. */
export function withAttachments(t: Code, parts: readonly AttachmentPart[] | undefined): Code {
  if (!parts || parts.length === 0) return t;
  const props = parts.map((p) => `${propertyKey(p.name)}: Uint8Array`).join("; ");
  return cat(t, ` & { ${props} }`);
}
