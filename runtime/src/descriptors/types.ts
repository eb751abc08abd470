/**
 * The type descriptors generated code declares: what the XML of each type looks like (element
 * names, namespaces, order, occurrence, nillable). The runtime encodes and decodes with them; it
 * never reads the WSDL. The functions that make them are in builders.ts.
 */
import type { ScalarKind } from "../scalars/scalars.js";

/**
 * The TypeScript side of a type descriptor: the value (`T`) and input form (`In`) it stands for,
 * which `ValueOf` and `InputOf` read. Type-level only, never set; a method, so that an untyped
 * descriptor (`ComplexDesc`) and a typed one (`ComplexDesc<Messages, MessagesInput>`) are
 * assignable to each other while descriptors of unrelated types are not.
 */
export interface Typed<T, In> {
  typeOf?(value: T, input: In): void;
}

export interface ScalarDesc<T = unknown, In = T> extends Typed<T, In> {
  readonly k: "scalar";
  readonly s: ScalarKind;
  /** `xs:list`: a whitespace-separated list of values, an array in JS. */
  readonly list?: boolean;
  /** Enumerated values, when the type restricts to them. */
  readonly values?: readonly string[];
  /**
   * The XSD built-in type whose lexical space the values are in, when it is not `s` (`duration`,
   * `token`, `language`): samples (sample-values.ts) write a value of it.
   */
  readonly xsd?: string;
  /** The schema's facets (of each item, for a list): samples meet them. */
  readonly facets?: Facets;
  /** `xs:union`: its member types, in order; a value is one of theirs. */
  readonly union?: readonly ScalarDesc[];
}

/**
 * The facets of a restricted simple type as the schema writes them, `pattern` one per derivation
 * step (each step's alternatives joined by `|`). Only samples read them: values are not validated.
 */
export interface Facets {
  readonly pattern?: readonly string[];
  readonly length?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minInclusive?: string;
  readonly maxInclusive?: string;
  readonly minExclusive?: string;
  readonly maxExclusive?: string;
  readonly totalDigits?: number;
  readonly fractionDigits?: number;
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
   * A repeated element (or ordered list) of a (non-repeated) choice's branch: absent, it is a
   * branch not taken, so it reads as absent, not as `[]` (the generated types forbid it beside
   * another branch).
   */
  readonly choice?: boolean;
  /**
   * The branch of its `xs:choice` the element is in, when not the first (1 for the second, …): a
   * sample (sample-values.ts) holds a choice's first branch only, as a valid value holds one.
   */
  readonly branch?: number | undefined;
  /**
   * An element of an ordered list (a repeated `xs:choice`, or a repeated sequence holding one):
   * each occurrence is an item `{ $choice: tag, value }` of the array `prop`, in document order
   * among the items of the list's other elements, which share `prop`. `min` is the list's (1: it
   * may not be empty), and `max` unbounded.
   */
  readonly tag?: string | undefined;
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
  /**
   * An `xs:any` a valid value must fill: a namespace it admits, where a sample (sample-values.ts)
   * puts a harmless element.
   */
  readonly anyRequired?: string;
  /**
   * With `anyRequired`, for a strict wildcard: the local name of an element the schemas declare in
   * that namespace whose empty content is valid; a sample holds it (else `sample`, undeclared).
   */
  readonly anyElement?: string;
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
