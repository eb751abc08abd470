/**
 * The MIME binding's `mime:multipartRelated` parts besides the one holding soap:body: attachments
 * of SOAP with Attachments (WSDL 1.1 §5, WS-I Attachments Profile 1.0).
 */
import { diagnostic, type Diagnostic, type SourceLocation } from "../diagnostics.js";
import type { XmlElement } from "./dom.js";
import { NS } from "./namespaces.js";
import type { RawAttachment } from "./wsdl-raw.js";
import { attr } from "./xml.js";

/**
 * A mime:part without soap:body: an attachment when it holds only `mime:content`s naming one
 * message part; any other form (mime:mimeXml, no content, two parts) is a located warning.
 */
export function attachmentPart(
  part: XmlElement,
  loc: SourceLocation,
  warnings: Diagnostic[],
): RawAttachment | undefined {
  const contents = part.elements.filter((x) => x.namespaceURI === NS.mime);
  const names = new Set(contents.map((c) => attr(c, "part")));
  const plain = contents.every((c) => c.localName === "content");
  const name = [...names][0];
  if (contents.length > 0 && plain && names.size === 1 && name !== undefined)
    return { part: name, types: contents.flatMap((c) => attr(c, "type") ?? []), loc };
  const content = contents.find((c) => c.localName !== "content") ?? contents[0];
  const attrs = ["part", "type"].flatMap((a) => {
    const v = content && attr(content, a);
    return v === undefined ? [] : [` ${a}="${v}"`];
  });
  const what = content ? `<${content.tagName}${attrs.join("")}>` : "no content";
  warnings.push(
    diagnostic(
      "WSDL_MIME_PART_SKIPPED",
      `found a MIME part with ${what} in mime:multipartRelated; expected soap:body, or mime:content elements naming one message part (an attachment), so this part is left out`,
      loc,
      "warning",
    ),
  );
  return undefined;
}
