/**
 * The decoder's state between tokens: its frame stack (frames reused, one per depth), its limits
 * and the multi-references waiting for their elements. The token callbacks are in decoder.ts.
 */
import { setOwn } from "../support/own-props.js";
import type { XmlTag } from "./tokens.js";
import { UNBOUNDED } from "../descriptors/builders.js";
import { type FieldDesc, type TypeDesc } from "../descriptors/types.js";
import { emptyFrame, F, PENDING, type Frame, type MultiRef } from "./decode-frame.js";
import {
  DEFAULT_DECODE_LIMITS,
  XmlDecodeError,
  type CustomFrame,
  type DecodeLimits,
  type DecodeOptions,
  type XopAttachments,
} from "./decode-options.js";
import { declaresHref, plainAttr, setField } from "./decode-values.js";
import type { XmlNode } from "../support/xml-node.js";

/** The state of a decode; Decoder adds the token callbacks that change it. */
export class FrameStack {
  protected limits: DecodeLimits = DEFAULT_DECODE_LIMITS;
  protected strict = true;
  protected refuse = false;
  protected readonly stack: Frame[] = [];
  protected top: Frame = emptyFrame();
  /** The start of the element last opened or closing: where a content problem is reported. */
  at = 0;
  protected skip = 0;
  protected elements = 0;
  protected multiRefs = false;
  protected xop: XopAttachments | undefined;
  /**
   * One frame per depth, reused: a frame is finished with before the next element at its depth
   * opens.
   */
  protected readonly pool: Frame[] = [];
  /** Multi-references waiting for the element of their id, by id; and the values of ids read. */
  protected readonly refs = new Map<string, MultiRef[]>();
  protected readonly referenced = new Map<string, unknown>();
  /** The id of the element being opened, when multi-references wait for it (see Frame.ref). */
  protected target: string | undefined;

  start(root: CustomFrame, options: DecodeOptions): void {
    this.limits = options.limits ?? DEFAULT_DECODE_LIMITS;
    this.strict = options.strict ?? true;
    this.refuse = options.undescribed === "refuse";
    this.multiRefs = options.multiRefs === true;
    this.xop = options.xop;
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
    this.xop = undefined;
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

  protected acquire(
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
  protected push(
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

  /**
   * The element multi-references wait for (Axis 1's top-level multiRef, by its id): read as their
   * field, wherever it stands.
   */
  protected waitedFor(tag: XmlTag): FieldDesc | undefined {
    if (this.refs.size === 0 || tag.attributes.length === 0) return undefined;
    const id = plainAttr(tag, "id");
    const waiting = id === undefined ? undefined : this.refs.get(id);
    if (waiting === undefined) return undefined;
    this.target = id;
    return waiting[0]!.field;
  }

  /** Whether the open complex or array value holds as many occurrences of `field` as it may. */
  protected full(field: FieldDesc): boolean {
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
   * An element that stands for another (`href="#id"`, SOAP encoding's multi-reference): its value
   * is that element's, read when it comes (after it, as Axis 1 writes them), or read already.
   */
  protected multiRef(tag: XmlTag, field: FieldDesc): boolean {
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
  protected resolve(id: string, value: unknown): void {
    for (const r of this.refs.get(id) ?? []) {
      if (r.prop === undefined) (r.holder as unknown[])[r.index] = value;
      else if (r.field.tag !== undefined)
        // An ordered list's item: its value (setField).
        (r.holder as Record<string, { value: unknown }[]>)[r.prop]![r.index]!.value = value;
      else if (r.index >= 0) (r.holder as Record<string, unknown[]>)[r.prop]![r.index] = value;
      else setOwn(r.holder as Record<string, unknown>, r.prop, value);
    }
    this.refs.delete(id);
    this.referenced.set(id, value);
  }

  /** The document ends with multi-references to no element: their values are not in it. */
  protected unresolved(): never {
    const [id, [ref]] = this.refs.entries().next().value as [string, MultiRef[]];
    throw new XmlDecodeError(
      `element ${ref!.field.name} refers to href="#${id}", which no element that follows it ` +
        "has as its id",
      "invalid",
      ref!.field.name,
    );
  }
}
