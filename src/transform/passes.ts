/**
 * Every rule of generation, in the order it applies, and why; one file each in src/transform/.
 *
 * 1. Mapping rules, called while SchemaSet maps a type (schema-set.ts maps lazily, a type when
 *    something first refers to it: see there for why and what it saves), in this order:
 *    - `derivation-families.ts` checks that a complex type's base does not derive from it
 *      (`acyclicBase`);
 *    - `flatten.ts` turns its content model into ordered fields; `choice.ts` marks the fields of
 *      each choice's branches as it goes, `ordered-lists.ts` puts those of a repeated choice (or of a
 *      repeated sequence holding one) in one ordered list, and `substitution-groups.ts` lists, at
 *      each element reference, the members that may stand for it;
 *    - `attributes.ts` gives its attributes, groups expanded and refs followed;
 *    - `encoded-arrays.ts` reshapes a restriction of soapenc:Array into an array of its items.
 *    And for each SOAP or HTTP binding operation, `message-parts.ts` makes its messages' parts
 *    fields and bodies (called by the binding readers, mapping the types the parts name as above).
 *    While build.ts walks the types in use, `derivation-families.ts` finds the types derived from
 *    each (`SchemaSet.derivedOf`), which are in use too, and so is what they reach: a walk after
 *    mapping would have to repeat the reaching.
 * 2. `PASSES`, once every type in use is mapped, in list order:
 *    - model passes (run by buildModel, so that loadWsdl's model has them too):
 *      `restrictions` gives each restriction the attributes it inherits, which needs its bases'
 *      attributes mapped; `encoded-limits` then names what each SOAP-encoded binding sends without
 *      xsi:type (WSDL_ENCODED), which needs the types in use and their restrictions complete;
 *    - plan passes (run by `plan`, over the model): `array-wrappers` decides which types are plain
 *      arrays; nothing depends on names yet. `encoded-values` then finds what SOAP encoding writes
 *      with xsi:type (not arrays: they say their own). `input-forms` decides which types need an
 *      input variant, which changes how many names are claimed. `names` claims every name, in
 *      model order, once those have fixed what gets declared.
 */
import type { DiagnosticBag } from "../diagnostics.js";
import type { ComplexType, SimpleType, WsdlModel } from "../model/model.js";
import type { SchemaSet } from "../model/schema-set.js";
import { warnEncodedLimits, type EncodedBinding } from "../model/encoded-limits.js";
import { arrayWrappers } from "./array-wrappers.js";
import { encodedValues } from "./encoded-values.js";
import { inputForms } from "./input-forms.js";
import { names } from "./names.js";
import { emptyPlan, type EmitPlan, type Pass } from "./plan.js";
import { completeRestrictions } from "./restrictions.js";

/** What a model pass reads: the mapped schemas, and the bindings that use SOAP encoding. */
export interface ModelContext {
  readonly schemas: SchemaSet;
  readonly encoded: readonly EncodedBinding[];
  readonly diagnostics: DiagnosticBag;
}

/** A rule over the mapped types, run by buildModel. */
export interface ModelPass {
  readonly name: string;
  run(cx: ModelContext): void;
}

/** One step of the list: a model pass or a plan pass. */
export type Step =
  | { readonly stage: "model"; readonly pass: ModelPass }
  | { readonly stage: "plan"; readonly pass: Pass };

export const PASSES: readonly Step[] = [
  {
    stage: "model",
    pass: { name: "restrictions", run: (cx) => completeRestrictions(cx.schemas.restrictions) },
  },
  {
    stage: "model",
    pass: { name: "encoded-limits", run: (cx) => warnEncodedLimits(cx.encoded, cx.diagnostics) },
  },
  { stage: "plan", pass: arrayWrappers },
  { stage: "plan", pass: encodedValues },
  { stage: "plan", pass: inputForms },
  { stage: "plan", pass: names },
];

/** Runs the model passes of `PASSES`, in order. */
export function runModelPasses(cx: ModelContext): void {
  for (const step of PASSES) if (step.stage === "model") step.pass.run(cx);
}

export function plan(
  model: WsdlModel,
  nameHints: ReadonlyMap<ComplexType | SimpleType, string>,
  pinnedNamespaces: ReadonlyMap<string, string> = new Map(),
): EmitPlan {
  const p = emptyPlan(model, nameHints, pinnedNamespaces);
  for (const step of PASSES) if (step.stage === "plan") step.pass.run(p);
  return p;
}
