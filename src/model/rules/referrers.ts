/**
 * Global components by the component each names (a base, a substitution group head): the index two
 * rules share.
 */
import { qnameKey, type QName } from "../../parse/qname.js";
import type { RawSchema } from "../../parse/xsd.js";

/** A named global component, with its schema. */
export interface Declared<R> {
  readonly name: QName;
  readonly raw: R;
  readonly schema: RawSchema;
}

/**
 * The named components of `declared` by the key of the name `names` reads from each (those that
 * name none are left out), in schema order.
 */
export function referrers<R extends { readonly name?: string }>(
  declared: ReadonlyMap<string, { readonly raw: R; readonly schema: RawSchema }>,
  names: (raw: R) => QName | undefined,
): Map<string, Declared<R>[]> {
  const out = new Map<string, Declared<R>[]>();
  for (const { raw, schema } of declared.values()) {
    const named = names(raw);
    if (named === undefined || raw.name === undefined) continue;
    const k = qnameKey(named);
    const list = out.get(k) ?? [];
    list.push({ name: { ns: schema.targetNamespace, local: raw.name }, raw, schema });
    out.set(k, list);
  }
  return out;
}
