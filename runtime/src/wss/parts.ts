/**
 * What signing and verifying both find in an envelope: its version, Header and Body, the elements
 * by Id, and where a start tag ends in the text (to add attributes to it).
 */
import type { SoapVersion } from "../errors.js";
import { SOAP11_ENV, SOAP12_ENV } from "../soap/envelope.js";
import { WSU_NS } from "../soap/ws-security.js";
import { SecurityRefusal } from "../soap/message-security.js";
import { attrValue, elementsOf, type SigElement } from "./tree.js";
import { XML_URI } from "../xml/namespaces.js";

export interface EnvelopeParts {
  readonly version: SoapVersion;
  readonly envelope: SigElement;
  readonly header: SigElement | undefined;
  readonly body: SigElement;
}

/** The parts of a SOAP envelope; a refusal when `root` is none. */
export function envelopeParts(root: SigElement): EnvelopeParts {
  const version = root.ns === SOAP11_ENV ? "1.1" : root.ns === SOAP12_ENV ? "1.2" : undefined;
  if (root.local !== "Envelope" || version === undefined)
    throw new SecurityRefusal("the message is not a SOAP envelope", "malformed");
  // Exactly an optional Header and one Body: a second of either is what a wrapping attack hides
  // its own content in, beside the signed one (WS-I Basic Profile R1011, R2214).
  const children = elementsOf(root);
  const first = children[0];
  const header = first?.ns === root.ns && first.local === "Header" ? first : undefined;
  const body = children[header ? 1 : 0];
  if (body?.ns !== root.ns || body.local !== "Body" || children.length > (header ? 2 : 1))
    throw new SecurityRefusal(
      "the SOAP envelope holds other than one optional Header and one Body",
      "malformed",
    );
  return { version, envelope: root, header, body };
}

/**
 * The Ids an element carries: `wsu:Id`, and the `Id`, `ID` and `xml:id` that XML Signature
 * references may name too (as WSS4J and xmlsec resolve them).
 */
export function idsOf(el: SigElement): string[] {
  const ids: string[] = [];
  for (const a of el.attrs) {
    const isId =
      (a.uri === WSU_NS && a.local === "Id") ||
      (a.uri === "" && (a.local === "Id" || a.local === "ID")) ||
      (a.uri === XML_URI && a.local === "id");
    if (isId) ids.push(a.value);
  }
  return ids;
}

/** The element's wsu:Id. */
export const wsuId = (el: SigElement): string | undefined => attrValue(el, WSU_NS, "Id");

/** The child elements {ns}local of `el`. */
export function childrenNamed(el: SigElement, ns: string, local: string): SigElement[] {
  return elementsOf(el).filter((c) => c.ns === ns && c.local === local);
}

/** The prefixed name of `el` as written. */
export const writtenName = (el: SigElement): string =>
  el.prefix ? `${el.prefix}:${el.local}` : el.local;

/**
 * Where the start tag at `offset` in `xml` ends: the index of its `>` (quotes skipped, since a value
 * may hold `>`).
 */
export function startTagEnd(xml: string, offset: number): number {
  let quote = 0;
  for (let i = offset + 1; i < xml.length; i++) {
    const c = xml.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 62) return i;
  }
  return -1;
}
