/**
 * The functions and constants generated code declares its type descriptors with (`complex`,
 * `field`, `scalar`, `xs`, occurrence shorthands), and the lookups the reader and writer make in
 * them. The descriptors' shapes are in descriptors/types.ts.
 */
import type { ScalarKind } from "../scalars/scalars.js";
import type {
  ArrayDesc,
  AttrDesc,
  ComplexDesc,
  EncodedArray,
  FamilyDesc,
  Facets,
  FamilyOptions,
  FieldDesc,
  ScalarDesc,
  TypeDesc,
} from "./types.js";

class Family implements FamilyDesc {
  private resolved: readonly ComplexDesc[] | undefined;
  readonly ns: string;
  readonly tag: string;
  readonly abstract: boolean;
  constructor(
    name: string,
    private readonly options: FamilyOptions,
  ) {
    this.ns = options.ns;
    this.tag = options.tag ?? name;
    this.abstract = options.abstract ?? false;
  }
  get derived(): readonly ComplexDesc[] {
    if (this.resolved) return this.resolved;
    // Set first, so that a cycle in a broken schema ends instead of recursing forever.
    this.resolved = [];
    const all = new Set<ComplexDesc>();
    for (const d of this.options.derived?.() ?? []) {
      if (!d.family?.abstract) all.add(d);
      for (const below of d.family?.derived ?? []) all.add(below);
    }
    return (this.resolved = [...all]);
  }
}

export const UNBOUNDED = Infinity;

/** Field options of an optional element (`minOccurs="0"`), the most common shapes by name. */
export const OPTIONAL = { min: 0 } as const;
/** An optional element that may also be nil (`nillable="true"`). */
export const OPTIONAL_NILLABLE = { min: 0, nillable: true } as const;
/** A repeated element that may be absent (`minOccurs="0" maxOccurs="unbounded"`). */
export const REPEATED = { min: 0, max: UNBOUNDED } as const;
/** A repeated element whose items may be nil. */
export const REPEATED_NILLABLE = { min: 0, max: UNBOUNDED, nillable: true } as const;
/**
 * A required element that may not be nil (the XSD default): stated where a file's `field` gives its
 * fields other options unless they state their own (`fieldsIn(NS, OPTIONAL_NILLABLE)`).
 */
export const REQUIRED = { min: 1 } as const;

/**
 * What a scalar's descriptor says besides its kind: a list, enumerated values, the XSD built-in its
 * values are of (`ScalarDesc.xsd`), a union's members, and its facets, written flat.
 */
export interface ScalarOptions extends Facets {
  readonly list?: boolean;
  readonly values?: readonly string[];
  readonly xsd?: string;
  readonly union?: readonly ScalarDesc[];
}

const scalarCache = new Map<string, ScalarDesc>();
/** A scalar type descriptor (cached, so identical ones are shared). */
export function scalar(s: ScalarKind, options: ScalarOptions = {}): ScalarDesc {
  const { list, values, xsd, union, ...facets } = options;
  const faceted = Object.keys(facets).length > 0;
  if (!list && !values && !faceted && !union) {
    const key = xsd === undefined ? s : `${s} ${xsd}`;
    let d = scalarCache.get(key);
    if (!d) scalarCache.set(key, (d = { k: "scalar", s, ...(xsd === undefined ? {} : { xsd }) }));
    return d;
  }
  return {
    k: "scalar",
    s,
    ...(list ? { list: true } : {}),
    ...(values ? { values } : {}),
    ...(xsd === undefined ? {} : { xsd }),
    ...(union ? { union } : {}),
    ...(faceted ? { facets } : {}),
  };
}

