/**
 * The codec descriptors generated code declares: what the XML of each type looks like (element
 * names, namespaces, order, occurrence, nillable). The runtime encodes and decodes with them; it
 * never reads the WSDL.
 */
import type { SoapFault, SoapFaultInit } from "./errors.js";
import type {
  FaultDesc,
  HttpOperationDesc,
  OperationTable,
  SoapOperationDesc,
} from "./operations.js";
import type { ScalarKind } from "./scalars.js";

/**
 * The TypeScript side of a type descriptor: the value (`T`) and input form (`In`) it stands for,
 * which `ValueOf` and `InputOf` read. Type-level only, never set; a method, so that an untyped
 * descriptor (`ComplexDesc`) and a typed one (`ComplexDesc<Messages, MessagesInput>`) are
 * assignable to each other while descriptors of unrelated types are not.
 */
interface Typed<T, In> {
  typeOf?(value: T, input: In): void;
}

export interface ScalarDesc<T = unknown, In = T> extends Typed<T, In> {
  readonly k: "scalar";
  readonly s: ScalarKind;
  /** `xs:list`: a whitespace-separated list of values, an array in JS. */
  readonly list?: boolean;
  /** Enumerated values, when the type restricts to them. */
  readonly values?: readonly string[];
}

export interface FieldDesc {
  /** The element's local name. */
  readonly name: string;
  /** The element's namespace; "" when unqualified. */
  readonly ns: string;
  /** The property name in JS (the local name, unless that clashes). */
  readonly prop: string;
  readonly type: TypeDesc;
  readonly min: number;
  /** `Infinity` for unbounded; above 1 the property is an array. */
  readonly max: number;
  readonly nillable: boolean;
  /**
   * The head of a substitution group: the elements that may stand in its place, as fields with the
   * head's property and occurrence; their values carry `$element` (the member's local name).
   */
  readonly substitutes?: readonly FieldDesc[] | undefined;
  /** Set on a substitute: the head it stands for. */
  readonly substituteOf?: FieldDesc | undefined;
  /** The head is abstract: only its substitutes may appear. */
  readonly abstract?: boolean;
  /**
   * A repeated element of a (non-repeated) choice's branch: absent, it is a branch not taken, so it
   * reads as absent, not as `[]` (the generated types forbid it beside another branch).
   */
  readonly choice?: boolean;
  /**
   * The schema's fixed value (lexical): written when the property is left out; another value is
   * refused.
   */
  readonly fixed?: string | undefined;
  /**
   * The schema's default (lexical): what the element stands for when present but empty (`<Id />`).
   */
  readonly default?: string | undefined;
  /** SOAP encoding (rpc/encoded): the type the element's `xsi:type` names when it is written. */
  readonly xsiType?: EncodedArray | undefined;
}

export interface AttrDesc {
  readonly name: string;
  readonly ns: string;
  readonly prop: string;
  readonly type: ScalarDesc;
  readonly required: boolean;
  /**
   * The schema's fixed value (lexical): written when the property is left out; another value is
   * refused.
   */
  readonly fixed?: string | undefined;
}

export interface ComplexDesc<T = unknown, In = T> extends Typed<T, In> {
  readonly k: "complex";
  readonly name: string;
  /** Element content in wire order, inherited fields first. */
  readonly fields: readonly FieldDesc[];
  readonly attrs: readonly AttrDesc[];
  /** simpleContent: the text value, as the `$value` property. */
  readonly text: ScalarDesc | undefined;
  /** `xs:any`: unknown child elements are kept as `$any` trees (and written back). */
  readonly any?: boolean;
  /**
   * Where `$any` content is written: before the field of this index (default: after every field).
   */
  readonly anyAt?: number;
  /** `xs:anyAttribute`: undeclared attributes are kept in `$attributes`. */
  readonly anyAttrs?: boolean;
  /**
   * For a type that extends another or is extended: how its values are told apart (`xsi:type`,
   * `$type`).
   */
  readonly family?: FamilyDesc;
}

/** A complex type's place in a derivation family. */
export interface FamilyDesc {
  /**
   * The type's namespace (its local name is the descriptor's `name`): the `xsi:type` written and
   * matched.
   */
  readonly ns: string;
  /** The `$type` of its values in JS (the generated type's name). */
  readonly tag: string;
  /**
   * Every concrete type derived from this one, directly or not: what a value declared as this type
   * may be.
   */
  readonly derived: readonly ComplexDesc[];
  /** An abstract type: a value must be one of `derived`. */
  readonly abstract: boolean;
}

export interface FamilyOptions {
  readonly ns: string;
  /** Default: the type's local name. */
  readonly tag?: string;
  /** The types derived from this one directly; `FamilyDesc.derived` adds theirs. */
  readonly derived?: () => readonly ComplexDesc[];
  readonly abstract?: boolean;
}

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

/**
 * An ASMX-style `ArrayOfX`: a type whose only content is one repeated element; a plain array in JS.
 */
export interface ArrayDesc<T = unknown, In = T> extends Typed<T, In> {
  readonly k: "array";
  readonly name: string;
  readonly item: FieldDesc;
  /**
   * A SOAP-encoded array (a restriction of `soapenc:Array`): its items' type, written as
   * `soapenc:arrayType="ns:Item[N]"` and each item's `xsi:type`. Its items are read under any name.
   */
  readonly encoded?: EncodedArray;
}

