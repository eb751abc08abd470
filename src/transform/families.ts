/**
 * Derivation families: a complex type with types that extend or restrict it
 * (`ComplexType.derived`). Where such a type is declared, a value of any concrete type of its
 * family may stand, marked on the wire with `xsi:type` and in JS with `$type`.
 */
import type { ComplexType } from "../model/model.js";

/**
 * Every type that extends or restricts `t`, directly or not, depth first in schema order (each
 * once).
 */
export function descendants(t: ComplexType): ComplexType[] {
  const out: ComplexType[] = [];
  const seen = new Set<ComplexType>([t]);
  const walk = (c: ComplexType): void => {
    for (const d of c.derived) {
      if (seen.has(d)) continue;
      seen.add(d);
      out.push(d);
      walk(d);
    }
  };
  walk(t);
  return out;
}

/**
 * The types a value declared as `t` may have: `t` unless abstract, then its concrete descendants.
 */
export function concreteMembers(t: ComplexType): ComplexType[] {
  return [t, ...descendants(t)].filter((c) => !c.abstract);
}
