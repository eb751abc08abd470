/**
 * The global components of the raw schemas by QName, the first declaration of each name kept (a
 * later one is a located XSD_DUPLICATE), and their lenient lookup (lenient.ts): what SchemaSet
 * resolves references against before it maps anything.
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics.js";
import { qnameKey, type QName } from "../parse/qname.js";
import type {
  RawAttribute,
  RawAttributeGroup,
  RawComplexType,
  RawElement,
  RawParticle,
  RawSchema,
  RawSimpleType,
} from "../parse/xsd.js";
import { ComponentIndex, unresolved } from "./lenient.js";
import { recovery } from "../recovery.js";

/** A global component declared again under a name already taken (types: simple or complex). */
const duplicate = (what: string, key: string, kept: SourceLocation, again: SourceLocation) =>
  recovery(
    "XSD_DUPLICATE",
    `${what} ${key} is declared twice; expected one global declaration of each name; ` +
      `the first (${kept.file}:${kept.line}) is read, this one is left out`,
    again,
  );

export const EXPECTED =
  "expected a declaration in this WSDL's schemas, an imported schema, or an XSD built-in";

/** A raw component, with the schema that declares it (its namespace and forms). */
export interface Scoped<T> {
  readonly raw: T;
  readonly schema: RawSchema;
}

type AttributeGroupContent = RawAttributeGroup["attributes"];

/** The schemas' global components by QName key, and their lenient lookup. */
export class SchemaIndex {
  readonly elements = new Map<string, Scoped<RawElement>>();
  readonly complexTypes = new Map<string, Scoped<RawComplexType>>();
  readonly simpleTypes = new Map<string, Scoped<RawSimpleType>>();
  private readonly groups = new Map<string, Scoped<RawParticle | undefined>>();
  private readonly attributeGroups = new Map<string, Scoped<AttributeGroupContent>>();
  private readonly attributes = new Map<string, Scoped<RawAttribute>>();
  readonly lookup: {
    readonly elements: ComponentIndex<Scoped<RawElement>>;
    readonly types: ComponentIndex<"complex" | "simple">;
    readonly groups: ComponentIndex<Scoped<RawParticle | undefined>>;
    readonly attributeGroups: ComponentIndex<Scoped<AttributeGroupContent>>;
    readonly attributes: ComponentIndex<Scoped<RawAttribute>>;
  };

  constructor(
    schemas: readonly RawSchema[],
    private readonly diagnostics: DiagnosticBag,
  ) {
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
    this.lookup = this.lookups();
  }

  private lookups(): SchemaIndex["lookup"] {
    const typeKinds = new Map<string, "complex" | "simple">();
    for (const k of this.simpleTypes.keys()) typeKinds.set(k, "simple");
    for (const k of this.complexTypes.keys()) typeKinds.set(k, "complex");
    return {
      elements: new ComponentIndex(this.elements, "element", "XSD"),
      types: new ComponentIndex(typeKinds, "type", "XSD"),
      groups: new ComponentIndex(this.groups, "group", "XSD"),
      attributeGroups: new ComponentIndex(this.attributeGroups, "attribute group", "XSD"),
      attributes: new ComponentIndex(this.attributes, "attribute", "XSD"),
    };
  }

  /** Records that `name` resolves to nothing; `instead` says what is done without it. */
  missing(what: string, name: QName, at: SourceLocation, instead: string): void {
    this.diagnostics.add(unresolved("XSD", what, name, at, EXPECTED, instead));
  }

  /** The group `ref`; declared nowhere, a recovery warning and undefined. */
  group(ref: QName, at: SourceLocation) {
    return this.lookup.groups.resolve(
      ref,
      at,
      this.diagnostics,
      EXPECTED,
      "its content is kept as raw XML trees in $any",
    );
  }

  /** The attribute group `ref`; declared nowhere, a recovery warning and undefined. */
  attributeGroup(ref: QName, at: SourceLocation) {
    return this.lookup.attributeGroups.resolve(
      ref,
      at,
      this.diagnostics,
      EXPECTED,
      "its attributes are kept in $attributes",
    );
  }

  /** The global attribute `ref`; declared nowhere, a recovery warning and undefined. */
  attribute(ref: QName, at: SourceLocation) {
    const found = this.lookup.attributes.lookup(ref, at, this.diagnostics);
    if (!found)
      this.missing(
        "attribute",
        ref,
        at,
        "reading it as an attribute of that name of type xs:string",
      );
    return found;
  }
}
