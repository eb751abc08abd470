/**
 * What a model type refers to: one list, so that every pass that walks the types sees the same
 * edges.
 */
import type { ComplexType, TypeRef } from "./model.js";

/**
 * The types a complex type refers to, in model order: its base (extended or restricted), the types
 * derived from it, each field's type followed by the types of the elements that may stand in the
 * field's place (substitution group members), its attributes' types, and its text's type.
 */
export function referencedTypes(t: ComplexType): TypeRef[] {
  const out: TypeRef[] = [];
  if (t.base) out.push(t.base);
  if (t.restricts) out.push(t.restricts);
  out.push(...t.derived);
  for (const f of t.fields) {
    out.push(f.type);
    for (const m of f.substitutes?.members ?? []) out.push(m.type);
  }
  for (const a of t.attributes) out.push(a.type);
  if (t.simpleContent) out.push(t.simpleContent);
  return out;
}
