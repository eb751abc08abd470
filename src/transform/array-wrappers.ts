import { inFamily } from "./families.js";
import type { Pass } from "./plan.js";

/**
 * Finds ASMX-style `ArrayOfX` types, a complex type whose only content is one repeated element, so
 * that the API shows them as plain arrays, as .NET's wsdl.exe does. Not a type of a derivation
 * family: its values carry `$type`, which an array cannot.
 */
export const arrayWrappers: Pass = {
  name: "array-wrappers",
  run(plan) {
    for (const t of plan.model.types) {
      if (
        t.kind !== "complex" ||
        inFamily(t) ||
        t.attributes.length > 0 ||
        t.simpleContent ||
        t.mixed ||
        t.anyElements ||
        t.anyAttributes
      )
        continue;
      const only = t.fields.length === 1 ? t.fields[0]! : undefined;
      if (only && only.maxOccurs > 1 && only.choice === undefined) plan.arrayItems.set(t, only);
    }
  },
};