/** The built-in types whose values are strings of their own lexical rules (`ScalarDesc.xsd`). */
const XSD_STRINGS = [
  "normalizedString",
  "token",
  "language",
  "Name",
  "NCName",
  "NMTOKEN",
  "NMTOKENS",
  "ID",
  "IDREF",
  "IDREFS",
  "ENTITY",
  "ENTITIES",
  "anyURI",
  "QName",
  "NOTATION",
  "duration",
  "gYear",
  "gYearMonth",
  "gMonth",
  "gMonthDay",
  "gDay",
] as const;

export interface FieldOptions {
  readonly prop?: string;
  readonly min?: number;
  readonly max?: number;
  readonly nillable?: boolean;
  /** The elements of the substitution group this element heads (see `FieldDesc.substitutes`). */
  readonly substitutes?: () => readonly FieldDesc[];
  readonly abstract?: boolean;
  /** See `FieldDesc.choice`. */
  readonly choice?: boolean;
  /** See `FieldDesc.branch`. */
  readonly branch?: number;
  /**
   * The element is in the ordered list whose property this is (`FieldDesc.tag`): `prop` is then
   * its items' `$choice`, `min` defaults to 0 (the list may be empty) and `max` is unbounded.
   */
  readonly in?: string;
  /** See `FieldDesc.fixed`. */
  readonly fixed?: string;
  /** See `FieldDesc.default`. */
  readonly default?: string;
  /** See `FieldDesc.xsiType`. */
  readonly xsiType?: EncodedArray;
}

/** One shape for every field descriptor, so the decoder's property accesses stay monomorphic. */
class Field implements FieldDesc {
  readonly default: string | undefined;
  private resolved: TypeDesc | undefined;
  private members: readonly FieldDesc[] | undefined;
  constructor(
    readonly name: string,
    readonly ns: string,
    private readonly thunk: TypeDesc | (() => TypeDesc),
    readonly prop: string,
    readonly min: number,
    readonly max: number,
    readonly nillable: boolean,
    private readonly substitutesThunk: (() => readonly FieldDesc[]) | undefined,
    readonly abstract: boolean,
    readonly substituteOf: FieldDesc | undefined,
    readonly choice: boolean,
    readonly fixed: string | undefined,
    // `default` is a reserved word, so not a parameter property.
    defaultValue: string | undefined,
    readonly xsiType: EncodedArray | undefined,
    readonly branch: number | undefined,
    readonly tag: string | undefined,
  ) {
    this.resolved = typeof thunk === "function" ? undefined : thunk;
    this.default = defaultValue;
  }
  get type(): TypeDesc {
    return (this.resolved ??= (this.thunk as () => TypeDesc)());
  }
  get substitutes(): readonly FieldDesc[] | undefined {
    if (this.substitutesThunk === undefined) return undefined;
    // Each member as a field of this one's property and occurrence, knowing whom it stands for.
    return (this.members ??= this.substitutesThunk().map(
      (m) =>
        new Field(
          m.name,
          m.ns,
          () => m.type,
          this.prop,
          this.min,
          this.max,
          this.nillable,
          undefined,
          false,
          this,
          this.choice,
          undefined,
          undefined,
          undefined,
          this.branch,
          this.tag,
        ),
    ));
  }
  toJSON(): object {
    return {
      name: this.name,
      ns: this.ns,
      prop: this.prop,
      min: this.min,
      max: this.max,
      nillable: this.nillable,
    };
  }
}

/** An element field; `type` may be a thunk so that types can refer to each other in any order. */
export function field(
  name: string,
  ns: string,
  type: TypeDesc | (() => TypeDesc),
  options: FieldOptions = {},
): FieldDesc {
  const list = options.in;
  return new Field(
    name,
    ns,
    type,
    list ?? options.prop ?? name,
    options.min ?? (list === undefined ? 1 : 0),
    list === undefined ? (options.max ?? 1) : UNBOUNDED,
    options.nillable ?? false,
    options.substitutes,
    options.abstract ?? false,
    undefined,
    options.choice ?? false,
    options.fixed,
    options.default,
    options.xsiType,
    options.branch,
    list === undefined ? undefined : (options.prop ?? name),
  );
}

