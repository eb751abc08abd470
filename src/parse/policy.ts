/**
 * WS-Policy on a WSDL binding, as far as the generator acts on it: whether the binding's policy
 * asks for MTOM (`wsoma:OptimizedMimeSerialization`), inline or by `wsp:PolicyReference` to a
 * `wsp:Policy` of the same document, as WCF publishes it.
 */
import type { XmlElement } from "./dom.js";

const POLICY_NS = new Set([
  "http://schemas.xmlsoap.org/ws/2004/09/policy",
  "http://www.w3.org/ns/ws-policy",
]);
const WSOMA_NS = "http://schemas.xmlsoap.org/ws/2004/09/policy/optimizedmimeserialization";
const WSU_NS = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
const XML_NS = "http://www.w3.org/XML/1998/namespace";

const isPolicy = (e: XmlElement, local: string): boolean =>
  e.localName === local && POLICY_NS.has(e.namespaceURI ?? "");

/** The id a `wsp:Policy` is referred to by (`wsu:Id`, `xml:id` or an unqualified `Id`). */
const policyId = (e: XmlElement): string | null =>
  e.getAttributeNS(WSU_NS, "Id") ?? e.getAttributeNS(XML_NS, "id") ?? e.getAttribute("Id");

/**
 * Whether `binding`'s policies (its own `wsp:Policy` children, and those its `wsp:PolicyReference`s
 * name by `#id` among `definitions`' children) hold an OptimizedMimeSerialization assertion that
 * is not `wsp:Optional`: an optional one lets a client choose, and plain messages stay the default.
 */
export function bindingAsksForMtom(binding: XmlElement, definitions: XmlElement): boolean {
  const policies: XmlElement[] = [];
  for (const c of binding.elements) {
    if (isPolicy(c, "Policy")) policies.push(c);
    const uri = isPolicy(c, "PolicyReference") ? c.getAttribute("URI") : null;
    if (uri === null || !uri.startsWith("#")) continue;
    const named = definitions.elements.find(
      (p) => isPolicy(p, "Policy") && policyId(p) === uri.slice(1),
    );
    if (named) policies.push(named);
  }
  return policies.some(holdsMtom);
}

function holdsMtom(e: XmlElement): boolean {
  if (e.localName === "OptimizedMimeSerialization" && e.namespaceURI === WSOMA_NS) {
    const optional = [...POLICY_NS].map((ns) => e.getAttributeNS(ns, "Optional")).find((v) => v);
    return optional !== "true" && optional !== "1";
  }
  return e.elements.some(holdsMtom);
}
