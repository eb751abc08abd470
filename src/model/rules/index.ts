/**
 * The rules SchemaSet applies to each complex type as it maps it, in the order of MAPPING_RULES,
 * one rule per file (as xsdata's processors are one list of handlers). The order matters:
 * - `derivation` (derivation-families.ts) first, since the others read the base it finds, and
 *   `restriction` (restrictions.ts) records what a restriction prohibits once it is known;
 * - `content` (flatten.ts) turns the content model into ordered fields, applying at each particle
 *   the choice (choice.ts) and ordered list (ordered-lists.ts) rules, and at each element reference
 *   the substitution groups (substitution-groups.ts);
 * - `attributes` (attributes.ts) gives the attribute uses, groups expanded and refs followed;
 * - `encoded-arrays` (encoded-arrays.ts) last, reshaping what content and attributes made.
 * Derivation rules apply at once, content rules when the content guard lets them (see rule.ts).
 * The binding readers apply one more rule per binding operation, message parts
 * (message-parts.ts). Once every type in use is mapped, the model passes run (../passes.ts).
 */
import { attributes, type AttributeContext } from "./attributes.js";
import { derivation, type DerivationContext } from "./derivation-families.js";
import { encodedArrays, type EncodedArrayContext } from "./encoded-arrays.js";
import { content, type FlattenContext } from "./flatten.js";
import { restriction, type RestrictionContext } from "./restrictions.js";
import type { MappingRule, MappingTarget } from "./rule.js";

/** What the mapping rules ask of the schema set, together. */
export type MappingContext = DerivationContext &
  RestrictionContext &
  FlattenContext &
  AttributeContext &
  EncodedArrayContext;

export const MAPPING_RULES: readonly MappingRule<MappingContext>[] = [
  derivation,
  restriction,
  content,
  attributes,
  encodedArrays,
];

/**
 * Applies `rules` to `target` in order: the derivation rules now, the content rules through
 * `guard` (which may put them off; see ContentDepth in ../schema-guards.ts).
 */
export function applyMappingRules(
  target: MappingTarget,
  cx: MappingContext,
  guard: (content: () => void) => void,
  rules: readonly MappingRule<MappingContext>[] = MAPPING_RULES,
): void {
  for (const r of rules) if (r.step === "derivation") r.apply(target, cx);
  guard(() => {
    for (const r of rules) if (r.step === "content") r.apply(target, cx);
  });
}
