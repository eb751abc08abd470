import type { ElementField } from "../model/model.js";

/**
 * A repeated element that may be absent, or an element of an ordered list that may be empty: an
 * input may leave it out, standing for zero items.
 */
export const optionalRepeated = (f: ElementField): boolean =>
  f.ordered !== undefined ? f.ordered.optional : f.maxOccurs > 1 && f.minOccurs === 0;
