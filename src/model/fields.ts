/**
 * Element fields and types the mappers make up (for parts, simple-typed bodies, HTTP results,
 * header bags, stand-ins).
 */
import type { SourceLocation } from "../diagnostics.js";
import type { ComplexType, ElementField, QName, TypeRef } from "./model.js";

export function syntheticField(
  name: QName,
  type: TypeRef,
  loc: SourceLocation,
  options: { minOccurs?: number; nillable?: boolean; propertyName?: string } = {},
): ElementField {
  return {
    kind: "elementField",
    name,
    type,
    minOccurs: options.minOccurs ?? 1,
    maxOccurs: 1,
    nillable: options.nillable ?? false,
    default: undefined,
    fixed: undefined,
    choice: undefined,
    doc: undefined,
    loc,
    ...(options.propertyName !== undefined ? { propertyName: options.propertyName } : {}),
  };
}

/**
 * An anonymous complex type of `fields` (the caller gives it a name hint); `content` overrides its
 * content flags.
 */
export function syntheticType(
  fields: readonly ElementField[],
  loc: SourceLocation,
  content: Partial<
    Pick<ComplexType, "simpleContent" | "mixed" | "anyElements" | "anyAttributes" | "doc">
  > = {},
): ComplexType {
  return {
    kind: "complex",
    name: undefined,
    base: undefined,
    derived: [],
    fields,
    attributes: [],
    simpleContent: undefined,
    abstract: false,
    mixed: false,
    anyElements: false,
    anyAttributes: false,
    doc: undefined,
    loc,
    ...content,
  };
}
