/**
 * The mapping of a complex type's content, for SchemaSet: what it derives from (base, restriction,
 * simple content), its fields and attributes by the rules in src/transform/ (flatten, attributes,
 * encoded arrays), and each element's field.
 */
import type { SourceLocation } from "../diagnostics.js";
import { NS, SOAP_ENCODINGS } from "../parse/namespaces.js";
import type { QName } from "../parse/qname.js";
import type {
  RawAttribute,
  RawAttributeGroupRef,
  RawComplexType,
  RawElement,
  RawGroupRef,
  RawParticle,
  RawSchema,
} from "../parse/xsd.js";
import { XS_STRING } from "./builtins.js";
import type { ComplexType, ElementDecl, ElementField, Mutable, TypeRef } from "./model.js";
import { EXPECTED } from "./schema-index.js";
import { simpleOrBuiltin, type SimpleContext } from "./simple-types.js";
import { attributeFields, type AttributeContext } from "../transform/attributes.js";
import { acyclicBase } from "../transform/derivation-families.js";
import { isEncodedArray, shapeEncodedArray } from "../transform/encoded-arrays.js";
import { flattenContent, type FlattenContext } from "../transform/flatten.js";
import { prohibitedAttributes } from "../transform/restrictions.js";

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
  /** What the rules called while a type is mapped ask (see mappingRules). */
  readonly rules: MappingRules;
}

export type MappingRules = FlattenContext & AttributeContext;

/** The content model and attributes a complex type declares itself (in its derivation, if any). */
export interface OwnContent {
  readonly particle: RawParticle | RawGroupRef | undefined;
  readonly attributes: readonly (RawAttribute | RawAttributeGroupRef)[];
}

/**
 * What the rules called while a type is mapped ask of the set: groups, attribute groups and
 * attributes by reference, each element's field, attributes' value types.
 */
export function mappingRules(cx: ComplexContext): MappingRules {
  return {
    diagnostics: cx.diagnostics,
    group: (ref, at) => cx.index.group(ref, at),
    field: (raw, schema, hint) => field(cx, raw, schema, hint),
    attributeGroup: (ref, at) => cx.index.attributeGroup(ref, at),
    attribute: (ref, at) => cx.index.attribute(ref, at),
    valueType: (name, inline, schema, hint, at) =>
      simpleOrBuiltin(cx, name, inline, schema, hint, at),
  };
}

/**
 * Maps what `ct` derives from (its base, what it restricts, or its simple content) and returns
 * the content model and attributes that are its own.
 */
export function mapDerivation(
  cx: ComplexContext,
  ct: Mutable<ComplexType>,
  raw: RawComplexType,
  schema: RawSchema,
): OwnContent {
  if (raw.complexContent) {
    const d = raw.complexContent;
    ct.anyAttributes = d.anyAttribute;
    if (d.derivation === "extension") {
      const base = cx.baseType(d.base, d.loc);
      if (base.kind === "complex") ct.base = acyclicBase(ct, base, d.loc, cx.diagnostics);
    } else if (!SOAP_ENCODINGS.has(d.base.ns) && d.base.ns !== NS.xsd) {
      // A restriction of a declared complex type (not of xs:anyType, nor an encoded array's
      // soapenc:Array); a base declared nowhere is said, and the type keeps its own content.
      const found = cx.index.lookup.types.resolve(
        d.base,
        d.loc,
        cx.diagnostics,
        EXPECTED,
        "the type is read as its own content, restricting nothing",
      );
      const base = found?.value === "complex" ? cx.baseType(found.name, d.loc) : undefined;
      const restricts =
        base?.kind === "complex" ? acyclicBase(ct, base, d.loc, cx.diagnostics) : undefined;
      if (restricts) {
        ct.restricts = restricts;
        cx.restricts(ct, prohibitedAttributes(d.attributes, schema));
      }
    }
    return { particle: d.particle, attributes: d.attributes };
  }
  if (raw.simpleContent) {
    const d = raw.simpleContent;
    ct.anyAttributes = d.anyAttribute;
    const base = cx.baseType(d.base, d.loc);
    if (base.kind === "complex") {
      ct.simpleContent = base.simpleContent ?? XS_STRING;
      if (d.derivation === "extension") ct.base = acyclicBase(ct, base, d.loc, cx.diagnostics);
    } else {
      ct.simpleContent = base;
    }
    return { particle: raw.particle, attributes: d.attributes };
  }
  return { particle: raw.particle, attributes: raw.attributes };
}

/** Maps the fields and attributes of `ct`, whose own content is `own`. */
export function mapFields(
  cx: ComplexContext,
  ct: Mutable<ComplexType>,
  raw: RawComplexType,
  schema: RawSchema,
  hint: string,
  own: OwnContent,
): void {
  const flat = flattenContent(own.particle, schema, hint, cx.rules);
  ct.fields = flat.fields;
  ct.anyElements = flat.anyElements;
  if (flat.anyPosition !== undefined) ct.anyPosition = flat.anyPosition;
  const attrs = attributeFields(own.attributes, schema, hint, cx.rules);
  ct.attributes = attrs.attributes;
  if (attrs.open) ct.anyAttributes = true;
  const d = raw.complexContent;
  if (d !== undefined && isEncodedArray(d))
    shapeEncodedArray(ct, d, (n, at) => cx.type(n, at, false), cx.diagnostics);
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
