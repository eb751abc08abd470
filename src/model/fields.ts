/** Element fields the mappers make up (for parts, simple-typed bodies and HTTP results). */
import type { SourceLocation } from "../diagnostics.js";
import type { ElementField, QName, TypeRef } from "./model.js";

export function syntheticField(
  name: QName,
  type: TypeRef,
  loc: SourceLocation,
  options: { minOccurs?: number; nillable?: boolean; propertyName?: string } = {},
): ElementField {
  return {
    kind: "elementField", name, type, minOccurs: options.minOccurs ?? 1, maxOccurs: 1, nillable: options.nillable ?? false,
    default: undefined, fixed: undefined, choice: undefined, doc: undefined, loc,
    ...(options.propertyName !== undefined ? { propertyName: options.propertyName } : {}),
  };
}
