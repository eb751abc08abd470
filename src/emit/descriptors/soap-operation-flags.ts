/**
 * Flags of a SOAP operation's descriptor beside its bodies, headers and faults: one-way, and the
 * attachment parts of SOAP with Attachments (SoapOperationDesc.attachments).
 */
import type { AttachmentPart, BindingOperation, SoapBindingOperation } from "../../model/model.js";
import { array, object, type Code } from "../code.js";
import type { Props } from "./emit-descriptors.js";

/** `oneWay`, `attachments` and `responseAttachments`, those that apply. */
export function soapFlags(bop: SoapBindingOperation): Props {
  const props: Props = [];
  if (!bop.hasOutput) props.push(["oneWay", "true"]);
  const list = (parts: readonly AttachmentPart[]): Code =>
    array(
      parts.map((p) =>
        object([
          ["part", JSON.stringify(p.name)],
          ["type", JSON.stringify(p.contentTypes[0]!)],
        ]),
      ),
    );
  // The operation's parts, which its types hold, where bindings disagree (a warning says so).
  const parts = bop.operation.attachments;
  if (parts?.input.length) props.push(["attachments", list(parts.input)]);
  if (parts?.output.length) props.push(["responseAttachments", list(parts.output)]);
  return props;
}

/** Whether a binding operation's input or output is SOAP-encoded (`use="encoded"`). */
export const usesEncoding = (bop: BindingOperation): boolean =>
  [bop.inputEncoding, bop.outputEncoding].some((e) => e.kind === "soapBody" && e.use === "encoded");
