/**
 * Maps the raw schemas (stage one) to model types: looks components up by QName across schemas,
 * maps each once, when first referred to, and records every wire fact (qualification, occurrence,
 * nillable). It keeps what resolution needs (lenient lookup, stand-ins for what is declared
 * nowhere, circles and depth); the XSD rules it applies while mapping are in passes/ (order.ts).
 */
import { DiagnosticBag, type SourceLocation } from "../diagnostics.js";
import { NS, SOAP_ENCODINGS } from "../parse/namespaces.js";
import { qnameKey, type QName } from "../parse/qname.js";
import type {
  RawAttribute,
  RawAttributeGroup,
  RawAttributeGroupRef,
  RawComplexType,
  RawElement,
  RawGroupRef,
  RawParticle,
  RawSchema,
  RawSimpleType,
} from "../parse/xsd.js";
import { builtinType, XS_ANYTYPE, XS_STRING } from "./builtins.js";
import { isEncodedArray, shapeEncodedArray } from "./passes/encoded-arrays.js";
import { syntheticType } from "./fields.js";
import { ComponentIndex, unresolved } from "./lenient.js";
import { attributeFields, type AttributeContext } from "./passes/attributes.js";
import { flattenContent, type FlattenContext } from "./passes/flatten.js";
import { acyclicBase, DerivationFamilies } from "./passes/derivation-families.js";
import { prohibitedAttributes } from "./passes/restrictions.js";
import { SubstitutionGroups } from "./passes/substitution-groups.js";
import { recovery } from "../recovery.js";
import type {
  BuiltinType,
  ComplexType,
  ElementDecl,
  ElementField,
  Mutable,
  SimpleType,
  TypeRef,
} from "./model.js";

/** The longest derivation chain mapped (as XML_TOO_DEEP bounds element nesting). */
const MAX_DERIVATION_DEPTH = 256;
/** Content models mapped one inside another before the deeper ones are put off (see mapContent). */
const MAX_CONTENT_DEPTH = 128;
/** A global component declared again under a name already taken (types: simple or complex). */
const duplicate = (what: string, key: string, kept: SourceLocation, again: SourceLocation) =>
  recovery(
    "XSD_DUPLICATE",
    `${what} ${key} is declared twice; expected one global declaration of each name; ` +
      `the first (${kept.file}:${kept.line}) is read, this one is left out`,
    again,
  );

const EXPECTED =
  "expected a declaration in this WSDL's schemas, an imported schema, or an XSD built-in";

/** The content model and attributes a complex type declares itself (in its derivation, if any). */
interface OwnContent {
  readonly particle: RawParticle | RawGroupRef | undefined;
  readonly attributes: readonly (RawAttribute | RawAttributeGroupRef)[];
}

interface Scoped<T> {
  readonly raw: T;
  readonly schema: RawSchema;
}

/** Looks up schema components by QName and maps them to the model, once each. */
export class SchemaSet {
  readonly diagnostics: DiagnosticBag;
  private readonly elements = new Map<string, Scoped<RawElement>>();
  private readonly complexTypes = new Map<string, Scoped<RawComplexType>>();
  private readonly simpleTypes = new Map<string, Scoped<RawSimpleType>>();
  private readonly groups = new Map<string, Scoped<RawParticle | undefined>>();
  private readonly attributeGroups = new Map<string, Scoped<RawAttributeGroup["attributes"]>>();
  private readonly attributes = new Map<string, Scoped<RawAttribute>>();
  private readonly typeCache = new Map<object | string, TypeRef>();
  private readonly elementCache = new Map<string, ElementDecl>();
  /** Stand-ins for types and elements declared nowhere, by kind and QName key. */
  private readonly undeclared = new Map<string, ComplexType>();
  /** Name hints of anonymous types, for the naming pass. */
  readonly nameHints = new Map<ComplexType | SimpleType, string>();
  private readonly index: {
    readonly elements: ComponentIndex<Scoped<RawElement>>;
    readonly types: ComponentIndex<"complex" | "simple">;
    readonly groups: ComponentIndex<Scoped<RawParticle | undefined>>;
    readonly attributeGroups: ComponentIndex<Scoped<RawAttributeGroup["attributes"]>>;
    readonly attributes: ComponentIndex<Scoped<RawAttribute>>;
  };

  /** The members of each substitution group head (see passes/substitution-groups.ts). */
  private readonly substitutions: SubstitutionGroups;
  /** The types derived from each type (see passes/derivation-families.ts). */
  private readonly families: DerivationFamilies;

