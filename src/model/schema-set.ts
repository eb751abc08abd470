/**
 * Maps the raw schemas (stage one) to model types: looks components up by QName across schemas
 * (schema-index.ts), maps each once, when first referred to, and records every wire fact
 * (qualification, occurrence, nillable). Simple types are mapped by simple-types.ts, complex
 * types by the rules of rules/ in the order of MAPPING_RULES (with what they ask of the set in
 * complex-types.ts), both guarded against circles and depth (schema-guards.ts).
 *
 * Mapping is lazy, a type when something first refers to it, and stays so because it pays: over
 * the 183 corpus roots that load, 2,008 of the 4,431 named types their schemas declare are in use
 * (45%), and mapping every declared type took 145 ms against 160 ms for the whole of buildModel
 * (2026-11-27, the corpus's third of three rounds). Mapping them all would also report defects of
 * types no operation uses (79 diagnostics more at least), which --strict would then refuse.
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics.js";
import { qnameKey, type QName } from "../parse/qname.js";
import type { RawComplexType, RawElement, RawSchema, RawSimpleType } from "../parse/xsd.js";
import { builtinType, XS_ANYTYPE, XS_STRING } from "./builtins.js";
import type {
  BuiltinType,
  ComplexType,
  ElementDecl,
  Mutable,
  SimpleType,
  TypeRef,
} from "./model.js";
import { SchemaIndex } from "./schema-index.js";
import { StandIns, undeclaredType } from "./stand-ins.js";
import { ContentDepth, DerivationDepth, SimpleCircles } from "./schema-guards.js";
import { mapSimpleType } from "./simple-types.js";
import { mappingContext, type ComplexContext } from "./complex-types.js";
import { DerivationFamilies } from "./rules/derivation-families.js";
import { applyMappingRules, type MappingContext } from "./rules/index.js";
import { SubstitutionGroups } from "./rules/substitution-groups.js";

/** Looks up schema components by QName and maps them to the model, once each. */
export class SchemaSet implements ComplexContext {
  readonly index: SchemaIndex;
  private readonly typeCache = new Map<object | string, TypeRef>();
  private readonly elementCache = new Map<string, ElementDecl>();
  /** Name hints of anonymous types, for the naming pass. */
  readonly nameHints = new Map<ComplexType | SimpleType, string>();
  /** What a type or element declared nowhere is read as. */
  readonly standIns = new StandIns(this.nameHints);
  /** The members of each substitution group head (see rules/substitution-groups.ts). */
  private readonly substitutions: SubstitutionGroups;
  /** The types derived from each type (see rules/derivation-families.ts). */
  private readonly families: DerivationFamilies;
  private readonly circles: SimpleCircles;
  private readonly derivation: DerivationDepth;
  private readonly content = new ContentDepth();
  /** Types that restrict a declared complex type, with the attributes they prohibit (by key). */
  private readonly restricted = new Map<ComplexType, ReadonlySet<string>>();

  constructor(
    schemas: readonly RawSchema[],
    readonly diagnostics: DiagnosticBag,
  ) {
    this.index = new SchemaIndex(schemas, diagnostics);
    this.circles = new SimpleCircles(diagnostics);
    this.derivation = new DerivationDepth(diagnostics);
    this.substitutions = new SubstitutionGroups(
      this.index.elements,
      (name, at) => this.element(name, at),
      diagnostics,
    );
    this.families = new DerivationFamilies(this.index.complexTypes, (d) =>
      this.complexType(d.raw, d.schema, d.name, d.name.local),
    );
  }

  /**
   * The global element `name`. When it is declared nowhere: an element of that name whose content
   * is kept raw (see stand-ins.ts), with a recovery warning.
   */
  element(name: QName, at: SourceLocation): ElementDecl {
    // Reported at every reference, as a missing type is; the stand-in is made once.
    const found = this.resolveElement(
      name,
      at,
      "reading it as an element of that name whose content is xs:anyType's, kept as raw XML",
    );
    if (found) return found;
    return this.standIns.element(name, at);
  }

  /**
   * The global element `name`; when it is declared nowhere, undefined and a recovery warning saying
   * what the caller does without it (`instead`).
   */
  resolveElement(name: QName, at: SourceLocation, instead: string): ElementDecl | undefined {
    const found = this.lookupElement(name, at);
    if (!found) this.index.missing("element", name, at, instead);
    return found;
  }

  /** The global element `name`, or undefined (without a diagnostic) when it is not declared. */
  lookupElement(name: QName, at: SourceLocation): ElementDecl | undefined {
    // A prefix no xmlns binds names no namespace for certain: never take it as an exact match.
    const cached =
      name.unboundPrefix === undefined ? this.elementCache.get(qnameKey(name)) : undefined;
    if (cached) return cached;
    const found = this.index.lookup.elements.lookup(name, at, this.diagnostics);
    if (!found) return undefined;
    const k = found.key;
    const again = this.elementCache.get(k);
    if (again) return again;
    const scoped = found.value;
    const decl: Mutable<ElementDecl> = {
      kind: "elementDecl",
      name: found.name,
      type: XS_ANYTYPE,
      nillable: scoped.raw.nillable,
      abstract: scoped.raw.abstract,
      doc: scoped.raw.doc,
      loc: scoped.raw.loc,
    };
    this.elementCache.set(k, decl);
    // A complex type, named or not, is the declaration's type as soon as it exists, so that the
    // element referred to inside its own content (`<element ref="tns:property"/>` in property, or a
    // substitution group member holding its head) has it, not the placeholder.
    decl.type = this.elementType(
      scoped.raw,
      scoped.schema,
      found.name.local,
      (ct) => (decl.type = ct),
    );
    return decl;
  }

