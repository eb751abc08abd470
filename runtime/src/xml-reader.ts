/**
 * A streaming XML decoder driven by descriptors (on the runtime's own tokenizer). It builds typed
 * values while it reads, never a DOM; DTDs are refused, and depth and element count are bounded.
 */
import { keepShapes } from "./kept.js";
import { ownValue, setOwn } from "./own-props.js";
import { positionIn } from "./text-position.js";
import { XmlPieces } from "./xml-pieces.js";
import {
  tokenizeXml,
  XMLNS_URI,
  XmlSyntaxError,
  XmlTokenizer,
  type TokenHandler,
  type XmlTag,
} from "./xml-tokenizer.js";
import {
  childField,
  familyMember,
  type ArrayDesc,
  type ComplexDesc,
  type FieldDesc,
  type ScalarDesc,
  type TypeDesc,
  UNBOUNDED,
} from "./descriptors.js";
import { parseScalar, ValueFormatError, XML_SPACE, xmlTrim, type ScalarKind } from "./scalars.js";
import { SOAP_ENC_NS, XSI_NS } from "./xml-writer.js";
import { clipped } from "./input-text.js";
import { keepUndescribed } from "./undescribed.js";

export interface DecodeLimits {
  /** Deepest element nesting accepted. */
  readonly maxDepth: number;
  /** Most elements accepted in one document. */
  readonly maxElements: number;
}

export const DEFAULT_DECODE_LIMITS: DecodeLimits = { maxDepth: 128, maxElements: 5_000_000 };

export interface DecodeOptions {
  readonly limits?: DecodeLimits;
  /** Reject a missing required element or a value outside an enumeration (default true). */
  readonly strict?: boolean;
  /**
   * An element the schema does not describe where it stands, or an occurrence beyond maxOccurs:
   * "keep" it as raw XML on its parent (see `undescribedOf`), or "refuse" it. Default "keep"; one
   * inside a simple value has nowhere to be kept and is refused either way.
   */
  readonly undescribed?: "keep" | "refuse";
  /**
   * SOAP encoding: an element with `href="#id"` stands for the element whose `id` it names (a
   * multi-reference). Off by default: in literal XML, href is an attribute like any other, and an
   * element it names is read where it stands.
   */
  readonly multiRefs?: boolean;
}

/** Why a document could not be decoded. `kind` tells malformed XML apart from invalid content. */
export class XmlDecodeError extends Error {
  constructor(
    message: string,
    readonly kind: "malformed" | "limit" | "missing" | "invalid" | "unexpected",
    /** The element concerned, for "missing" and "invalid". */
    readonly element?: string,
  ) {
    super(message);
    this.name = "XmlDecodeError";
  }
}

/** A generic element tree, for SOAP faults and content without a descriptor. */
export interface XmlNode {
  readonly ns: string;
  readonly local: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: (XmlNode | string)[];
  /**
   * The namespace bindings an attribute value relies on, by prefix: a QName in `xsi:type`
   * (`sf:Account`) means nothing without its prefix's binding, which may be declared far above the
   * tree. Written back as declarations on the element. Absent when no value needs one. An
   * unprefixed `xsi:type` on an element outside the default namespace (`<p:item xsi:type="Foo">`)
   * is read as `d:Foo` with `d` bound here, since the tree is written with its own namespace as
   * the default.
   */
  readonly prefixes?: Readonly<Record<string, string>>;
}

const enum F {
  Complex,
  Array,
  Scalar,
  Skip,
  Tree,
  Custom,
  AnyType,
}

interface Frame {
  kind: F;
  desc: TypeDesc | undefined;
  field: FieldDesc | undefined;
  value: unknown;
  text: string;
  nil: boolean;
  name: string;
  node: XmlNode | undefined;
  custom: CustomFrame | undefined;
  /**
   * Complex frames: the index of the field the last child matched (children mostly come in order).
   */
  cursor: number;
  /** Where the element's start tag begins. */
  at: number;
  /** The id of the element, when it is what multi-references (`href="#id"`) wait for. */
  ref: string | undefined;
}

/**
 * A multi-reference (`<item href="#id1"/>`, as Axis 1 writes SOAP encoding) waiting for its
 * element.
 */
interface MultiRef {
  readonly field: FieldDesc;
  /** The object or array the value goes in, at `prop` (an object's) and `index` (an array's). */
  readonly holder: Record<string, unknown> | unknown[];
  readonly prop: string | undefined;
  readonly index: number;
}

/** What a multi-referenced value holds until its element is read. */
const PENDING: unique symbol = Symbol("pending multi-reference");

