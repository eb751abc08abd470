/**
 * What a sample puts in a required `xs:any` (sample-values.ts in the runtime): an element of a
 * namespace the wildcard admits. A strict wildcard (processContents absent or "strict") admits only
 * an element the schemas declare, so a global one is taken whose empty content is valid (no type,
 * or a string type, neither abstract nor fixed); a lax or skip one, or a strict one no declared
 * element meets, gets `sample` in a namespace it admits.
 */
import type { RawAny, RawElement } from "../../parse/xsd.js";
import { NS } from "../../parse/namespaces.js";

/** A namespace no schema declares elements in: what fills `##any` and `##other` wildcards. */
const SAMPLE_ANY_NS = "urn:wsdl-tsgen:sample";

/** A global element declaration, with the namespace of its schema. */
export interface DeclaredElement {
  readonly ns: string;
  readonly raw: RawElement;
}

/** The element a required wildcard's sample holds: a declared one's local name, or none. */
export interface WildcardSample {
  readonly ns: string;
  readonly element?: string;
}

/** Built-in types whose empty value is valid: an empty element of one meets its type. */
const EMPTY_OK = new Set(["string", "normalizedString", "token", "anySimpleType", "anyType"]);

/** The tokens of a wildcard's `namespace` attribute. */
const tokensOf = (attr: string | undefined): string[] => (attr ?? "##any").trim().split(/\s+/);

/** Whether the wildcard `namespace="attr"` of a schema for `target` admits `ns`. */
function admits(attr: string | undefined, target: string, ns: string): boolean {
  const tokens = tokensOf(attr);
  if (tokens.includes("##any") || tokens.includes("")) return true;
  if (tokens.includes("##other")) return ns !== target && ns !== "";
  return tokens.some((t) =>
    t === "##local" ? ns === "" : t === "##targetNamespace" ? ns === target : t === ns,
  );
}

/** Whether an empty element of the declaration `raw` is valid. */
function emptyValid(raw: RawElement): boolean {
  if (raw.abstract || raw.fixed !== undefined || raw.name === undefined) return false;
  if (raw.complexType || raw.simpleType) return false;
  return raw.type === undefined || (raw.type.ns === NS.xsd && EMPTY_OK.has(raw.type.local));
}

/** A namespace the wildcard admits, for an undeclared sample element. */
function admittedNamespace(attr: string | undefined, target: string): string {
  const first = tokensOf(attr)[0] ?? "##any";
  if (first === "##local") return "";
  if (first === "##targetNamespace") return target;
  return first === "##any" || first === "##other" || first === "" ? SAMPLE_ANY_NS : first;
}

/** What the sample of the required wildcard `item` (in a schema for `target`) holds. */
export function wildcardSample(
  item: RawAny,
  target: string,
  declared: () => Iterable<DeclaredElement>,
): WildcardSample {
  const strict = (item.processContents ?? "strict") === "strict";
  if (strict)
    for (const d of declared())
      if (admits(item.namespace, target, d.ns) && emptyValid(d.raw))
        return { ns: d.ns, element: d.raw.name! };
  return { ns: admittedNamespace(item.namespace, target) };
}
