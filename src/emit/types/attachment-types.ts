/**
 * SOAP with Attachments in the operation types: each attachment part of an input or output is a
 * property beside the body's fields (`Request & { scan: ReceivedBinary }`, a Uint8Array or a Blob).
 */
import type { AttachmentPart } from "../../model/model.js";
import { cat, type Code } from "../code.js";
import { propertyKey } from "../../names/identifiers.js";
import { binaryForm, type Mode } from "../type-expressions.js";
import type { EmitContext } from "../context.js";

/**
 * `t`, with one required property per part when there are any: bytes or a Blob (a large part
 * received is spooled to a file), and on input also a stream.
 */
export function withAttachments(
  ctx: EmitContext,
  t: Code,
  parts: readonly AttachmentPart[] | undefined,
  mode: Mode,
): Code {
  if (!parts || parts.length === 0) return t;
  const type = binaryForm(ctx, mode);
  const props = parts.map((p) => `${propertyKey(p.name)}: ${type}`).join("; ");
  return cat(t, ` & { ${props} }`);
}
