/**
 * What a mapping rule is: one XSD rule that SchemaSet applies to each complex type as it maps it,
 * in the order of MAPPING_RULES (index.ts). A rule reads the raw declaration and writes its part of
 * the type; what it asks of the schema set is its own context interface, so that each rule can be
 * tested on its own.
 */
import type {
  RawAttribute,
  RawAttributeGroupRef,
  RawComplexType,
  RawGroupRef,
  RawParticle,
  RawSchema,
} from "../../parse/xsd.js";
import type { ComplexType, Mutable } from "../model.js";

/** The complex type being mapped, and its declaration. */
export interface MappingTarget {
  readonly ct: Mutable<ComplexType>;
  readonly raw: RawComplexType;
  readonly schema: RawSchema;
  /** The name anonymous types inside it are named after. */
  readonly hint: string;
}

/**
 * When a rule applies: "derivation" rules as soon as the type is cached (its base mapped first,
 * the chain's depth bounded); "content" rules to its content model, which SchemaSet may put off
 * past a depth of types mapped one inside another (ContentDepth in schema-guards.ts).
 */
export type MappingStep = "derivation" | "content";

export interface MappingRule<C> {
  readonly name: string;
  readonly step: MappingStep;
  apply(target: MappingTarget, cx: C): void;
}

/** The content model and attributes a complex type declares itself (in its derivation, if any). */
export interface OwnContent {
  readonly particle: RawParticle | RawGroupRef | undefined;
  readonly attributes: readonly (RawAttribute | RawAttributeGroupRef)[];
}

export function ownContent(raw: RawComplexType): OwnContent {
  if (raw.complexContent)
    return { particle: raw.complexContent.particle, attributes: raw.complexContent.attributes };
  if (raw.simpleContent)
    return { particle: raw.particle, attributes: raw.simpleContent.attributes };
  return { particle: raw.particle, attributes: raw.attributes };
}
