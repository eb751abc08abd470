import type { Facets } from "@wsdl-tsgen/runtime/internal";
/**
 * Stage one for XML Schema, its types: the located object form of `xs:schema` that xsd.ts reads,
 * as written, nothing resolved but QName prefixes.
 */
import type { SourceLocation } from "../diagnostics.js";
import type { QName } from "./qname.js";

export type Form = "qualified" | "unqualified";

export interface RawSchema {
  readonly kind: "schema";
  readonly file: string;
  readonly targetNamespace: string;
  readonly elementFormDefault: Form;
  readonly attributeFormDefault: Form;
  readonly elements: readonly RawElement[];
  readonly complexTypes: readonly RawComplexType[];
  readonly simpleTypes: readonly RawSimpleType[];
  readonly groups: readonly RawGroup[];
  readonly attributeGroups: readonly RawAttributeGroup[];
  readonly attributes: readonly RawAttribute[];
  readonly imports: readonly RawSchemaReference[];
  readonly includes: readonly (RawSchemaReference & { readonly schemaLocation: string })[];
  readonly loc: SourceLocation;
}

/** An `xs:import` or `xs:include`/`xs:redefine`. */
export interface RawSchemaReference {
  readonly namespace?: string;
  readonly schemaLocation?: string;
  /**
   * Set when the location was written as `location=` (the attribute of `wsdl:import`), not
   * `schemaLocation=`.
   */
  readonly misnamed?: true;
  readonly loc: SourceLocation;
}

export interface RawElement {
  readonly kind: "element";
  readonly name?: string;
  readonly ref?: QName;
  readonly type?: QName;
  readonly complexType?: RawComplexType;
  readonly simpleType?: RawSimpleType;
  readonly minOccurs: number;
  /** `Infinity` for unbounded. */
  readonly maxOccurs: number;
  readonly nillable: boolean;
  readonly abstract: boolean;
  readonly default?: string;
  readonly fixed?: string;
  readonly form?: Form;
  readonly substitutionGroup?: QName;
  readonly doc?: string;
  readonly loc: SourceLocation;
}

export interface RawAny {
  readonly kind: "any";
  readonly namespace?: string;
  readonly processContents?: string;
  readonly minOccurs: number;
  readonly maxOccurs: number;
  readonly loc: SourceLocation;
}

export interface RawGroupRef {
  readonly kind: "groupRef";
  readonly ref: QName;
  readonly minOccurs: number;
  readonly maxOccurs: number;
  readonly loc: SourceLocation;
}

export interface RawParticle {
  readonly kind: "sequence" | "choice" | "all";
  readonly minOccurs: number;
  readonly maxOccurs: number;
  readonly items: readonly (RawElement | RawParticle | RawAny | RawGroupRef)[];
  readonly loc: SourceLocation;
}

export interface RawAttribute {
  readonly kind: "attribute";
  readonly name?: string;
  readonly ref?: QName;
  readonly type?: QName;
  readonly simpleType?: RawSimpleType;
  readonly use: "optional" | "required" | "prohibited";
  readonly default?: string;
  readonly fixed?: string;
  readonly form?: Form;
  /**
   * `wsdl:arrayType` (on a `ref` to SOAP encoding's arrayType): an encoded array's item type and
   * the dimensions written after it (`[]`, or `[,]` and `[][]` for multi-dimensional arrays).
   */
  readonly arrayType?: { readonly item: QName; readonly dims: string; readonly text: string };
  readonly doc?: string;
  readonly loc: SourceLocation;
}

export interface RawAttributeGroupRef {
  readonly kind: "attributeGroupRef";
  readonly ref: QName;
  readonly loc: SourceLocation;
}

/** An attribute group's `xs:anyAttribute`: the types that use the group take any attribute. */
export interface RawAnyAttribute {
  readonly kind: "anyAttribute";
  readonly loc: SourceLocation;
}

export interface RawAttributeGroup {
  readonly kind: "attributeGroup";
  readonly name: string;
  readonly attributes: readonly (RawAttribute | RawAttributeGroupRef | RawAnyAttribute)[];
  readonly loc: SourceLocation;
}

export interface RawGroup {
  readonly kind: "group";
  readonly name: string;
  readonly particle?: RawParticle;
  readonly loc: SourceLocation;
}

export interface RawDerivation {
  readonly derivation: "extension" | "restriction";
  readonly base: QName;
  readonly particle?: RawParticle | RawGroupRef;
  readonly attributes: readonly (RawAttribute | RawAttributeGroupRef)[];
  readonly anyAttribute: boolean;
  readonly loc: SourceLocation;
}

export interface RawComplexType {
  readonly kind: "complexType";
  readonly name?: string;
  readonly abstract: boolean;
  readonly mixed: boolean;
  readonly particle?: RawParticle | RawGroupRef;
  readonly attributes: readonly (RawAttribute | RawAttributeGroupRef)[];
  readonly anyAttribute: boolean;
  readonly complexContent?: RawDerivation;
  readonly simpleContent?: RawDerivation;
  readonly doc?: string;
  readonly loc: SourceLocation;
}

export interface RawSimpleType {
  readonly kind: "simpleType";
  readonly name?: string;
  readonly restriction?: {
    readonly base?: QName;
    readonly inlineBase?: RawSimpleType;
    readonly enumeration: readonly string[];
    /** The facets other than enumeration, as written (`pattern`: this step's, joined by `|`). */
    readonly facets?: Facets;
  };
  readonly list?: { readonly itemType?: QName; readonly inline?: RawSimpleType };
  readonly union?: {
    readonly memberTypes: readonly QName[];
    readonly inline: readonly RawSimpleType[];
  };
  readonly doc?: string;
  readonly loc: SourceLocation;
}
