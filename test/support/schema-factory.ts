/**
 * Builds small raw schemas (stage one) and model types in code, for the unit tests of the model's
 * XSD rules (test/model/): each test states the few components its rule needs, with no WSDL
 * around them. Every component gets its own line, so a diagnostic can be checked for its place.
 */
import { DiagnosticBag, type SourceLocation } from "../../src/diagnostics.js";
import { NS } from "../../src/parse/namespaces.js";
import type { QName } from "../../src/parse/qname.js";
import type { RawPart } from "../../src/parse/wsdl.js";
import type {
  RawAny,
  RawAttribute,
  RawAttributeGroup,
  RawAttributeGroupRef,
  RawComplexType,
  RawDerivation,
  RawElement,
  RawGroup,
  RawGroupRef,
  RawParticle,
  RawSchema,
} from "../../src/parse/xsd.js";
import type { AttributeField, ComplexType } from "../../src/model/model.js";
import { XS_STRING } from "../../src/model/builtins.js";
import { syntheticType } from "../../src/model/fields.js";
import { SchemaSet } from "../../src/model/schema-set.js";

export const TNS = "urn:test";
export const FILE = "factory.xsd";

let nextLine = 1;
/** A location of its own: line numbers count up across the factory's calls. */
export const at = (line = nextLine++): SourceLocation => ({ file: FILE, line, column: 1 });

/** A name in the target namespace. */
export const q = (local: string): QName => ({ ns: TNS, local });
/** A name of an XML Schema built-in. */
export const xs = (local: string): QName => ({ ns: NS.xsd, local });
/** A name in SOAP 1.1 encoding's namespace. */
export const soapenc = (local: string): QName => ({ ns: NS.soapEncoding, local });

interface Occurs {
  readonly min?: number;
  /** `Infinity` for unbounded. */
  readonly max?: number;
}

type Item = RawElement | RawParticle | RawAny | RawGroupRef;
type Attributes = readonly (RawAttribute | RawAttributeGroupRef)[];

/** A schema of `components`, elements qualified (as WSDLs' schemas mostly are). */
export function schema(
  components: Partial<Omit<RawSchema, "kind" | "file" | "loc">> = {},
): RawSchema {
  return {
    kind: "schema",
    file: FILE,
    targetNamespace: TNS,
    elementFormDefault: "qualified",
    attributeFormDefault: "unqualified",
    elements: [],
    complexTypes: [],
    simpleTypes: [],
    groups: [],
    attributeGroups: [],
    attributes: [],
    imports: [],
    includes: [],
    loc: at(),
    ...components,
  };
}

/**
 * A local or global element named `name` of type `type` (a QName), or with other settings in
 * `more`.
 */
export function element(
  name: string,
  type?: QName,
  more: Occurs & Partial<Omit<RawElement, "kind" | "minOccurs" | "maxOccurs">> = {},
): RawElement {
  const { min, max, ...rest } = more;
  return {
    kind: "element",
    name,
    ...(type ? { type } : {}),
    minOccurs: min ?? 1,
    maxOccurs: max ?? 1,
    nillable: false,
    abstract: false,
    loc: at(),
    ...rest,
  };
}

/** `<element ref="…"/>`. */
export function elementRef(ref: QName, occurs: Occurs = {}): RawElement {
  return {
    kind: "element",
    ref,
    minOccurs: occurs.min ?? 1,
    maxOccurs: occurs.max ?? 1,
    nillable: false,
    abstract: false,
    loc: at(),
  };
}

const particle =
  (kind: RawParticle["kind"]) =>
  (items: readonly Item[], occurs: Occurs = {}): RawParticle => ({
    kind,
    minOccurs: occurs.min ?? 1,
    maxOccurs: occurs.max ?? 1,
    items,
    loc: at(),
  });

export const sequence = particle("sequence");
export const choice = particle("choice");
export const all = particle("all");

export function any(occurs: Occurs = {}): RawAny {
  return { kind: "any", minOccurs: occurs.min ?? 1, maxOccurs: occurs.max ?? 1, loc: at() };
}

export function groupRef(ref: QName, occurs: Occurs = {}): RawGroupRef {
  return {
    kind: "groupRef",
    ref,
    minOccurs: occurs.min ?? 1,
    maxOccurs: occurs.max ?? 1,
    loc: at(),
  };
}

/** A named model group (`<group name=…>`) of `particle`. */
export function group(name: string, particle: RawParticle): RawGroup {
  return { kind: "group", name, particle, loc: at() };
}

/** A named attribute group of `attributes`. */
export function attributeGroup(name: string, attributes: Attributes): RawAttributeGroup {
  return { kind: "attributeGroup", name, attributes, loc: at() };
}

/** `<attributeGroup ref="…"/>`. */
export function attributeGroupRef(ref: QName): RawAttributeGroupRef {
  return { kind: "attributeGroupRef", ref, loc: at() };
}

/** A complex type: `name` undefined for an anonymous one. */
export function complexType(
  name: string | undefined,
  more: Partial<Omit<RawComplexType, "kind" | "name">> = {},
): RawComplexType {
  return {
    kind: "complexType",
    ...(name !== undefined ? { name } : {}),
    abstract: false,
    mixed: false,
    attributes: [],
    anyAttribute: false,
    loc: at(),
    ...more,
  };
}

/** A complexContent or simpleContent derivation from `base`. */
export function derivation(
  derivation: RawDerivation["derivation"],
  base: QName,
  more: { particle?: RawParticle | RawGroupRef; attributes?: Attributes } = {},
): RawDerivation {
  return {
    derivation,
    base,
    attributes: more.attributes ?? [],
    anyAttribute: false,
    loc: at(),
    ...(more.particle ? { particle: more.particle } : {}),
  };
}

/** An attribute declared in place (`name`) or by reference (`ref` in `more`). */
export function attribute(
  name: string | undefined,
  more: Partial<Omit<RawAttribute, "kind" | "name">> = {},
): RawAttribute {
  return {
    kind: "attribute",
    ...(name !== undefined ? { name } : {}),
    use: "optional",
    loc: at(),
    ...more,
  };
}

/** A `wsdl:part` naming an element or a type (or neither, a defect). */
export function part(name: string, names: { element?: QName; type?: QName } = {}): RawPart {
  return { name, ...names, loc: at() };
}

/** A schema set over `schemas`, with the bag its diagnostics go to. */
export function schemaSet(...schemas: RawSchema[]): { set: SchemaSet; diagnostics: DiagnosticBag } {
  const diagnostics = new DiagnosticBag();
  return { set: new SchemaSet(schemas, diagnostics), diagnostics };
}

/** The named type `local` of the target namespace, mapped, which the test expects complex. */
export function mapped(set: SchemaSet, local: string): ComplexType {
  const t = set.type(q(local), at());
  if (t.kind !== "complex") throw new Error(`${local} is ${t.kind}, expected complex`);
  return t;
}

/** A model complex type made directly, for the rules that run on mapped types. */
export function modelType(
  name: string,
  more: Partial<Omit<ComplexType, "kind" | "name">> = {},
): ComplexType {
  return { ...syntheticType([], at()), name: q(name), ...more };
}

/** A model attribute of type xs:string. */
export function modelAttribute(local: string, ns = ""): AttributeField {
  return {
    kind: "attributeField",
    name: { ns, local },
    type: XS_STRING,
    required: false,
    default: undefined,
    fixed: undefined,
    doc: undefined,
    loc: at(),
  };
}
