import type { ComplexType, ScalarKind, SimpleType, TypeRef } from "../model/model.js";
import { BIG_INTEGER_SCALARS } from "../model/builtins.js";
import { referencedTypes } from "../model/references.js";
import { descendants } from "./families.js";
import { fixedWhenLeftOut } from "./value-constraints.js";
import type { Pass } from "./plan.js";
import { optionalRepeated } from "./occurrence.js";
import { binaryParts } from "../model/binary-forms.js";

/** The scalars whose input form is wider than their output form (see inputForms). */
const WIDER_ON_INPUT: ReadonlySet<ScalarKind> = new Set<ScalarKind>([
  "dateTime",
  "date",
  "time",
  ...BIG_INTEGER_SCALARS,
]);

/**
 * Marks the types whose input form is wider than their output form: dates accept `Date` and
 * strings, big integers accept numbers, and a required fixed value may be left out
 * (value-constraints.ts). Only those get a separate `XInput` declaration.
 */
export const inputForms: Pass = {
  name: "input-forms",
  run(plan) {
    const memo = new Map<TypeRef, boolean>();
    // Where binaries may be attachment parts, they may be sent from Blobs and streams too.
    const parts = binaryParts(plan.model);
    const widerScalar = (s: ScalarKind) => WIDER_ON_INPUT.has(s) || (parts && s === "base64Binary");
    const wider = (t: TypeRef): boolean => {
      if (t.kind === "builtin") return widerScalar(t.scalar);
      if (t.kind === "simple") return widerScalar(t.base.scalar) && t.enumeration.length === 0;
      const known = memo.get(t);
      if (known !== undefined) return known;
      memo.set(t, false); // a cycle adds nothing new
      const result =
        (t.base !== undefined && wider(t.base)) ||
        t.fields.some(
          (f) =>
            widerValue(f.type) ||
            // An array type's own item is the array, not a property one may leave out.
            (optionalRepeated(f) && !plan.arrayItems.has(t)) ||
            (f.substitutes?.members.some((m) => widerValue(m.type)) ?? false) ||
            fixedWhenLeftOut(f),
        ) ||
        t.attributes.some((a) => wider(a.type) || fixedWhenLeftOut(a)) ||
        (t.simpleContent !== undefined && wider(t.simpleContent));
      memo.set(t, result);
      return result;
    };
    // What a field of type `t` holds: `t`, or any type derived from it.
    const widerValue = (t: TypeRef): boolean =>
      wider(t) || (t.kind === "complex" && descendants(t).some(wider));
    // Only types a caller writes need an input form: operation inputs and SOAP headers (client
    // side), results and response headers (server side), and what they contain.
    const reachable = new Set<TypeRef>();
    const reach = (t: TypeRef): void => {
      if (t.kind === "builtin" || reachable.has(t)) return;
      reachable.add(t);
      if (t.kind === "complex") for (const r of referencedTypes(t)) reach(r);
    };
    for (const s of plan.model.services) {
      if (s.soapHeaders) reach(s.soapHeaders);
      for (const op of s.operations) {
        reach(op.input);
        if (op.result.kind === "unwrapped") reach(op.result.field.type);
        if (op.result.kind === "object") reach(op.result.type);
      }
    }
    for (const t of plan.model.types)
      if (reachable.has(t) && wider(t)) plan.hasInputForm.add(t as ComplexType | SimpleType);
  },
};
