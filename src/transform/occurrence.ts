import type { AttributeField, ElementField } from "../model/model.js";
import { fixedWhenLeftOut } from "./value-constraints.js";

/**
 * A repeated element that may be absent, or an element of an ordered list that may be empty: an
 * input may leave it out, standing for zero items.
 */
export const optionalRepeated = (f: ElementField): boolean =>
  f.ordered !== undefined ? f.ordered.optional : f.maxOccurs > 1 && f.minOccurs === 0;

/** Whether a result's property is optional (`?:`). Repeated fields are always there, as arrays. */
export const fieldOptional = (f: ElementField): boolean => f.maxOccurs <= 1 && f.minOccurs === 0;

/**
 * Whether an input may leave the field out: optional in a result, repeated and possibly empty, or
 * fixed to a value the writer supplies. The TypeScript input forms and the OpenAPI document both
 * say this, so what one requires the other does.
 */
export const inputFieldOptional = (f: ElementField): boolean =>
  fieldOptional(f) || fixedWhenLeftOut(f) || optionalRepeated(f);

/** Whether an input must give the attribute: required, and not fixed to a value supplied. */
export const inputAttrRequired = (a: AttributeField): boolean => a.required && !fixedWhenLeftOut(a);
