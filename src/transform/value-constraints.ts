/**
 * Value constraints (`default=`, `fixed=`) the runtime applies.
 *
 * An element that is present but empty stands for its default or fixed value, as XML Schema says
 * (`<Id />` of an xs:int with default="-1" is -1, not an error): emptyValue.
 *
 * Fixed values the writer supplies. An element or attribute declared with `fixed=` can hold that
 * value only: where its type is simple (not a list), it occurs at most once, is no choice branch
 * nor substitution group head, and the value is one its type accepts, the writer refuses any other
 * value and, for a required one, writes the fixed value when the property is left out, so its
 * property is optional in input forms, where its type is the fixed value itself when that is a
 * string, number or boolean (fixedLiteral). An optional one left out stays out (its absence is
 * valid). The output forms are unchanged (what arrives is what was sent). Otherwise the value is
 * only noted in the property's documentation.
 */
import type {
  AttributeField,
  BuiltinType,
  ElementField,
  SimpleType,
  TypeRef,
} from "../model/model.js";
import { parseScalar, type ScalarKind } from "@wsdl-tsgen/runtime/internal";

/**
 * The fixed value as a TypeScript literal type, for input forms: a string (of xs:string, whose text
 * is kept as written), a finite number or a boolean; undefined for other types (their property
 * keeps its type).
 */
export function fixedLiteral(x: ElementField | AttributeField): string | undefined {
  const fixed = suppliedFixed(x);
  if (fixed === undefined || x.type.kind === "complex") return undefined;
  const scalar = scalarOf(x.type);
  const value = parseScalar(scalar, fixed);
  if (typeof value === "string") return scalar === "string" ? JSON.stringify(value) : undefined;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === "boolean") return String(value);
  return undefined;
}

/**
 * What an empty element of field `f` stands for: its fixed or default value, when its type is
 * simple and accepts it.
 */
export function emptyValue(f: ElementField): string | undefined {
  const value = f.fixed ?? f.default;
  // "" stands for nothing more than the empty text itself.
  return value === undefined || value === "" || !accepts(f.type, value) ? undefined : value;
}

/** The fixed lexical value the writer supplies for `x`, if it supplies one (see above). */
export function suppliedFixed(x: ElementField | AttributeField): string | undefined {
  if (x.fixed === undefined) return undefined;
  if (
    x.kind === "elementField" &&
    (x.maxOccurs > 1 || x.choice !== undefined || x.substitutes !== undefined)
  )
    return undefined;
  if (x.type.kind === "simple" && x.type.list) return undefined;
  return accepts(x.type, x.fixed) ? x.fixed : undefined;
}

/**
 * A required element or attribute whose fixed value the writer supplies: it may be left out of an
 * input.
 */
export const fixedWhenLeftOut = (x: ElementField | AttributeField): boolean =>
  (x.kind === "elementField" ? x.minOccurs > 0 : x.required) && suppliedFixed(x) !== undefined;

const scalarOf = (t: BuiltinType | SimpleType): ScalarKind =>
  t.kind === "builtin" ? t.scalar : t.base.scalar;

/**
 * Whether `lexical` is a value of the simple type `t` (each item of a list; one of an enumeration).
 */
function accepts(t: TypeRef, lexical: string): boolean {
  if (t.kind === "complex") return false;
  if (
    t.kind === "simple" &&
    t.enumeration.length > 0 &&
    !t.list &&
    !t.enumeration.includes(lexical)
  )
    return false;
  const items =
    t.kind === "simple" && t.list ? lexical.split(/\s+/).filter((item) => item !== "") : [lexical];
  try {
    for (const item of items) parseScalar(scalarOf(t), item);
  } catch {
    return false;
  }
  return true;
}
