/**
 * The model passes, in the order of MODEL_PASSES, run by buildModel once every type in use is
 * mapped (so that loadWsdl's model has them too); the rules applied while a type is mapped come
 * before them (rules/index.ts), the plan passes after them (../transform/passes.ts).
 * - `restrictions` gives each restriction the attributes it inherits, which needs its bases'
 *   attributes mapped;
 * - `encoded-limits` then names what each SOAP-encoded binding sends without xsi:type
 *   (WSDL_ENCODED), which needs the types in use and their restrictions complete.
 */
import type { DiagnosticBag } from "../diagnostics.js";
import { warnEncodedLimits, type EncodedBinding } from "./encoded-limits.js";
import { completeRestrictions } from "./rules/restrictions.js";
import type { SchemaSet } from "./schema-set.js";

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

export const MODEL_PASSES: readonly ModelPass[] = [
  { name: "restrictions", run: (cx) => completeRestrictions(cx.schemas.restrictions) },
  { name: "encoded-limits", run: (cx) => warnEncodedLimits(cx.encoded, cx.diagnostics) },
];

/** Runs MODEL_PASSES, in order. */
export function runModelPasses(cx: ModelContext): void {
  for (const pass of MODEL_PASSES) pass.run(cx);
}
