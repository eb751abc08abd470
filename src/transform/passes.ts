/**
 * The plan passes, in the order of PLAN_PASSES, run by `plan` over the model once it is built (the
 * rules applied while the model maps a type are src/model/rules/, in the order of MAPPING_RULES;
 * the model passes, src/model/passes.ts, come before these):
 * - `array-wrappers` decides which types are plain arrays; nothing depends on names yet;
 * - `encoded-values` then finds what SOAP encoding writes with xsi:type (not arrays: they say their
 *   own);
 * - `input-forms` decides which types need an input variant, which changes how many names are
 *   claimed;
 * - `names` claims every name, in model order, once those have fixed what gets declared.
 */
import type { ComplexType, SimpleType, WsdlModel } from "../model/model.js";
import { arrayWrappers } from "./array-wrappers.js";
import { encodedValues } from "./encoded-values.js";
import { inputForms } from "./input-forms.js";
import { names } from "./names.js";
import { emptyPlan } from "./plan-builder.js";
import type { EmitPlan, Pass } from "./plan.js";

export const PLAN_PASSES: readonly Pass[] = [arrayWrappers, encodedValues, inputForms, names];

export function plan(
  model: WsdlModel,
  nameHints: ReadonlyMap<ComplexType | SimpleType, string>,
  pinnedNamespaces: ReadonlyMap<string, string> = new Map(),
): EmitPlan {
  const p = emptyPlan(model, nameHints, pinnedNamespaces);
  for (const pass of PLAN_PASSES) pass.run(p);
  return p;
}
