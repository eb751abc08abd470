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

/** An element field; `type` may be a thunk so that types can refer to each other in any order. */
export function field(name: string, ns: string, type: TypeDesc | (() => TypeDesc), options: FieldOptions = {}): FieldDesc {
  const base = { name, ns, prop: options.prop ?? name, min: options.min ?? 1, max: options.max ?? 1, nillable: options.nillable ?? false };
  if (typeof type !== "function") return { ...base, type };
  let resolved: TypeDesc | undefined;
  return Object.defineProperty(base, "type", {
    enumerable: true,
    get: () => (resolved ??= type()),
  }) as FieldDesc;
}

export function attribute(name: string, ns: string, type: ScalarDesc, options: { prop?: string; required?: boolean } = {}): AttrDesc {
  return { name, ns, prop: options.prop ?? name, type, required: options.required ?? false };
}

/** A complex type; `fields` is a thunk so that recursive and forward references work. */
export function complex(
  name: string,
  fields: () => readonly FieldDesc[],
  options: { attrs?: readonly AttrDesc[]; text?: ScalarDesc; any?: boolean; anyAttrs?: boolean } = {},
): ComplexDesc {
  let resolved: readonly FieldDesc[] | undefined;
  return {
    k: "complex",
    name,
    get fields() {
      return (resolved ??= fields());
    },
    attrs: options.attrs ?? [],
    text: options.text,
    ...(options.any ? { any: true } : {}),
    ...(options.anyAttrs ? { anyAttrs: true } : {}),
  };
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