/** A structural frame above the typed content (a SOAP envelope, a document root). */
export interface CustomFrame {
  /**
   * Chooses what a child element becomes: a typed field, a tree, skipped, or another custom frame.
   */
  child(ns: string, local: string, tag: XmlTag): FieldDesc | "tree" | "skip" | CustomFrame;
  /** Receives a finished child. */
  done(ns: string, local: string, value: unknown, field: FieldDesc | undefined): void;
}

function isNil(tag: XmlTag): boolean {
  for (const a of tag.attributes) {
    if (a.local === "nil" && a.uri === XSI_NS) {
      const v = xmlTrim(a.value);
      return v === "true" || v === "1";
    }
  }
  return false;
}

function convert(frame: Frame, strict: boolean): unknown {
  const desc = frame.desc;
  if (desc === undefined || desc.k !== "scalar") return undefined;
  return scalarValue(
    desc,
    frame.text === "" ? emptyText(frame.field) : frame.text,
    frame.name,
    strict,
  );
}

/**
 * The text an empty element stands for: its fixed or default value, if the schema gives one (XML
 * Schema's rule).
 */
function emptyText(field: FieldDesc | undefined): string {
  return field === undefined ? "" : (field.fixed ?? field.default ?? "");
}

/** The value of a scalar element `name` whose text is `text`. */
function scalarValue(desc: ScalarDesc, text: string, name: string, strict: boolean): unknown {
  try {
    if (desc.list) {
      const items = listValue(desc.s, text);
      if (strict && desc.values) for (const v of items) allowed(desc.values, v);
      return items;
    }
    const v = parseScalar(desc.s, text);
    if (strict && desc.values) allowed(desc.values, v);
    return v;
  } catch (e) {
    throw new XmlDecodeError(
      `invalid value in element ${name}: ${(e as Error).message}`,
      "invalid",
      name,
    );
  }
}

/** Refuses a value its enumeration does not list. */
function allowed(values: readonly string[], v: unknown): void {
  if (!values.includes(String(v)))
    throw new ValueFormatError(`'${clipped(String(v))}' is not one of the allowed values`);
}

/** The items of an xs:list value. */
function listValue(kind: ScalarKind, text: string): unknown[] {
  const out: unknown[] = [];
  for (const t of text.split(XML_SPACE)) if (t !== "") out.push(parseScalar(kind, t));
  return out;
}

/** Sets a decoded child's value on its parent object: repeated fields collect into an array. */
export function setField(obj: Record<string, unknown>, f: FieldDesc, value: unknown): void {
  if (f.max > 1) {
    // Array.isArray, not truthiness: a field named like an inherited method (see own-props.ts).
    const arr = obj[f.prop];
    if (Array.isArray(arr)) arr.push(value);
    else setOwn(obj, f.prop, [value]);
  } else setOwn(obj, f.prop, value);
}

/**
 * The field of a complex frame that a child element matches. Children mostly come in schema order:
 * the field the previous child matched and a few after it (optional ones may be absent) are tried
 * before the name index.
 */
function matchField(
  frame: Frame,
  cd: ComplexDesc,
  ns: string,
  local: string,
): FieldDesc | undefined {
  const fields = cd.fields;
  const stop = Math.min(fields.length, frame.cursor + 8);
  for (let c = frame.cursor; c < stop; c++) {
    const f = fields[c]!;
    if (f.name === local && f.ns === ns) {
      frame.cursor = c;
      return f;
    }
  }
  return childField(cd, ns, local);
}

/**
 * Decodes `xml`, starting with `root` as the frame around the document element. Bytes are read as
 * UTF-8 (faster than decoding them to a string first: see the tokenizer).
 */
export function decodeXml(
  xml: string | Uint8Array,
  root: CustomFrame,
  options: DecodeOptions = {},
): void {
  const d = takeDecoder(root, options);
  try {
    tokenizeXml(xml, d);
  } catch (e) {
    throw located(e, xml, d.at);
  } finally {
    releaseDecoder(d);
  }
}

/**
 * Decodes a document that arrives as chunks of UTF-8 bytes, as they arrive: what `decodeXml` does
 * with the whole, with the same results and errors. The chunks are not kept (see XmlPieces):
 * `received` gives the bytes back. Once `end` has run or a chunk has failed, it decodes no more.
 */
export class ChunkDecoder {
  private decoder: Decoder | undefined;
  private readonly pieces: XmlPieces;

  constructor(root: CustomFrame, options: DecodeOptions) {
    this.decoder = takeDecoder(root, options);
    this.pieces = new XmlPieces(new XmlTokenizer(this.decoder));
  }

  /** The bytes received so far. */
  received(): Buffer {
    return this.pieces.received();
  }

