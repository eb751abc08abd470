/**
 * The codec descriptors generated code declares: what the XML of each type looks like (element
 * names, namespaces, order, occurrence, nillable). The runtime encodes and decodes with them; it never
 * reads the WSDL.
 */
import type { ScalarKind } from "./scalars.js";

export interface ScalarDesc {
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
}

export interface AttrDesc {
  readonly name: string;
  readonly ns: string;
  readonly prop: string;
  readonly type: ScalarDesc;
  readonly required: boolean;
}

export interface ComplexDesc {
  readonly k: "complex";
  readonly name: string;
  /** Element content in wire order, inherited fields first. */
  readonly fields: readonly FieldDesc[];
  readonly attrs: readonly AttrDesc[];
  /** simpleContent: the text value, as the `$value` property. */
  readonly text: ScalarDesc | undefined;
  /** `xs:any`: unknown child elements are kept as `$any` trees (and written back). */
  readonly any?: boolean;
  /** `xs:anyAttribute`: undeclared attributes are kept in `$attributes`. */
  readonly anyAttrs?: boolean;
}

/** An ASMX-style `ArrayOfX`: a type whose only content is one repeated element; a plain array in JS. */
export interface ArrayDesc {
  readonly k: "array";
  readonly name: string;
  readonly item: FieldDesc;
}

export type TypeDesc = ScalarDesc | ComplexDesc | ArrayDesc;

/** Where a message body's element goes in the typed API. */
export interface BodyDesc {
  /** The body element (for rpc style, the operation wrapper with the parts as its fields). */
  readonly element: FieldDesc;
  /**
   * When set, the typed value is the element's property `prop` (an unwrapped result) or the typed
   * input is `{ [prop]: elementValue }`; otherwise the element's value is the typed value itself.
   */
  readonly prop?: string;
  /** The typed result is `void`: the element is read (or written empty) and its content discarded. */
  readonly void?: boolean;
  /**
   * A multi-part document/literal body: the body holds these fields' elements in order, with no
   * wrapper, and the typed value is an object with one property per part. `element` is the first.
   */
  readonly parts?: ComplexDesc;
}

export const UNBOUNDED = Infinity;

const scalarCache = new Map<string, ScalarDesc>();
/** A scalar type descriptor (cached, so identical ones are shared). */
export function scalar(s: ScalarKind, options: { list?: boolean; values?: readonly string[] } = {}): ScalarDesc {
  if (!options.list && !options.values) {
    let d = scalarCache.get(s);
    if (!d) scalarCache.set(s, (d = { k: "scalar", s }));
    return d;
  }
  return { k: "scalar", s, ...(options.list ? { list: true } : {}), ...(options.values ? { values: options.values } : {}) };
}

export interface FieldOptions {
  readonly prop?: string;
  readonly min?: number;
  readonly max?: number;
  readonly nillable?: boolean;
}

/** One shape for every field descriptor, so the decoder's property accesses stay monomorphic. */
class Field implements FieldDesc {
  private resolved: TypeDesc | undefined;
  constructor(
    readonly name: string,
    readonly ns: string,
    private readonly thunk: TypeDesc | (() => TypeDesc),
    readonly prop: string,
    readonly min: number,
    readonly max: number,
    readonly nillable: boolean,
  ) {
    this.resolved = typeof thunk === "function" ? undefined : thunk;
  }
  get type(): TypeDesc {
    return (this.resolved ??= (this.thunk as () => TypeDesc)());
  }
  toJSON(): object {
    return { name: this.name, ns: this.ns, prop: this.prop, min: this.min, max: this.max, nillable: this.nillable };
  }
}

/** An element field; `type` may be a thunk so that types can refer to each other in any order. */
export function field(name: string, ns: string, type: TypeDesc | (() => TypeDesc), options: FieldOptions = {}): FieldDesc {
  return new Field(name, ns, type, options.prop ?? name, options.min ?? 1, options.max ?? 1, options.nillable ?? false);
}

export function attribute(name: string, ns: string, type: ScalarDesc, options: { prop?: string; required?: boolean } = {}): AttrDesc {
  return { name, ns, prop: options.prop ?? name, type, required: options.required ?? false };
}

class Complex implements ComplexDesc {
  readonly k = "complex" as const;
  private resolved: readonly FieldDesc[] | undefined;
  private byLocal: Map<string, FieldDesc | FieldDesc[]> | undefined;
  readonly any?: boolean;
  readonly anyAttrs?: boolean;
  constructor(
    readonly name: string,
    private readonly thunk: () => readonly FieldDesc[],
    readonly attrs: readonly AttrDesc[],
    readonly text: ScalarDesc | undefined,
    any: boolean,
    anyAttrs: boolean,
  ) {
    if (any) this.any = true;
    if (anyAttrs) this.anyAttrs = true;
  }
  get fields(): readonly FieldDesc[] {
    return (this.resolved ??= this.thunk());
  }
  /** The field for a child element, by local name and namespace. */
  fieldFor(ns: string, local: string): FieldDesc | undefined {
    let index = this.byLocal;
    if (!index) {
      index = new Map();
      for (const f of this.fields) {
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

/** A complex type; `fields` is a thunk so that recursive and forward references work. */
export function complex(
  name: string,
  fields: () => readonly FieldDesc[],
  options: { attrs?: readonly AttrDesc[]; text?: ScalarDesc; any?: boolean; anyAttrs?: boolean } = {},
): ComplexDesc {
  return new Complex(name, fields, options.attrs ?? [], options.text, options.any ?? false, options.anyAttrs ?? false);
}

/** The field of `owner` for a child element, for any ComplexDesc (generated or hand-written). */
export function childField(owner: ComplexDesc, ns: string, local: string): FieldDesc | undefined {
  if (owner instanceof Complex) return owner.fieldFor(ns, local);
  return owner.fields.find((f) => f.name === local && f.ns === ns);
}

export function array(name: string, item: FieldDesc): ArrayDesc {
  return { k: "array", name, item };
}

/** The built-in scalar descriptors generated code refers to, e.g. `xs.dateTime`. */
export const xs = {
  string: scalar("string"), boolean: scalar("boolean"),
  int: scalar("int"), short: scalar("short"), byte: scalar("byte"),
  unsignedInt: scalar("unsignedInt"), unsignedShort: scalar("unsignedShort"), unsignedByte: scalar("unsignedByte"),
  long: scalar("long"), unsignedLong: scalar("unsignedLong"), integer: scalar("integer"),
  nonNegativeInteger: scalar("nonNegativeInteger"), positiveInteger: scalar("positiveInteger"),
  nonPositiveInteger: scalar("nonPositiveInteger"), negativeInteger: scalar("negativeInteger"),
  decimal: scalar("decimal"), float: scalar("float"), double: scalar("double"),
  dateTime: scalar("dateTime"), date: scalar("date"), time: scalar("time"),
  base64Binary: scalar("base64Binary"), hexBinary: scalar("hexBinary"), anyType: scalar("anyType"),
} as const satisfies Record<ScalarKind, ScalarDesc>;
