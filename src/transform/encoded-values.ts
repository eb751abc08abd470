import { encodedBodies, forEachEncodedField } from "../model/encoded-limits.js";
import { inFamily } from "../model/value-shapes.js";
import type { ComplexType, ElementField, QName } from "../model/model.js";
import type { Pass } from "./plan.js";

/**
 * Finds the element fields SOAP encoding (rpc/encoded) writes with `xsi:type`, as its servers
 * expect: the parts of encoded bodies and every field below them, with the type each names (an
 * encoded array's items are typed by the array).
 */
export const encodedValues: Pass = {
  name: "encoded-values",
  run(plan) {
    const bodies = plan.model.services.flatMap((s) =>
      s.ports.flatMap((p) => p.binding.operations.flatMap(encodedBodies)),
    );
    forEachEncodedField(bodies, (f, inArray) => {
      const name = inArray ? undefined : xsiTypeOf(f, plan.arrayItems);
      if (name) plan.xsiTypes.set(f, name);
    });
  },
};

/**
 * The type a field's `xsi:type` names: its named type; an anonymous simple type's built-in base.
 * None for a type of a derivation family (its writer says which member) or an array (a plain array,
 * or an encoded one, which says soapenc:Array), nor for an anonymous complex type.
 */
function xsiTypeOf(
  f: ElementField,
  arrays: ReadonlyMap<ComplexType, ElementField>,
): QName | undefined {
  const t = f.type;
  if (t.kind === "builtin") return t.name;
  if (t.kind === "simple") return t.name ?? t.base.name;
  if (t.name === undefined || inFamily(t) || arrays.has(t)) return undefined;
  return t.name;
}