  write(chunk: Uint8Array): void {
    this.run(false, chunk);
  }

  /** The document is complete: decodes what is left, and fails unless it ends the document. */
  end(): void {
    this.run(true, undefined);
  }

  /** Lets go of the decoder (when the body will not be read to its end). */
  release(): void {
    if (this.decoder !== undefined) releaseDecoder(this.decoder);
    this.decoder = undefined;
  }

  private run(final: boolean, chunk: Uint8Array | undefined): void {
    const d = this.decoder;
    if (d === undefined) throw new Error("this document has been decoded (or has failed) already");
    try {
      if (chunk !== undefined) this.pieces.write(chunk);
      if (final) this.pieces.end();
    } catch (e) {
      this.release();
      throw located(e, this.pieces.received(), d.at);
    }
    if (final) this.release();
  }
}

/** A decoder for a document; one is kept and reused (see releaseDecoder). */
function takeDecoder(root: CustomFrame, options: DecodeOptions): Decoder {
  // One decoder is kept and reused (a decode within a decode, or while another document is still
  // arriving, gets a new one). Besides sparing the allocations, it keeps the decoder's shape alive
  // between documents: optimized code that met objects whose maps have died is thrown away, so
  // per-document handler objects or closures cost a deoptimization of the tokenizer after every
  // garbage collection.
  const d = idleDecoder ?? new Decoder();
  idleDecoder = undefined;
  d.start(root, options);
  return d;
}

function releaseDecoder(d: Decoder): void {
  d.finish();
  idleDecoder = d;
}

/**
 * A problem met while decoding `xml`, said with its line and column (`at`: the element concerned).
 */
function located(e: unknown, xml: string | Uint8Array, at: number): unknown {
  if (e instanceof XmlSyntaxError) {
    const { line, column } = positionIn(xml, e.offset);
    return new XmlDecodeError(
      `malformed XML at line ${line}, column ${column}: ${e.message}`,
      "malformed",
    );
  }
  if (e instanceof XmlDecodeError && (e.kind === "missing" || e.kind === "invalid")) {
    // Content problems say where the element concerned starts.
    const { line, column } = positionIn(xml, at);
    return new XmlDecodeError(
      `${e.message} (at line ${line}, column ${column})`,
      e.kind,
      e.element,
    );
  }
  return e;
}

let idleDecoder: Decoder | undefined;

const emptyFrame = (): Frame => ({
  kind: F.Custom,
  desc: undefined,
  field: undefined,
  value: undefined,
  text: "",
  nil: false,
  name: "",
  node: undefined,
  custom: undefined,
  cursor: 0,
  at: 0,
  ref: undefined,
});

/** The token handler that builds typed values: one frame per open element. */
class Decoder implements TokenHandler {
  private limits: DecodeLimits = DEFAULT_DECODE_LIMITS;
  private strict = true;
  private refuse = false;
  private readonly stack: Frame[] = [];
  private top: Frame = emptyFrame();
  /** The start of the element last opened or closing: where a content problem is reported. */
  at = 0;
  private skip = 0;
  private elements = 0;
  private multiRefs = false;
  /**
   * One frame per depth, reused: a frame is finished with before the next element at its depth
   * opens.
   */
  private readonly pool: Frame[] = [];
  /** Multi-references waiting for the element of their id, by id; and the values of ids read. */
  private readonly refs = new Map<string, MultiRef[]>();
  private readonly referenced = new Map<string, unknown>();
  /** The id of the element being opened, when multi-references wait for it (see Frame.ref). */
  private target: string | undefined;

  start(root: CustomFrame, options: DecodeOptions): void {
    this.limits = options.limits ?? DEFAULT_DECODE_LIMITS;
    this.strict = options.strict ?? true;
    this.refuse = options.undescribed === "refuse";
    this.multiRefs = options.multiRefs === true;
    this.at = 0;
    this.skip = 0;
    this.elements = 0;
    this.stack.length = 0;
    this.top = emptyFrame();
    this.top.custom = root;
    this.refs.clear();
    this.referenced.clear();
  }

  /** Lets go of everything the document held, so that a kept decoder keeps none of it alive. */
  finish(): void {
    this.stack.length = 0;
    this.top = emptyFrame();
    this.refs.clear();
    this.referenced.clear();
    for (const f of this.pool) {
      if (f === undefined) continue;
      f.desc = undefined;
      f.field = undefined;
      f.value = undefined;
      f.text = "";
      f.name = "";
      f.node = undefined;
      f.custom = undefined;
    }
  }

