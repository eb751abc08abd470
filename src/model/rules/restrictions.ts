/**
 * Restriction: a complex type that restricts another (`complexContent/restriction` of a declared
 * complex type) restates the content it keeps, so its fields are its own, but XML Schema
 * inherits attribute uses through a restriction: it has the attributes of its base (and of the
 * base's bases) that it neither restates nor prohibits (`use="prohibited"`). This runs as a pass
 * once every type is mapped, since a base's attributes are not mapped yet while its content is,
 * and a restriction of it may be met there; while a type is mapped, the rule records what its
 * restriction prohibits (after the derivation rule has found what it restricts).
 */
import { qnameKey } from "../../parse/qname.js";
import type { RawAttribute, RawAttributeGroupRef, RawSchema } from "../../parse/xsd.js";
import type { AttributeField, ComplexType, Mutable } from "../model.js";
import { localAttributeName } from "./attributes.js";
import type { MappingRule } from "./rule.js";

/** What the restriction rule asks of the schema set. */
export interface RestrictionContext {
  /** Records that `ct` restricts a declared complex type, prohibiting `prohibited` (by key). */
  restricts(ct: ComplexType, prohibited: ReadonlySet<string>): void;
}

/** Records, for a type that restricts another, the attributes its restriction prohibits. */
export const restriction: MappingRule<RestrictionContext> = {
  name: "restriction",
  step: "derivation",
  apply({ ct, raw, schema }, cx) {
    const d = raw.complexContent;
    if (ct.restricts !== undefined && d !== undefined)
      cx.restricts(ct, prohibitedAttributes(d.attributes, schema));
  },
};

/**
 * The keys of the attributes a restriction prohibits (`use="prohibited"`), named directly or by
 * reference.
 */
export function prohibitedAttributes(
  list: readonly (RawAttribute | RawAttributeGroupRef)[],
  schema: RawSchema,
): ReadonlySet<string> {
  const out = new Set<string>();
  for (const a of list) {
    if (a.kind !== "attribute" || a.use !== "prohibited") continue;
    out.add(qnameKey(a.ref ?? localAttributeName(a, schema)));
  }
  return out;
}

/**
 * Gives each type of `restrictions` (every type that restricts another, with the keys of the
 * attributes its restriction prohibits) the attributes it inherits, after its own. A base that is
 * itself a restriction is completed first.
 */
export function completeRestrictions(
  restrictions: ReadonlyMap<ComplexType, ReadonlySet<string>>,
): void {
  const done = new Set<ComplexType>();
  const complete = (t: ComplexType): void => {
    const prohibited = restrictions.get(t);
    if (done.has(t) || !t.restricts || !prohibited) return;
    done.add(t);
    const have = new Set(t.attributes.map((a) => qnameKey(a.name)));
    const inherited: AttributeField[] = [];
    for (let c: ComplexType | undefined = t.restricts; c !== undefined; c = c.base) {
      complete(c);
      for (const a of c.attributes) {
        const key = qnameKey(a.name);
        if (have.has(key) || prohibited.has(key)) continue;
        have.add(key);
        inherited.push(a);
      }
    }
    if (inherited.length > 0)
      (t as Mutable<ComplexType>).attributes = [...t.attributes, ...inherited];
  };
  for (const t of restrictions.keys()) complete(t);
}
