import type { Element } from "@xmldom/xmldom";
import { fail } from "../diagnostics.js";
import { locOf } from "./xml.js";

/** A namespace-qualified name. `ns` is "" for no namespace. */
export interface QName {
  readonly ns: string;
  readonly local: string;
}

export const qname = (ns: string, local: string): QName => ({ ns, local });
export const qnameKey = (q: QName): string => `{${q.ns}}${q.local}`;
export const sameQName = (a: QName, b: QName): boolean => a.ns === b.ns && a.local === b.local;

/** Resolves a `prefix:local` attribute value against the namespaces in scope at `el`. */
export function resolveQNameValue(el: Element, value: string, file: string, attrName: string): QName {
  const v = value.trim();
  const colon = v.indexOf(":");
  const prefix = colon === -1 ? null : v.slice(0, colon);
  const local = colon === -1 ? v : v.slice(colon + 1);
  // xmldom 0.9 finds the default namespace only for "", not for null.
  const ns = el.lookupNamespaceURI(prefix ?? "");
  if (ns === null && prefix !== null) {
    fail(
      "XML_UNBOUND_PREFIX",
      `attribute ${attrName}="${value}" uses the prefix "${prefix}", which no xmlns declaration in scope binds`,
      locOf(file, el),
    );
  }
  return { ns: ns ?? "", local };
}