  private acquire(
    kind: F,
    desc: TypeDesc | undefined,
    field: FieldDesc | undefined,
    value: unknown,
    nil: boolean,
    name: string,
    node: XmlNode | undefined,
    custom: CustomFrame | undefined,
  ): Frame {
    const depth = this.stack.length;
    const f = this.pool[depth];
    if (f === undefined)
      return (this.pool[depth] = {
        kind,
        desc,
        field,
        value,
        text: "",
        nil,
        name,
        node,
        custom,
        cursor: 0,
        at: this.at,
        ref: this.target,
      });
    f.kind = kind;
    f.desc = desc;
    f.field = field;
    f.value = value;
    f.text = "";
    f.nil = nil;
    f.name = name;
    f.node = node;
    f.custom = custom;
    f.cursor = 0;
    f.at = this.at;
    f.ref = this.target;
    return f;
  }

  /** Enters a child frame. */
  private push(
    kind: F,
    desc: TypeDesc | undefined,
    field: FieldDesc | undefined,
    value: unknown,
    nil: boolean,
    name: string,
    node: XmlNode | undefined,
    custom: CustomFrame | undefined,
  ): void {
    this.stack.push(this.top);
    this.top = this.acquire(kind, desc, field, value, nil, name, node, custom);
  }

  open(tag: XmlTag): void {
    this.at = tag.offset;
    if (++this.elements > this.limits.maxElements)
      throw new XmlDecodeError(`more than ${this.limits.maxElements} elements`, "limit");
    if (this.stack.length + this.skip >= this.limits.maxDepth)
      throw new XmlDecodeError(
        `element nesting deeper than ${this.limits.maxDepth} levels`,
        "limit",
      );
    if (this.skip > 0) {
      this.skip++;
      return;
    }
    this.target = undefined;
    const field = this.waitedFor(tag) ?? this.childOf(tag);
    if (field === null) return;
    if (field === undefined || this.full(field)) return this.undescribed(tag, field);
    if (this.multiRefs && tag.attributes.length > 0 && this.target === undefined)
      if (this.multiRef(tag, field)) return;
    this.enter(tag, field);
  }

  /**
   * The element multi-references wait for (Axis 1's top-level multiRef, by its id): read as their
   * field, wherever it stands.
   */
  private waitedFor(tag: XmlTag): FieldDesc | undefined {
    if (this.refs.size === 0 || tag.attributes.length === 0) return undefined;
    const id = plainAttr(tag, "id");
    const waiting = id === undefined ? undefined : this.refs.get(id);
    if (waiting === undefined) return undefined;
    this.target = id;
    return waiting[0]!.field;
  }

  /**
   * The field a child element of the open frame is, undefined when it describes none; null when
   * the element is taken care of already (a raw tree, a structural frame, skipped).
   */
  private childOf(tag: XmlTag): FieldDesc | undefined | null {
    const ns = tag.uri;
    const local = tag.local;
    switch (this.top.kind) {
      case F.Complex: {
        const cd = this.top.desc as ComplexDesc;
        const field = matchField(this.top, cd, ns, local);
        if (!field && cd.any) {
          // xs:any: keep the element as a raw tree.
          const node = treeNode(tag, ns, local);
          const obj = this.top.value as Record<string, unknown>;
          ((obj["$any"] ??= []) as XmlNode[]).push(node);
          this.push(F.Tree, undefined, undefined, undefined, false, local, node, undefined);
          return null;
        }
        return field;
      }
      case F.Array: {
        const array = this.top.desc as ArrayDesc;
        // A SOAP-encoded array's items may have any name (`<item>`, `<Item>`, …).
        if (array.encoded || (array.item.name === local && array.item.ns === ns)) return array.item;
        return undefined;
      }
      case F.Tree:
      case F.AnyType: {
        const node = treeNode(tag, ns, local);
        this.top.node!.children.push(node);
        this.push(F.Tree, undefined, undefined, undefined, false, local, node, undefined);
        return null;
      }
      case F.Custom: {
        const c = this.top.custom!.child(ns, local, tag);
        if (c === "skip") this.skip = 1;
        else if (c === "tree") {
          const node = treeNode(tag, ns, local);
          this.push(F.Tree, undefined, undefined, node, false, local, node, undefined);
        } else if ("child" in c)
          this.push(F.Custom, undefined, undefined, undefined, false, local, undefined, c);
        else return c;
        return null;
      }
      default:
        return undefined;
    }
  }

