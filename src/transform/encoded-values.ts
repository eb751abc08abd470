import { inFamily } from "../model/value-shapes.js";
import { collectFields } from "./names.js";
import type { ComplexType, ElementField, QName, SoapBodyShape, TypeRef } from "../model/model.js";
import type { Pass } from "./plan.js";

/**
 * Finds the element fields SOAP encoding (rpc/encoded) writes with `xsi:type`, as its servers
 * expect: the parts of encoded bodies and every field below them, with the type each names.
 */
export const encodedValues: Pass = {
  name: "encoded-values",
  run(plan) {
    const seen = new Set<ComplexType>();
    const content = (t: TypeRef | undefined): void => {
      if (t?.kind !== "complex" || seen.has(t)) return;
      seen.add(t);
      // An encoded array's items are typed by its own writer (soapenc:arrayType); their content is
      // not.
      if (t.encodedArray) return content(t.fields[0]?.type);
      for (const member of [t, ...t.derived])
        for (const c of collectFields(member).fields) visit(c);
    };
    const visit = (f: ElementField): void => {
      const name = xsiTypeOf(f, plan.arrayItems);
      if (name) plan.xsiTypes.set(f, name);
      content(f.type);
    };
    for (const service of plan.model.services)
      for (const port of service.ports)
        for (const bop of port.binding.operations) {
          if (bop.inputEncoding.kind === "soapBody" && bop.inputEncoding.use === "encoded")
            partsOf(bop.soapInput).forEach(visit);
          if (bop.outputEncoding.kind === "soapBody" && bop.outputEncoding.use === "encoded")
            partsOf(bop.soapOutput).forEach(visit);
        }
  },
};

const partsOf = (shape: SoapBodyShape | undefined): readonly ElementField[] =>
  shape?.kind === "rpc" || shape?.kind === "parts" ? shape.parts : [];

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