  /**
   * The named type `name` (built-in, simple or complex). Declared nowhere: xs:anyType's content
   * kept raw, or `xs:string` where a simple type is expected (`simple`), with a recovery warning.
   */
  type(
    name: QName,
    at: SourceLocation,
    simple = false,
    created?: (ct: ComplexType) => void,
  ): TypeRef {
    const builtin = builtinType(name);
    if (builtin) return builtin;
    const cached =
      name.unboundPrefix === undefined ? this.typeCache.get(qnameKey(name)) : undefined;
    if (cached) return this.circles.reached(cached);
    const found = this.index.lookup.types.lookup(name, at, this.diagnostics);
    if (found) {
      const again = this.typeCache.get(found.key);
      if (again) return this.circles.reached(again);
      // The index holds the declaration of every key its lookup finds, of the kind it says.
      const ct = found.value === "complex" ? this.index.complexTypes.get(found.key) : undefined;
      if (ct) return this.complexType(ct.raw, ct.schema, found.name, found.name.local, created);
      const st = this.index.simpleTypes.get(found.key);
      if (st) return this.simpleType(st.raw, st.schema, found.name, found.name.local);
    }
    return undeclaredType(this, name, at, simple);
  }

  elementType(
    raw: RawElement,
    schema: RawSchema,
    hint: string,
    created?: (ct: ComplexType) => void,
  ): TypeRef {
    if (raw.type) return this.type(raw.type, raw.loc, false, created);
    if (raw.complexType) return this.complexType(raw.complexType, schema, undefined, hint, created);
    if (raw.simpleType) return this.simpleType(raw.simpleType, schema, undefined, hint);
    if (raw.substitutionGroup) return this.element(raw.substitutionGroup, raw.loc).type;
    return XS_ANYTYPE;
  }

  simpleType(
    raw: RawSimpleType,
    schema: RawSchema,
    name: QName | undefined,
    hint: string,
  ): SimpleType | BuiltinType {
    const key = name ? qnameKey(name) : raw;
    const cached = this.typeCache.get(key);
    if (cached) return this.circles.reached(cached) as SimpleType;
    const st: Mutable<SimpleType> = {
      kind: "simple",
      name,
      base: XS_STRING,
      enumeration: [],
      list: false,
      doc: raw.doc,
      loc: raw.loc,
    };
    this.typeCache.set(key, st);
    this.nameHints.set(st, hint);
    this.circles.mapping(st, () => mapSimpleType(this, st, raw, schema, hint));
    return st;
  }

  /**
   * The named types that extend or restrict `ct` directly, mapped (and recorded as `ct.derived`).
   * Types that nothing names are reached this way: a value may carry one with `xsi:type`.
   */
  derivedOf(ct: ComplexType): readonly ComplexType[] {
    return this.families.derivedOf(ct);
  }

  /** `created` is told of the type before its content is mapped (see lookupElement). */
  complexType(
    raw: RawComplexType,
    schema: RawSchema,
    name: QName | undefined,
    hint: string,
    created?: (ct: ComplexType) => void,
  ): ComplexType {
    const key = name ? qnameKey(name) : raw;
    const cached = this.typeCache.get(key);
    if (cached) return cached as ComplexType;
    const ct: Mutable<ComplexType> = {
      kind: "complex",
      name,
      base: undefined,
      derived: [],
      fields: [],
      attributes: [],
      simpleContent: undefined,
      abstract: raw.abstract,
      mixed: raw.mixed,
      anyElements: false,
      anyAttributes: raw.anyAttribute,
      doc: raw.doc,
      loc: raw.loc,
    };
    this.typeCache.set(key, ct);
    this.nameHints.set(ct, hint);
    created?.(ct);
    applyMappingRules({ ct, raw, schema, hint }, this.rules, (content) =>
      this.content.run(content),
    );
    return ct;
  }

  baseType(name: QName, at: SourceLocation): TypeRef {
    return this.derivation.base(name, at, () => this.type(name, at));
  }

  substitutes(decl: ElementDecl, at: SourceLocation): readonly ElementDecl[] {
    return this.substitutions.members(decl, at);
  }

  restricts(ct: ComplexType, prohibited: ReadonlySet<string>): void {
    this.restricted.set(ct, prohibited);
  }

  private mapping: MappingContext | undefined;

  /** What the mapping rules ask of the set. */
  private get rules(): MappingContext {
    return (this.mapping ??= mappingContext(this));
  }

  /** The restrictions mapped so far, for the restrictions pass (see rules/restrictions.ts). */
  get restrictions(): ReadonlyMap<ComplexType, ReadonlySet<string>> {
    return this.restricted;
  }
}