  /** Opens the frame of a typed element. */
  private enter(tag: XmlTag, field: FieldDesc): void {
    const local = tag.local;
    let desc = field.type;
    if (tag.attributes.length > 0 && (isEncodedArray(desc) || isEncodedArray(this.top.desc)))
      refuseUnplaced(tag);
    const nil = tag.attributes.length > 0 && isNil(tag);
    let kind = F.Scalar;
    let value: unknown;
    if (nil) kind = F.Skip;
    else if (desc.k === "complex") {
      kind = F.Complex;
      const obj: Record<string, unknown> = {};
      if (desc.family) {
        // A derived type stands where its base is declared: xsi:type says which.
        if (tag.attributes.length > 0) desc = xsiTypeOf(desc, tag);
        obj["$type"] = desc.family!.tag;
      }
      // A member of a substitution group in its head's place: which element it was.
      if (field.substituteOf !== undefined) obj["$element"] = field.name;
      if (desc.attrs.length > 0) readAttrs(desc, tag, obj, local);
      if (desc.anyAttrs) readAnyAttrs(desc, tag, obj);
      value = obj;
    } else if (desc.k === "array") {
      kind = F.Array;
      value = [];
    } else if (desc.s === "anyType" && !desc.list) {
      // xs:anyType: read whole, as a tree; plain text comes back as a string (see anyTypeValue).
      const node = treeNode(tag, tag.uri, local);
      this.push(F.AnyType, desc, field, undefined, false, local, node, undefined);
      return;
    }
    this.push(kind, desc, field, value, nil, local, undefined, undefined);
  }

  /** Whether the open complex or array value holds as many occurrences of `field` as it may. */
  private full(field: FieldDesc): boolean {
    if (this.top.kind !== F.Complex && this.top.kind !== F.Array) return false;
    const holder = this.top.value as Record<string, unknown> | unknown[];
    // An unbounded field is never full: no count to take.
    if (field.max === UNBOUNDED) return false;
    if (Array.isArray(holder)) return holder.length >= field.max;
    if (!Object.hasOwn(holder, field.prop)) return false;
    const v = holder[field.prop];
    return field.max <= 1 || (Array.isArray(v) && v.length >= field.max);
  }

  /**
   * An element the schema does not describe here (`field` undefined) or one too many: kept as a
   * raw tree on the value it stands in, or refused. Inside a simple value there is nowhere to keep
   * it.
   */
  private undescribed(tag: XmlTag, field: FieldDesc | undefined): void {
    const top = this.top;
    const name = clark(tag.uri, tag.local);
    const holder = top.kind === F.Complex || top.kind === F.Array ? top.value : undefined;
    if (this.refuse || holder === undefined) {
      const why = !field
        ? "is not allowed in"
        : field.max <= 1
          ? "occurs more than once in"
          : `occurs more than ${field.max} times in`;
      throw new XmlDecodeError(`element ${name} ${why} ${top.name}`, "invalid", tag.local);
    }
    const node = treeNode(tag, tag.uri, tag.local);
    keepUndescribed(holder as object, node);
    this.push(F.Tree, undefined, undefined, undefined, false, tag.local, node, undefined);
  }

  /**
   * An element that stands for another (`href="#id"`, SOAP encoding's multi-reference): its value
   * is that element's, read when it comes (after it, as Axis 1 writes them), or read already.
   */
  private multiRef(tag: XmlTag, field: FieldDesc): boolean {
    const href = plainAttr(tag, "href");
    const top = this.top;
    if (href === undefined || !href.startsWith("#") || declaresHref(field.type)) return false;
    if (top.kind !== F.Complex && top.kind !== F.Array) return false;
    const id = href.slice(1);
    const holder = top.value as Record<string, unknown> | unknown[];
    const value = this.referenced.has(id) ? this.referenced.get(id) : PENDING;
    let ref: MultiRef;
    if (Array.isArray(holder)) {
      ref = { field, holder, prop: undefined, index: holder.length };
      holder.push(value);
    } else {
      setField(holder, field, value);
      const v = holder[field.prop];
      ref = { field, holder, prop: field.prop, index: Array.isArray(v) ? v.length - 1 : -1 };
    }
    if (value === PENDING) {
      const list = this.refs.get(id);
      if (list === undefined) this.refs.set(id, [ref]);
      else list.push(ref);
    }
    this.skip = 1;
    return true;
  }

  /** Puts the value of element `id` where the multi-references to it wait. */
  private resolve(id: string, value: unknown): void {
    for (const r of this.refs.get(id) ?? []) {
      if (r.prop === undefined) (r.holder as unknown[])[r.index] = value;
      else if (r.index >= 0) (r.holder as Record<string, unknown[]>)[r.prop]![r.index] = value;
      else setOwn(r.holder as Record<string, unknown>, r.prop, value);
    }
    this.refs.delete(id);
    this.referenced.set(id, value);
  }