  constructor(schemas: readonly RawSchema[], diagnostics: DiagnosticBag) {
    this.diagnostics = diagnostics;
    const declaredAt = new Map<string, SourceLocation>();
    // A schema document included by one and imported by another is read once per namespace.
    const read = new Set<string>();
    for (const schema of schemas) {
      const ns = schema.targetNamespace;
      const at = `${schema.loc.file}:${schema.loc.line}:${schema.loc.column} ${ns}`;
      if (read.has(at)) continue;
      read.add(at);
      // Where each kept component is declared, to point a duplicate at its first declaration.
      const put = <T>(
        map: Map<string, Scoped<T>>,
        what: string,
        c: { readonly name?: string; readonly loc: SourceLocation },
        raw: T,
      ) => {
        if (c.name === undefined) return;
        const k = qnameKey({ ns, local: c.name });
        const kept = declaredAt.get(`${what} ${k}`);
        if (kept) return void diagnostics.add(duplicate(what, k, kept, c.loc));
        declaredAt.set(`${what} ${k}`, c.loc);
        map.set(k, { raw, schema });
      };
      for (const e of schema.elements) put(this.elements, "element", e, e);
      for (const t of schema.complexTypes) put(this.complexTypes, "type", t, t);
      for (const t of schema.simpleTypes) put(this.simpleTypes, "type", t, t);
      for (const g of schema.groups) put(this.groups, "group", g, g.particle);
      for (const g of schema.attributeGroups)
        put(this.attributeGroups, "attribute group", g, g.attributes);
      for (const a of schema.attributes) put(this.attributes, "attribute", a, a);
    }
    const typeKinds = new Map<string, "complex" | "simple">();
    for (const k of this.simpleTypes.keys()) typeKinds.set(k, "simple");
    for (const k of this.complexTypes.keys()) typeKinds.set(k, "complex");
    this.index = {
      elements: new ComponentIndex(this.elements, "element", "XSD"),
      types: new ComponentIndex(typeKinds, "type", "XSD"),
      groups: new ComponentIndex(this.groups, "group", "XSD"),
      attributeGroups: new ComponentIndex(this.attributeGroups, "attribute group", "XSD"),
      attributes: new ComponentIndex(this.attributes, "attribute", "XSD"),
    };
    this.substitutions = new SubstitutionGroups(
      this.elements,
      (name, at) => this.element(name, at),
      diagnostics,
    );
    this.families = new DerivationFamilies(this.complexTypes, (d) =>
      this.complexType(d.raw, d.schema, d.name, d.name.local),
    );
  }

  /** Records that `name` resolves to nothing; `instead` says what is done without it. */
  private missing(what: string, name: QName, at: SourceLocation, instead: string): void {
    this.diagnostics.add(unresolved("XSD", what, name, at, EXPECTED, instead));
  }

  /**
   * The stand-in for a type or element declared nowhere: xs:anyType's content model (any text, any
   * child elements, any attributes), kept raw as `$value`, `$any` and `$attributes` so that nothing
   * on the wire is dropped. One per missing name; named after it.
   */
  private anyContent(name: QName, what: "type" | "element", loc: SourceLocation): ComplexType {
    const key = `${what} ${qnameKey(name)}`;
    const known = this.undeclared.get(key);
    if (known) return known;
    const ct = syntheticType([], loc, {
      simpleContent: XS_STRING,
      mixed: true,
      anyElements: true,
      anyAttributes: true,
      doc: `The ${what} {${name.ns}}${name.local} is declared in no schema this WSDL reads: its content is kept as xs:anyType's, raw (text in $value, child elements in $any, attributes in $attributes).`,
    });
    this.undeclared.set(key, ct);
    this.nameHints.set(ct, name.local);
    return ct;
  }

  /**
   * The global element `name`. When it is declared nowhere: an element of that name whose content
   * is kept raw (see `anyContent`), with a recovery warning.
   */
  element(name: QName, at: SourceLocation): ElementDecl {
    // Reported at every reference, as a missing type is; the stand-in is made once.
    const found = this.resolveElement(
      name,
      at,
      "reading it as an element of that name whose content is xs:anyType's, kept as raw XML",
    );
    if (found) return found;
    const k = `undeclared ${qnameKey(name)}`;
    const again = this.elementCache.get(k);
    if (again) return again;
    const decl: ElementDecl = {
      kind: "elementDecl",
      name: { ns: name.ns, local: name.local },
      type: this.anyContent(name, "element", at),
      nillable: false,
      abstract: false,
      doc: undefined,
      loc: at,
    };
    this.elementCache.set(k, decl);
    return decl;
  }