/**
 * A schema type by namespace and local name: a SOAP-encoded array's item type, a value's xsi:type.
 */
export interface EncodedArray {
  readonly ns: string;
  readonly type: string;
}

export type TypeDesc<T = unknown, In = T> =
  ScalarDesc<T, In> | ComplexDesc<T, In> | ArrayDesc<T, In>;

/** The TypeScript value a typed type descriptor decodes to (`ValueOf<typeof Messages>`). */
export type ValueOf<D> = D extends Typed<infer T, never> ? T : never;

/** The input form a typed type descriptor encodes from (dates also as `Date`, and the like). */
export type InputOf<D> = D extends Typed<never, infer In> ? In : never;

/** Where a message body's element goes in the typed API. */
export interface BodyDesc {
  /** The body element (for rpc style, the operation wrapper with the parts as its fields). */
  readonly element: FieldDesc;
  /**
   * When set, the typed value is the element's property `prop` (an unwrapped result) or the typed
   * input is `{ [prop]: elementValue }`; otherwise the element's value is the typed value itself.
   */
  readonly prop?: string;
  /**
   * The typed result is `void`: the element is read (or written empty) and its content discarded.
   */
  readonly void?: boolean;
  /**
   * A multi-part document/literal body: the body holds these fields' elements in order, with no
   * wrapper, and the typed value is an object with one property per part. `element` is the first.
   */
  readonly parts?: ComplexDesc;
  /**
   * HTTP GET/POST (`mime:mimeXml`): what a nil document element (`<dateTime xsi:nil="true" />`, as
   * ASMX writes a null result) reads as, by the typed result: "null" where it admits null (the SOAP
   * result element is nillable), "empty" (a new `[]`) where it is an array (a repeated result
   * element); absent, undefined.
   */
  readonly nil?: "null" | "empty";
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

const scalarCache = new Map<string, ScalarDesc>();
/** A scalar type descriptor (cached, so identical ones are shared). */
export function scalar(
  s: ScalarKind,
  options: { list?: boolean; values?: readonly string[] } = {},
): ScalarDesc {
  if (!options.list && !options.values) {
    let d = scalarCache.get(s);
    if (!d) scalarCache.set(s, (d = { k: "scalar", s }));
    return d;
  }
  return {
    k: "scalar",
    s,
    ...(options.list ? { list: true } : {}),
    ...(options.values ? { values: options.values } : {}),
  };
}

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
  return new Field(
    name,
    ns,
    type,
    options.prop ?? name,
    options.min ?? 1,
    options.max ?? 1,
    options.nillable ?? false,
    options.substitutes,
    options.abstract ?? false,
    undefined,
    options.choice ?? false,
    options.fixed,
    options.default,
    options.xsiType,
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

/**
 * A message body as generated code writes it: a `BodyDesc`, or only its element's field when that
 * is all it says (`request: field("AddCampaignsRequest", AddCampaignsRequest)`).
 */
export type BodyInit = BodyDesc | FieldDesc;

/**
 * A SOAP operation as generated code writes it: `kind` implied by its table, bodies as `BodyInit`.
 */
export interface SoapOperationInit extends Omit<
  SoapOperationDesc,
  "kind" | "request" | "response"
> {
  readonly request: BodyInit | undefined;
  readonly response: BodyInit | undefined;
}

/** An HTTP GET/POST operation as generated code writes it, the same way. */
export interface HttpOperationInit extends Omit<HttpOperationDesc, "kind" | "response"> {
  readonly response: BodyInit | undefined;
}

/** A body's `BodyDesc`: a lone field is its element. */
function bodyOf(body: BodyInit | undefined): BodyDesc | undefined {
  return body === undefined || "element" in body ? body : { element: body };
}

/** The operation table of a SOAP 1.1 or 1.2 port, by WSDL operation name. */
export function soapOperations(table: Readonly<Record<string, SoapOperationInit>>): OperationTable {
  const out: Record<string, SoapOperationDesc> = {};
  for (const [name, op] of Object.entries(table))
    out[name] = {
      kind: "soap",
      ...op,
      request: bodyOf(op.request),
      response: bodyOf(op.response),
    };
  return out;
}

/** The operation table of an HTTP GET or POST port, by WSDL operation name. */
export function httpOperations(table: Readonly<Record<string, HttpOperationInit>>): OperationTable {
  const out: Record<string, HttpOperationDesc> = {};
  for (const [name, op] of Object.entries(table))
    out[name] = { kind: "http", ...op, response: bodyOf(op.response) };
  return out;
}

/** A generated fault class: made from a received fault and its decoded detail, which it keeps. */
export type FaultClass<D> = new (
  init: SoapFaultInit,
  faultDetail: D,
) => SoapFault & {
  readonly faultDetail: D;
};

/**
 * A declared fault: its name, the element its detail carries, and the generated class that stands
 * for it. The class is given the detail as `element`'s descriptor decoded it, so of its type.
 */
export function fault<D>(name: string, element: FieldDesc, type: FaultClass<D>): FaultDesc {
  return {
    name,
    element,
    type,
    create: (init, detail) => new type(init, detail as D),
    detailOf: (f) => (f as InstanceType<FaultClass<D>>).faultDetail,
  };
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
} as const satisfies Record<ScalarKind, ScalarDesc>;
