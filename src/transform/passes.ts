/**
 * The transform passes, in the order they run. The order matters:
 * 1. `array-wrappers` decides which types are plain arrays; nothing depends on names yet.
 *    `encoded-values` then finds what SOAP encoding writes with xsi:type (not arrays: they say
 *    their own).
 * 2. `input-forms` decides which types need an input variant, which changes how many names are
 *    claimed.
 * 3. `names` claims every name, in model order, after 1 and 2 have fixed what gets declared.
 */
import type { ComplexType, SimpleType, WsdlModel } from "../model/model.js";
import { arrayWrappers } from "./array-wrappers.js";
import { encodedValues } from "./encoded-values.js";
import { inputForms } from "./input-forms.js";
import { names } from "./names.js";
import { emptyPlan, type EmitPlan, type Pass } from "./plan.js";

export const PASSES: readonly Pass[] = [arrayWrappers, encodedValues, inputForms, names];

export function plan(
  model: WsdlModel,
  nameHints: ReadonlyMap<ComplexType | SimpleType, string>,
  pinnedNamespaces: ReadonlyMap<string, string> = new Map(),
): EmitPlan {
  const p = emptyPlan(model, nameHints, pinnedNamespaces);
  for (const pass of PASSES) pass.run(p);
  return p;
}