  /** The document ends with multi-references to no element: their values are not in it. */
  private unresolved(): never {
    const [id, [ref]] = this.refs.entries().next().value as [string, MultiRef[]];
    throw new XmlDecodeError(
      `element ${ref!.field.name} refers to href="#${id}", which no element that follows it ` +
        "has as its id",
      "invalid",
      ref!.field.name,
    );
  }

  close(): void {
    if (this.skip > 0) {
      this.skip--;
      return;
    }
    const frame = this.top;
    this.at = frame.at;
    const parent = this.stack.pop();
    if (!parent) return;
    this.top = parent;
    if (this.stack.length === 0 && this.refs.size > 0) this.unresolved();
    let value: unknown;
    switch (frame.kind) {
      case F.Skip:
        value = null;
        if (frame.field && !frame.field.nillable && this.strict) {
          throw new XmlDecodeError(
            `element ${frame.name} is marked xsi:nil but is not nillable`,
            "invalid",
            frame.name,
          );
        }
        break;
      case F.Scalar:
        value = convert(frame, this.strict);
        break;
      case F.Complex:
        value = finishComplex(frame, this.strict);
        break;
      case F.Array:
        value = frame.value;
        break;
      case F.Tree:
        if (parent.kind !== F.Custom) return;
        parent.custom!.done(frame.node!.ns, frame.node!.local, frame.node, undefined);
        return;
      case F.Custom:
        value = undefined;
        break;
      case F.AnyType:
        value = anyTypeValue(frame.node!);
        break;
    }
    const f = frame.field;
    if (frame.ref !== undefined) this.resolve(frame.ref, value);
    else if (parent.kind === F.Complex) {
      setField(parent.value as Record<string, unknown>, f!, value);
    } else if (parent.kind === F.Array) {
      (parent.value as unknown[]).push(value);
    } else if (parent.kind === F.Custom) {
      parent.custom!.done(f?.ns ?? "", frame.name, value, f);
    }
  }

  text(t: string): void {
    if (this.skip > 0) return;
    if (this.top.kind === F.Tree || this.top.kind === F.AnyType) {
      // Raw trees keep text where it stands among the children (mixed content).
      const children = this.top.node!.children;
      const last = children.length - 1;
      if (last >= 0 && typeof children[last] === "string") children[last] += t;
      else children.push(t);
    } else if (
      this.top.kind === F.Scalar ||
      (this.top.kind === F.Complex && (this.top.desc as ComplexDesc).text)
    )
      this.top.text += t;
  }

  /**
   * An element holding only text: read at once when it is a scalar child of a typed object or array
   * (most elements are), else as open, text and close.
   */
  leaf(tag: XmlTag, text: string): void {
    if (
      this.skip === 0 &&
      tag.attributes.length === 0 &&
      (this.top.kind === F.Complex || this.top.kind === F.Array)
    ) {
      let field: FieldDesc | undefined;
      if (this.top.kind === F.Complex)
        field = matchField(this.top, this.top.desc as ComplexDesc, tag.uri, tag.local);
      else {
        const array = this.top.desc as ArrayDesc;
        if (array.encoded || (array.item.name === tag.local && array.item.ns === tag.uri))
          field = array.item;
      }
      const desc = field?.type;
      if (
        desc !== undefined &&
        desc.k === "scalar" &&
        desc.s !== "anyType" &&
        field!.substituteOf === undefined &&
        !this.full(field!)
      ) {
        this.at = tag.offset;
        if (++this.elements > this.limits.maxElements)
          throw new XmlDecodeError(`more than ${this.limits.maxElements} elements`, "limit");
        if (this.stack.length >= this.limits.maxDepth)
          throw new XmlDecodeError(
            `element nesting deeper than ${this.limits.maxDepth} levels`,
            "limit",
          );
        const value = scalarValue(
          desc,
          text === "" ? emptyText(field) : text,
          tag.local,
          this.strict,
        );
        if (this.top.kind === F.Complex)
          setField(this.top.value as Record<string, unknown>, field!, value);
        else (this.top.value as unknown[]).push(value);
        return;
      }
    }
    this.open(tag);
    if (text !== "") this.text(text);
    this.close();
  }
}

/** The value of an unqualified attribute, such as SOAP encoding's `href` and `id`. */
function plainAttr(tag: XmlTag, local: string): string | undefined {
  for (const a of tag.attributes) if (a.local === local && a.uri === "") return xmlTrim(a.value);
  return undefined;
}

const isEncodedArray = (desc: TypeDesc | undefined): boolean =>
  desc !== undefined && desc.k === "array" && desc.encoded !== undefined;

