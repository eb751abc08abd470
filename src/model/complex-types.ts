/**
 * What the mapping rules (rules/, applied in the order of MAPPING_RULES) ask of SchemaSet while it
 * maps a complex type: bases, groups and attributes by reference, each element's field (an element
 * reference with the members of its substitution group), attributes' value types.
 */
import type { SourceLocation } from "../diagnostics.js";
import type { QName } from "../parse/qname.js";
import type { RawElement, RawSchema } from "../parse/xsd.js";
import type { ComplexType, ElementDecl, ElementField, TypeRef } from "./model.js";
import { EXPECTED } from "./schema-index.js";
import { simpleOrBuiltin, type SimpleContext } from "./simple-types.js";
import type { MappingContext } from "./rules/index.js";

/** What complex type mapping asks of SchemaSet, beyond simple type mapping. */
export interface ComplexContext extends SimpleContext {
  /** The base `name` of a derivation, its chain's depth bounded. */
  baseType(name: QName, at: SourceLocation): TypeRef;
  element(name: QName, at: SourceLocation): ElementDecl;
  elementType(raw: RawElement, schema: RawSchema, hint: string): TypeRef;
  /** The members of the substitution group `decl` heads. */
  substitutes(decl: ElementDecl, at: SourceLocation): readonly ElementDecl[];
  /** Records that `ct` restricts a declared complex type, prohibiting `prohibited`. */
  restricts(ct: ComplexType, prohibited: ReadonlySet<string>): void;
}

/** What the mapping rules ask of the set `cx`. */
export function mappingContext(cx: ComplexContext): MappingContext {
  return {
    diagnostics: cx.diagnostics,
    baseType: (name, at) => cx.baseType(name, at),
    complexBase: (name, at, instead) => {
      const found = cx.index.lookup.types.resolve(name, at, cx.diagnostics, EXPECTED, instead);
      return found?.value === "complex" ? cx.baseType(found.name, at) : undefined;
    },
    restricts: (ct, prohibited) => cx.restricts(ct, prohibited),
    group: (ref, at) => cx.index.group(ref, at),
    field: (raw, schema, hint) => field(cx, raw, schema, hint),
    declaredElements: () =>
      [...cx.index.elements.values()].map((e) => ({ ns: e.schema.targetNamespace, raw: e.raw })),
    attributeGroup: (ref, at) => cx.index.attributeGroup(ref, at),
    attribute: (ref, at) => cx.index.attribute(ref, at),
    valueType: (name, inline, schema, hint, at) =>
      simpleOrBuiltin(cx, name, inline, schema, hint, at),
    itemType: (name, at) => cx.type(name, at, false),
  };
}

/** The field of a local element, or of a reference to a global one (with its substitutes). */
function field(cx: ComplexContext, raw: RawElement, schema: RawSchema, hint: string): ElementField {
  if (raw.ref) {
    const decl = cx.element(raw.ref, raw.loc);
    const members = cx.substitutes(decl, raw.loc);
    return {
      kind: "elementField",
      name: decl.name,
      type: decl.type,
      minOccurs: raw.minOccurs,
      maxOccurs: raw.maxOccurs,
      nillable: decl.nillable,
      default: raw.default,
      fixed: raw.fixed,
      choice: undefined,
      doc: raw.doc ?? decl.doc,
      loc: raw.loc,
      ...(members.length > 0 ? { substitutes: { head: decl, members } } : {}),
    };
  }
  const local = raw.name ?? "";
  const qualified = (raw.form ?? schema.elementFormDefault) === "qualified";
  return {
    kind: "elementField",
    name: { ns: qualified ? schema.targetNamespace : "", local },
    type: cx.elementType(raw, schema, `${hint}${local.charAt(0).toUpperCase()}${local.slice(1)}`),
    minOccurs: raw.minOccurs,
    maxOccurs: raw.maxOccurs,
    nillable: raw.nillable,
    default: raw.default,
    fixed: raw.fixed,
    choice: undefined,
    doc: raw.doc,
    loc: raw.loc,
  };
}