/**
 * `field` with a default namespace, and default options for a field that states none
 * (`fieldsIn(NS, OPTIONAL_NILLABLE)`): generated code names only the other namespaces
 * (`field("Code", NS5, xs.int)`) and options (`REQUIRED`), and stated options replace the defaults.
 */
export interface FieldIn {
  (name: string, type: TypeDesc | (() => TypeDesc), options?: FieldOptions): FieldDesc;
  (name: string, ns: string, type: TypeDesc | (() => TypeDesc), options?: FieldOptions): FieldDesc;
}

/**
 * The `field` of a file whose elements are mostly in `ns` and whose fields mostly have the options
 * `defaults` (see `FieldIn`).
 */
export function fieldsIn(ns: string, defaults: FieldOptions = {}): FieldIn {
  // A type descriptor is never a string, so a string second argument is a namespace.
  return (
    name: string,
    nsOrType: string | TypeDesc | (() => TypeDesc),
    typeOrOptions?: TypeDesc | (() => TypeDesc) | FieldOptions,
    options?: FieldOptions,
  ) =>
    typeof nsOrType === "string"
      ? field(name, nsOrType, typeOrOptions as TypeDesc | (() => TypeDesc), options ?? defaults)
      : field(name, ns, nsOrType, (typeOrOptions as FieldOptions | undefined) ?? defaults);
}

export function attribute(
  name: string,
  ns: string,
  type: ScalarDesc,
  options: { prop?: string; required?: boolean; fixed?: string } = {},
): AttrDesc {
  return {
    name,
    ns,
    prop: options.prop ?? name,
    type,
    required: options.required ?? false,
    fixed: options.fixed,
  };
}

class Complex implements ComplexDesc {
  readonly k = "complex" as const;
  private resolved: readonly FieldDesc[] | undefined;
  private resolvedAttrs: readonly AttrDesc[] | undefined;
  private byLocal: Map<string, FieldDesc | FieldDesc[]> | undefined;
  private readonly base: (() => ComplexDesc) | undefined;
  readonly any?: boolean;
  readonly anyAt?: number;
  readonly anyRequired?: string;
  readonly anyElement?: string;
  readonly anyAttrs?: boolean;
  readonly family?: FamilyDesc;
  constructor(
    readonly name: string,
    private readonly thunk: () => readonly FieldDesc[],
    private readonly ownAttrs: readonly AttrDesc[],
    readonly text: ScalarDesc | undefined,
    options: ComplexOptions,
  ) {
    if (options.any) this.any = true;
    if (options.anyAt !== undefined) this.anyAt = options.anyAt;
    if (options.anyRequired !== undefined) this.anyRequired = options.anyRequired;
    if (options.anyElement !== undefined) this.anyElement = options.anyElement;
    if (options.anyAttrs) this.anyAttrs = true;
    if (options.family) this.family = new Family(name, options.family);
    this.base = options.base;
  }
  /** The base's fields (an extension's inherited content) come first, then the type's own. */
  get fields(): readonly FieldDesc[] {
    return (this.resolved ??= this.base ? [...this.base().fields, ...this.thunk()] : this.thunk());
  }
  get attrs(): readonly AttrDesc[] {
    return (this.resolvedAttrs ??= this.base
      ? [...this.base().attrs, ...this.ownAttrs]
      : this.ownAttrs);
  }
  /** The field for a child element, by local name and namespace. */
  fieldFor(ns: string, local: string): FieldDesc | undefined {
    let index = this.byLocal;
    if (!index) {
      index = new Map();
      for (const f of this.fields.flatMap((f) => [f, ...(f.substitutes ?? [])])) {
        const have = index.get(f.name);
        if (have === undefined) index.set(f.name, f);
        else index.set(f.name, Array.isArray(have) ? [...have, f] : [have, f]);
      }
      this.byLocal = index;
    }
    const hit = index.get(local);
    if (hit === undefined) return undefined;
    if (!Array.isArray(hit)) return hit.ns === ns ? hit : undefined;
    return hit.find((f) => f.ns === ns);
  }
}

