import type { ElementField } from "../model/model.js";

/** A repeated element that may be absent: an input may leave it out, standing for zero items. */
export const optionalRepeated = (f: ElementField): boolean => f.maxOccurs > 1 && f.minOccurs === 0;
