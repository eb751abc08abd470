/**
 * How the typed API shapes a complex type's values, decided from the model alone: whether they
 * carry `$type` (a derivation family) and whether the type is shown as a plain array. The transform
 * plans by these, and the SOAP encoding check (encoded-limits.ts) reads them to know which values
 * are written without `xsi:type`.
 */
import type { ComplexType, ElementField } from "./model.js";

/**
 * Whether values of `t` carry `$type`: it extends or restricts a type, or a type extends or
 * restricts it.
 */
export const inFamily = (t: ComplexType): boolean =>
  t.base !== undefined || t.restricts !== undefined || t.derived.length > 0;

/**
 * The repeated element of an ASMX-style `ArrayOfX`, a complex type whose only content is that
 * element, which the API shows as a plain array, as .NET's wsdl.exe does. Not for a type of a
 * derivation family: its values carry `$type`, which an array cannot.
 */
export function arrayWrapperItem(t: ComplexType): ElementField | undefined {
  if (
    inFamily(t) ||
    t.attributes.length > 0 ||
    t.simpleContent ||
    t.mixed ||
    t.anyElements ||
    t.anyAttributes ||
    t.fields.length !== 1
  )
    return undefined;
  const only = t.fields[0]!;
  return only.maxOccurs > 1 && only.choice === undefined ? only : undefined;
}