  /**
   * The global element `name`; when it is declared nowhere, undefined and a recovery warning saying
   * what the caller does without it (`instead`).
   */
  resolveElement(name: QName, at: SourceLocation, instead: string): ElementDecl | undefined {
    const found = this.lookupElement(name, at);
    if (!found) this.missing("element", name, at, instead);
    return found;
  }

  /** The global element `name`, or undefined (without a diagnostic) when it is not declared. */
  lookupElement(name: QName, at: SourceLocation): ElementDecl | undefined {
    // A prefix no xmlns binds names no namespace for certain: never take it as an exact match.
    const cached =
      name.unboundPrefix === undefined ? this.elementCache.get(qnameKey(name)) : undefined;
    if (cached) return cached;
    const found = this.index.elements.lookup(name, at, this.diagnostics);
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
    if (cached) return this.reached(cached);
    const found = this.index.types.lookup(name, at, this.diagnostics);
    if (found) {
      const again = this.typeCache.get(found.key);
      if (again) return this.reached(again);
      if (found.value === "complex") {
        const ct = this.complexTypes.get(found.key)!;
        return this.complexType(ct.raw, ct.schema, found.name, found.name.local, created);
      }
      const st = this.simpleTypes.get(found.key)!;
      return this.simpleType(st.raw, st.schema, found.name, found.name.local);
    }
    // `type="string"` without a default namespace, or `xs:string` with `xs` unbound: the built-in.
    if (name.unboundPrefix !== undefined || name.ns === "") {
      const b = builtinType({ ns: NS.xsd, local: name.local });
      if (b) {
        const written =
          name.unboundPrefix !== undefined ? `${name.unboundPrefix}:${name.local}` : name.local;
        this.diagnostics.add(
          recovery(
            "XSD_RESOLVED_BY_LOCAL_NAME",
            `the type reference ${written} does not name an XML Schema type as written; using the built-in xs:${name.local}`,
            at,
          ),
        );
        return b;
      }
    }
    // `type="c:DummyResult"` (or an extension base) naming a global element and no type: its type.
    if (this.elements.has(qnameKey(name))) {
      this.diagnostics.add(
        recovery(
          "XSD_TYPE_NAMES_ELEMENT",
          `the type reference {${name.ns}}${name.local} names a global element, not a type; using that element's type`,
          at,
        ),
      );
      return this.element(name, at).type;
    }
    if (simple) {
      this.missing("type", name, at, "reading it as xs:string, where a simple type is expected");
      return XS_STRING;
    }
    this.missing(
      "type",
      name,
      at,
      "reading it as xs:anyType: its content (text, child elements, attributes) kept as raw XML",
    );
    return this.anyContent(name, "type", at);
  }