export interface ComplexOptions {
  /**
   * The type this one extends: its fields and attributes come first, so that a derived type need
   * not restate them.
   */
  readonly base?: () => ComplexDesc;
  readonly attrs?: readonly AttrDesc[];
  readonly text?: ScalarDesc;
  readonly any?: boolean;
  readonly anyAt?: number;
  /** See `ComplexDesc.anyRequired`. */
  readonly anyRequired?: string;
  /** See `ComplexDesc.anyElement`. */
  readonly anyElement?: string;
  readonly anyAttrs?: boolean;
  readonly family?: FamilyOptions;
}

/** A complex type; `fields` (its own) is a thunk so that recursive and forward references work. */
export function complex(
  name: string,
  fields: () => readonly FieldDesc[],
  options: ComplexOptions = {},
): ComplexDesc {
  return new Complex(name, fields, options.attrs ?? [], options.text, options);
}

/**
 * The type of the family of `declared` whose `xsi:type` is `{ns}local`: `declared` itself or one of
 * its derived types; undefined when none is.
 */
export function familyMember(
  declared: ComplexDesc,
  ns: string,
  local: string,
): ComplexDesc | undefined {
  const f = declared.family;
  if (!f) return undefined;
  if (declared.name === local && f.ns === ns) return declared;
  for (const d of f.derived) if (d.name === local && d.family?.ns === ns) return d;
  return undefined;
}

/** The type of the family of `declared` whose values have `$type` `tag`. */
export function familyMemberByTag(declared: ComplexDesc, tag: string): ComplexDesc | undefined {
  const f = declared.family;
  if (!f) return undefined;
  if (f.tag === tag) return declared;
  for (const d of f.derived) if (d.family?.tag === tag) return d;
  return undefined;
}

/** The field of `owner` for a child element, for any ComplexDesc (generated or hand-written). */
export function childField(owner: ComplexDesc, ns: string, local: string): FieldDesc | undefined {
  if (owner instanceof Complex) return owner.fieldFor(ns, local);
  return owner.fields
    .flatMap((f) => [f, ...(f.substitutes ?? [])])
    .find((f) => f.name === local && f.ns === ns);
}

export function array(name: string, item: FieldDesc, encoded?: EncodedArray): ArrayDesc {
  return encoded ? { k: "array", name, item, encoded } : { k: "array", name, item };
}

/** The built-in scalar descriptors generated code refers to, e.g. `xs.dateTime`. */
export const xs = {
  string: scalar("string"),
  boolean: scalar("boolean"),
  int: scalar("int"),
  short: scalar("short"),
  byte: scalar("byte"),
  unsignedInt: scalar("unsignedInt"),
  unsignedShort: scalar("unsignedShort"),
  unsignedByte: scalar("unsignedByte"),
  long: scalar("long"),
  unsignedLong: scalar("unsignedLong"),
  integer: scalar("integer"),
  nonNegativeInteger: scalar("nonNegativeInteger"),
  positiveInteger: scalar("positiveInteger"),
  nonPositiveInteger: scalar("nonPositiveInteger"),
  negativeInteger: scalar("negativeInteger"),
  decimal: scalar("decimal"),
  float: scalar("float"),
  double: scalar("double"),
  dateTime: scalar("dateTime"),
  date: scalar("date"),
  time: scalar("time"),
  base64Binary: scalar("base64Binary"),
  hexBinary: scalar("hexBinary"),
  anyType: scalar("anyType"),
  ...(Object.fromEntries(XSD_STRINGS.map((x) => [x, scalar("string", { xsd: x })])) as Record<
    (typeof XSD_STRINGS)[number],
    ScalarDesc
  >),
} as const satisfies Record<ScalarKind, ScalarDesc>;