/**
 * Refuses a partially transmitted or sparse SOAP-encoded array (`soapenc:offset` on the array,
 * `soapenc:position` on an item): read in order, its items would stand at the wrong indexes.
 */
function refuseUnplaced(tag: XmlTag): void {
  for (const a of tag.attributes)
    if (a.uri === SOAP_ENC_NS && (a.local === "offset" || a.local === "position"))
      throw new XmlDecodeError(
        `element ${tag.local} has soapenc:${a.local}="${clipped(a.value)}": partially ` +
          "transmitted and sparse SOAP-encoded arrays (soapenc:offset, soapenc:position) are " +
          "not supported",
        "invalid",
        tag.local,
      );
}

/** A type whose own attribute is named href: there, href is a value, not a multi-reference. */
function declaresHref(type: TypeDesc): boolean {
  return type.k === "complex" && type.attrs.some((a) => a.name === "href" && a.ns === "");
}

function finishComplex(frame: Frame, strict: boolean): unknown {
  const desc = frame.desc as ComplexDesc;
  const obj = frame.value as Record<string, unknown>;
  if (desc.text) {
    const text = frame.text;
    try {
      obj["$value"] = desc.text.list
        ? text
            .split(XML_SPACE)
            .filter(Boolean)
            .map((t) => parseScalar(desc.text!.s, t))
        : parseScalar(desc.text.s, text);
    } catch (e) {
      throw new XmlDecodeError(
        `invalid value in element ${frame.name}: ${(e as Error).message}`,
        "invalid",
        frame.name,
      );
    }
  }
  completeFields(desc.fields, obj, strict, frame.name);
  return obj;
}

/**
 * Gives the fields absent from `obj` what their absence means: an empty array for a repeated one; a
 * required one is an error when `strict`. `owner` names where they were expected.
 */
export function completeFields(
  fields: readonly FieldDesc[],
  obj: Record<string, unknown>,
  strict: boolean,
  owner: string,
): void {
  for (const f of fields) {
    if (ownValue(obj, f.prop) !== undefined) continue;
    if (f.max > 1) {
      // An absent choice branch stays absent (see FieldDesc.choice).
      if (!f.choice) setOwn(obj, f.prop, []);
    } else if (f.min > 0 && strict)
      throw new XmlDecodeError(`element ${f.name} is missing from ${owner}`, "missing", f.name);
  }
}

/**
 * The member of `declared`'s family that the element's `xsi:type` names; `declared` itself when
 * there is no xsi:type or it names a type the descriptors do not know (newer than the WSDL, say):
 * the declared type's fields are still read.
 */
function xsiTypeOf(declared: ComplexDesc, tag: XmlTag): ComplexDesc {
  const t = xsiType(tag);
  if (t?.ns === undefined) return declared;
  return familyMember(declared, t.ns, t.local) ?? declared;
}

/**
 * The element's `xsi:type`, split at its colon, with the namespace its prefix is bound to here (if
 * any).
 */
function xsiType(
  tag: XmlTag,
): { prefix: string; local: string; ns: string | undefined } | undefined {
  for (const a of tag.attributes) {
    if (a.local !== "type" || a.uri !== XSI_NS) continue;
    const value = xmlTrim(a.value);
    const colon = value.indexOf(":");
    const prefix = colon === -1 ? "" : value.slice(0, colon);
    return { prefix, local: value.slice(colon + 1), ns: tag.scope[prefix] };
  }
  return undefined;
}

/**
 * The value of an xs:anyType element: its text when it holds only text (an `xsi:type` aside), else
 * the whole element as a tree, so that nothing it holds is lost.
 */
function anyTypeValue(node: XmlNode): string | XmlNode {
  for (const c of node.children) if (typeof c !== "string") return node;
  for (const key of Object.keys(node.attrs)) if (key !== XSI_TYPE_KEY) return node;
  return node.children.join("");
}

/**
 * The prefix an unprefixed xsi:type is given when the default namespace is not the element's (see
 * treeNode).
 */
const DEFAULT_TYPE_PREFIX = "d";

/** An element read as a tree: its attributes, and the bindings of the prefix its xsi:type names. */
function treeNode(tag: XmlTag, ns: string, local: string): XmlNode {
  const node: {
    ns: string;
    local: string;
    attrs: Record<string, string>;
    children: (XmlNode | string)[];
    prefixes?: Record<string, string>;
  } = {
    ns,
    local,
    attrs: attrsOf(tag),
    children: [],
  };
  const t = tag.attributes.length > 0 ? xsiType(tag) : undefined;
  if (t !== undefined && t.ns !== undefined) {
    if (t.prefix !== "") node.prefixes = { [t.prefix]: t.ns };
    else if (t.ns !== ns && t.ns !== "") {
      // An unprefixed type names the default namespace, and a tree is written back with its own
      // namespace as the default: give the type's namespace a prefix, so the value keeps its
      // meaning.
      node.attrs[XSI_TYPE_KEY] = `${DEFAULT_TYPE_PREFIX}:${t.local}`;
      node.prefixes = { [DEFAULT_TYPE_PREFIX]: t.ns };
    }
  }
  return node;
}