  private elementType(
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

  private simpleOrBuiltin(
    name: QName | undefined,
    inline: RawSimpleType | undefined,
    schema: RawSchema,
    hint: string,
    at: SourceLocation,
  ): BuiltinType | SimpleType {
    if (inline) return this.simpleType(inline, schema, undefined, hint);
    if (!name) return XS_STRING;
    const t = this.type(name, at, true);
    if (t.kind === "complex") {
      if (t.simpleContent) return t.simpleContent;
      this.diagnostics.error(
        "XSD_EXPECTED_SIMPLE",
        `{${name.ns}}${name.local} is a complex type; expected a simple type here`,
        at,
      );
      return XS_STRING;
    }
    return t;
  }

  /** Simple types being mapped: meeting one again means it is derived from itself. */
  private readonly simpleInProgress = new Set<TypeRef>();

  /**
   * A mapped type met again; a simple one still being mapped closes a circle, said at its
   * declaration.
   */
  private reached(t: TypeRef): TypeRef {
    if (t.kind === "simple" && this.simpleInProgress.has(t)) {
      const n = t.name ? `{${t.name.ns}}${t.name.local}` : "an anonymous simple type";
      this.diagnostics.add(
        recovery(
          "XSD_CIRCULAR",
          `the simple type ${n} is derived from itself (by restriction or list); expected a base or item type that does not derive from it; where it refers to itself, reading it as xs:string`,
          t.loc,
        ),
      );
    }
    return t;
  }

  simpleType(
    raw: RawSimpleType,
    schema: RawSchema,
    name: QName | undefined,
    hint: string,
  ): SimpleType | BuiltinType {
    const key = name ? qnameKey(name) : raw;
    const cached = this.typeCache.get(key);
    if (cached) return this.reached(cached) as SimpleType;
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
    this.simpleInProgress.add(st);
    try {
      this.mapSimpleType(st, raw, schema, hint);
    } finally {
      this.simpleInProgress.delete(st);
    }
    return st;
  }

  private mapSimpleType(
    st: Mutable<SimpleType>,
    raw: RawSimpleType,
    schema: RawSchema,
    hint: string,
  ): void {
    if (raw.restriction) {
      const base = this.simpleOrBuiltin(
        raw.restriction.base,
        raw.restriction.inlineBase,
        schema,
        hint,
        raw.loc,
      );
      st.base = base.kind === "builtin" ? base : base.base;
      st.list = base.kind === "simple" && base.list;
      // A list's enumeration facets enumerate whole lists, which the items' values cannot say: its
      // items keep theirs.
      const own = st.list ? [] : raw.restriction.enumeration;
      st.enumeration = own.length > 0 ? own : base.kind === "simple" ? base.enumeration : [];
    } else if (raw.list) {
      const item = this.simpleOrBuiltin(
        raw.list.itemType,
        raw.list.inline,
        schema,
        `${hint}Item`,
        raw.loc,
      );
      st.base = item.kind === "builtin" ? item : item.base;
      // Each item takes one of the item type's values (WCF's [Flags] enums are lists of an
      // enumeration).
      st.enumeration = item.kind === "simple" ? item.enumeration : [];
      st.list = true;
    } else if (raw.union) {
      // Read as strings, whatever its members; a member declared nowhere is still said.
      for (const m of raw.union.memberTypes) {
        // As type() reads it: a name in no namespace, or with an unbound prefix, may be a built-in.
        const bare = m.unboundPrefix !== undefined || m.ns === "";
        if (builtinType(m) || (bare && builtinType({ ns: NS.xsd, local: m.local }))) continue;
        this.index.types.resolve(
          m,
          raw.loc,
          this.diagnostics,
          EXPECTED,
          "the union's values are read as strings",
        );
      }
      st.base = XS_STRING;
    }
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

    const { particle, attributes } = this.mapDerivation(ct, raw, schema);
    this.mapContent(() => this.mapFields(ct, raw, schema, hint, particle, attributes));
    return ct;
  }

  /**
   * Maps what `ct` derives from (its base, what it restricts, or its simple content) and returns
   * the content model and attributes that are its own.
   */
  private mapDerivation(
    ct: Mutable<ComplexType>,
    raw: RawComplexType,
    schema: RawSchema,
  ): OwnContent {
    if (raw.complexContent) {
      const d = raw.complexContent;
      ct.anyAttributes = d.anyAttribute;
      if (d.derivation === "extension") {
        const base = this.baseType(d.base, d.loc);
        if (base.kind === "complex") ct.base = acyclicBase(ct, base, d.loc, this.diagnostics);
      } else if (!SOAP_ENCODINGS.has(d.base.ns) && d.base.ns !== NS.xsd) {
        // A restriction of a declared complex type (not of xs:anyType, nor an encoded array's
        // soapenc:Array); a base declared nowhere is said, and the type keeps its own content.
        const found = this.index.types.resolve(
          d.base,
          d.loc,
          this.diagnostics,
          EXPECTED,
          "the type is read as its own content, restricting nothing",
        );
        const base = found?.value === "complex" ? this.baseType(found.name, d.loc) : undefined;
        const restricts =
          base?.kind === "complex" ? acyclicBase(ct, base, d.loc, this.diagnostics) : undefined;
        if (restricts) {
          ct.restricts = restricts;
          this.restricted.set(ct, prohibitedAttributes(d.attributes, schema));
        }
      }
      return { particle: d.particle, attributes: d.attributes };
    }
    if (raw.simpleContent) {
      const d = raw.simpleContent;
      ct.anyAttributes = d.anyAttribute;
      const base = this.baseType(d.base, d.loc);
      if (base.kind === "complex") {
        ct.simpleContent = base.simpleContent ?? XS_STRING;
        if (d.derivation === "extension") ct.base = acyclicBase(ct, base, d.loc, this.diagnostics);
      } else {
        ct.simpleContent = base;
      }
      return { particle: raw.particle, attributes: d.attributes };
    }
    return { particle: raw.particle, attributes: raw.attributes };
  }

  /** Maps the fields and attributes of `ct`, whose content model is `particle`. */
  private mapFields(
    ct: Mutable<ComplexType>,
    raw: RawComplexType,
    schema: RawSchema,
    hint: string,
    particle: OwnContent["particle"],
    attrs: OwnContent["attributes"],
  ): void {
    const flat = flattenContent(particle, schema, hint, this.rules);
    ct.fields = flat.fields;
    ct.anyElements = flat.anyElements;
    if (flat.anyPosition !== undefined) ct.anyPosition = flat.anyPosition;
    const own = attributeFields(attrs, schema, hint, this.rules);
    ct.attributes = own.attributes;
    if (own.open) ct.anyAttributes = true;
    const d = raw.complexContent;
    if (d !== undefined && isEncodedArray(d))
      shapeEncodedArray(ct, d, (n, at) => this.type(n, at), this.diagnostics);
  }

  private mappingContext: (FlattenContext & AttributeContext) | undefined;

  /**
   * What the rules called while a type is mapped ask of this set: groups, attribute groups and
   * attributes by reference, each element's field, attributes' value types.
   */
  private get rules(): FlattenContext & AttributeContext {
    return (this.mappingContext ??= {
      diagnostics: this.diagnostics,
      group: (ref, at) =>
        this.index.groups.resolve(
          ref,
          at,
          this.diagnostics,
          EXPECTED,
          "its content is kept as raw XML trees in $any",
        ),
      field: (raw, schema, hint) => this.field(raw, schema, hint),
      attributeGroup: (ref, at) =>
        this.index.attributeGroups.resolve(
          ref,
          at,
          this.diagnostics,
          EXPECTED,
          "its attributes are kept in $attributes",
        ),
      attribute: (ref, at) => {
        const found = this.index.attributes.lookup(ref, at, this.diagnostics);
        if (!found)
          this.missing(
            "attribute",
            ref,
            at,
            "reading it as an attribute of that name of type xs:string",
          );
        return found;
      },
      valueType: (name, inline, schema, hint, at) =>
        this.simpleOrBuiltin(name, inline, schema, hint, at),
    });
  }

  /**
   * Types that restrict a declared complex type, each with the attributes its restriction prohibits
   * (by key).
   */
  private readonly restricted = new Map<ComplexType, ReadonlySet<string>>();
  /** The restrictions mapped so far, for the restrictions pass (see passes/restrictions.ts). */
  get restrictions(): ReadonlyMap<ComplexType, ReadonlySet<string>> {
    return this.restricted;
  }

  /**
   * Content models being mapped, one inside another (a type's fields reaching a type not mapped
   * yet).
   */
  private contentDepth = 0;
  /** Content models put off (see mapContent), in the order met. */
  private readonly deferredContent: (() => void)[] = [];

  /**
   * Maps a type's content now, or, past MAX_CONTENT_DEPTH types mapped one inside another, once the
   * outermost is done: a chain of thousands of named types (T0 holds a T1, which holds a T2, …)
   * would otherwise overflow the stack. A type is cached before its content is mapped (recursive
   * types rely on it), so putting the content off changes nothing but the order types are met in,
   * and only for schemas that deep; every type is complete when the outermost call returns.
   */
  private mapContent(content: () => void): void {
    if (this.contentDepth >= MAX_CONTENT_DEPTH) {
      this.deferredContent.push(content);
      return;
    }
    const outermost = this.contentDepth === 0;
    for (
      let next: (() => void) | undefined = content;
      next !== undefined;
      next = outermost ? this.deferredContent.shift() : undefined
    ) {
      this.contentDepth++;
      try {
        next();
      } finally {
        this.contentDepth--;
      }
    }
  }

  /** Bases being resolved, one inside another: the derivation chain mapped so far. */
  private derivationDepth = 0;

  /**
   * The base type a complex type extends. A derivation chain is mapped one base inside another, so
   * its length is bounded (as element nesting is): a chain of thousands would overflow the stack
   * here or in the emitters, and its family unions grow with its square.
   */
  private baseType(name: QName, at: SourceLocation): TypeRef {
    if (this.derivationDepth >= MAX_DERIVATION_DEPTH) {
      this.diagnostics.error(
        "XSD_TOO_DEEP",
        `the derivation chain reaching {${name.ns}}${name.local} is longer than ${MAX_DERIVATION_DEPTH} types; expected at most ${MAX_DERIVATION_DEPTH}`,
        at,
      );
      return XS_ANYTYPE;
    }
    this.derivationDepth++;
    try {
      return this.type(name, at);
    } finally {
      this.derivationDepth--;
    }
  }

  private field(raw: RawElement, schema: RawSchema, hint: string): ElementField {
    if (raw.ref) {
      const decl = this.element(raw.ref, raw.loc);
      const members = this.substitutions.members(decl, raw.loc);
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
      type: this.elementType(
        raw,
        schema,
        `${hint}${local.charAt(0).toUpperCase()}${local.slice(1)}`,
      ),
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
}
