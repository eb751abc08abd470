/**
 * SOAP with Attachments (WS-I Attachments Profile 1.0): the message parts a binding's
 * `mime:multipartRelated` binds to `mime:content`, read into the attachment parts of an operation.
 */
import type { DiagnosticBag } from "../diagnostics.js";
import type { RawBindingIO, RawBindingOperation, RawMessage } from "../parse/wsdl.js";
import { recovery } from "../recovery.js";
import type { AttachmentPart, Operation, OperationAttachments } from "./model.js";

/**
 * The attachment parts of one input or output. A `mime:content` naming a part the message lacks,
 * a part soap:body also lists, or a part named twice is left out with a located diagnostic.
 */
export function attachmentParts(
  msg: RawMessage | undefined,
  io: RawBindingIO | undefined,
  diagnostics: DiagnosticBag,
): AttachmentPart[] {
  const out: AttachmentPart[] = [];
  for (const a of io?.attachments ?? []) {
    const where = `mime:content part="${a.part}"`;
    if (!msg || !msg.parts.some((p) => p.name === a.part)) {
      const parts = msg?.parts.map((p) => p.name).join(", ") || "none";
      diagnostics.add(
        recovery(
          "WSDL_UNRESOLVED",
          `${where} names a part that message ${msg?.name ?? "(none)"} lacks; expected one of its parts (${parts}); the attachment is left out`,
          a.loc,
        ),
      );
    } else if (io?.soapBody?.parts?.includes(a.part) || out.some((o) => o.name === a.part)) {
      const twice = out.some((o) => o.name === a.part) ? "another mime:part" : "soap:body";
      diagnostics.warn(
        "WSDL_MIME_PART_SKIPPED",
        `${where} names a part that ${twice} binds too; expected each part bound once; the attachment is left out`,
        a.loc,
      );
    } else
      out.push({
        kind: "attachment",
        name: a.part,
        contentTypes: a.types.length > 0 ? a.types : ["application/octet-stream"],
        loc: a.loc,
      });
  }
  return out;
}

/**
 * Says when a binding binds other attachment parts than the binding that declared the operation
 * first: the typed input and result carry that binding's, which this binding would not send.
 */
export function unlikeAttachments(
  op: Operation,
  attachments: OperationAttachments | undefined,
  bop: RawBindingOperation,
  diagnostics: DiagnosticBag,
): void {
  const names = (a: OperationAttachments | undefined) =>
    a ? `input ${listed(a.input)}, output ${listed(a.output)}` : "none";
  if (names(op.attachments) === names(attachments)) return;
  diagnostics.warn(
    "WSDL_MIME_PART_SKIPPED",
    `operation ${bop.name} binds the attachment parts ${names(attachments)} here, but ${names(op.attachments)} in the binding that declared it first; expected the same parts in each SOAP binding; the typed values follow the first binding`,
    bop.loc,
  );
}

const listed = (parts: readonly AttachmentPart[]): string =>
  parts.length ? parts.map((p) => p.name).join(", ") : "none";
