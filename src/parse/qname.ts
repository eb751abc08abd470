import type { XmlElement } from "./dom.js";

/** A namespace-qualified name. `ns` is "" for no namespace. */
export interface QName {
  readonly ns: string;
  readonly local: string;
  /**
   * Set when the name was written with a prefix that no xmlns declaration binds (then `ns` is "").
   * Lookups resolve such a name by its local name alone, with a warning, or report it.
   */
  readonly unboundPrefix?: string;
}

export const qname = (ns: string, local: string): QName => ({ ns, local });
export const qnameKey = (q: QName): string => `{${q.ns}}${q.local}`;
export const sameQName = (a: QName, b: QName): boolean => a.ns === b.ns && a.local === b.local;

/** Resolves a `prefix:local` attribute value against the namespaces in scope at `el`. */
export function resolveQNameValue(el: XmlElement, value: string): QName {
  const v = value.trim();
  const colon = v.indexOf(":");
  const prefix = colon === -1 ? null : v.slice(0, colon);
  const local = colon === -1 ? v : v.slice(colon + 1);
  const ns = el.lookupNamespaceURI(prefix ?? "");
  // An unbound prefix is a defect of the document, but a recoverable one: the lookup decides.
  if (ns === null && prefix !== null) return { ns: "", local, unboundPrefix: prefix };
  return { ns: ns ?? "", local };
}