/**
 * A name in Clark notation: `{ns}local`, or `local` for no namespace (how attribute bags are
 * keyed).
 */
export function clark(ns: string | undefined, local: string): string {
  return ns ? `{${ns}}${local}` : local;
}
const XSI_TYPE_KEY = clark(XSI_NS, "type");

function attrsOf(tag: XmlTag): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of tag.attributes) {
    if (a.uri === XMLNS_URI) continue;
    setOwn(out, clark(a.uri, a.local), a.value);
  }
  return out;
}

function readAnyAttrs(desc: ComplexDesc, tag: XmlTag, obj: Record<string, unknown>): void {
  const bag: Record<string, string> = {};
  let any = false;
  for (const a of tag.attributes) {
    if (a.uri === XMLNS_URI || a.uri === XSI_NS) continue;
    if (desc.attrs.some((d) => d.name === a.local && d.ns === (a.uri ?? ""))) continue;
    setOwn(bag, clark(a.uri, a.local), a.value);
    any = true;
  }
  if (any) obj["$attributes"] = bag;
}

function readAttrs(
  desc: ComplexDesc,
  tag: XmlTag,
  obj: Record<string, unknown>,
  element: string,
): void {
  for (const ad of desc.attrs) {
    let raw: string | undefined;
    for (const a of tag.attributes) if (a.local === ad.name && a.uri === ad.ns) raw = a.value;
    if (raw === undefined) continue;
    try {
      setOwn(
        obj,
        ad.prop,
        ad.type.list
          ? raw
              .split(XML_SPACE)
              .filter(Boolean)
              .map((t) => parseScalar(ad.type.s, t))
          : parseScalar(ad.type.s, raw),
      );
    } catch (e) {
      throw new XmlDecodeError(
        `invalid value in attribute ${ad.name} of ${element}: ${(e as Error).message}`,
        "invalid",
        element,
      );
    }
  }
}

/** The text content of a tree node. */
export function nodeText(node: XmlNode): string {
  return node.children.map((c) => (typeof c === "string" ? c : nodeText(c))).join("");
}

/** A child element of a tree node by local name (and namespace, when given). */
export function childNode(node: XmlNode, local: string, ns?: string): XmlNode | undefined {
  for (const c of node.children)
    if (typeof c !== "string" && c.local === local && (ns === undefined || c.ns === ns)) return c;
  return undefined;
}

/**
 * The frame around a document whose root element is one of `roots`. A class, one of them kept (see
 * kept.ts): the reader calls it, and per-document closures would cost it its optimized code.
 */
class DocumentFrame implements CustomFrame {
  value: { field: FieldDesc; value: unknown } | undefined;
  rootName: string | undefined;
  constructor(readonly roots: readonly FieldDesc[]) {}

  child(ns: string, local: string): FieldDesc | "skip" {
    this.rootName = clark(ns, local);
    return this.roots.find((r) => r.name === local && r.ns === ns) ?? "skip";
  }

  done(_ns: string, _local: string, value: unknown, field: FieldDesc | undefined): void {
    this.value = { field: field!, value };
  }
}
keepShapes(new DocumentFrame([]));

/** Decodes a whole document (text, or UTF-8 bytes) whose root element is one of `roots`. */
export function decodeDocument(
  xml: string | Uint8Array,
  roots: readonly FieldDesc[],
  options: DecodeOptions = {},
): { field: FieldDesc; value: unknown } {
  const reader = documentReader(roots);
  decodeXml(xml, reader.root, options);
  return reader.result();
}

/**
 * What reads a document whose root element is one of `roots` (whole or in chunks), then its value.
 */
export function documentReader(roots: readonly FieldDesc[]): {
  readonly root: CustomFrame;
  result(): { field: FieldDesc; value: unknown };
} {
  const frame = new DocumentFrame(roots);
  return {
    root: frame,
    result: () => {
      if (frame.value) return frame.value;
      const expected = roots.map((r) => clark(r.ns, r.name)).join(" or ");
      const rootName = frame.rootName;
      throw new XmlDecodeError(
        rootName
          ? `the document element is ${rootName}; expected ${expected}`
          : "the document has no root element",
        rootName ? "unexpected" : "malformed",
      );
    },
  };
}
