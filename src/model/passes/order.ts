/**
 * The model's XSD rules, in the order they apply. SchemaSet maps lazily, a type when something
 * first refers to it, so most rules are functions it calls while mapping a type, not passes over
 * mapped types:
 * 1. While a complex type is mapped (`SchemaSet.complexType`), in this order:
 *    - `derivation-families.ts` checks that its base does not derive from it (`acyclicBase`);
 *    - `flatten.ts` turns its content model into ordered fields; `choice.ts` marks the fields
 *      of each choice's branches as it goes, and `substitution-groups.ts` lists, at each element
 *      reference, the members that may stand for it;
 *    - `attributes.ts` gives its attributes, groups expanded and refs followed;
 *    - `encoded-arrays.ts` reshapes a restriction of soapenc:Array into an array of its items.
 *    And for each SOAP binding operation, `message-parts.ts` makes its messages' parts fields and
 *    bodies (called by services.ts, mapping the types the parts name as above).
 * 2. While build.ts walks the types in use: `derivation-families.ts` finds the types derived from
 *    each (`SchemaSet.derivedOf`), which are in use too, and so is what they reach: a walk
 *    after mapping would have to repeat the reaching.
 * 3. After mapping, in `AFTER_MAPPING` order, once every type in use is mapped:
 *    - `restrictions.ts` gives each restriction the attributes it inherits, which needs its
 *      bases' attributes mapped.
 */
import type { SchemaSet } from "../schema-set.js";
import { completeRestrictions } from "./restrictions.js";

/** A rule that runs over the mapped types. */
export interface ModelPass {
  readonly name: string;
  run(schemas: SchemaSet): void;
}

export const AFTER_MAPPING: readonly ModelPass[] = [
  { name: "restrictions", run: (schemas) => completeRestrictions(schemas.restrictions) },
];
