/**
 * The frames that read a streamed result's elements (client/stream.ts): the result element, and
 * the array element inside it when there is one, each item decoded as a whole call decodes it and
 * handed over as soon as its element has closed, never gathered into an array. Content the schema
 * does not describe beside the items follows the whole call's rule (DecodeOptions.undescribed):
 * refused, or kept where the whole call keeps it, on an object that stands for the result.
 */
import type { StreamShape } from "../descriptors/stream-shape.js";
import type { FieldDesc } from "../descriptors/types.js";
import { keepShapes } from "../support/kept.js";
import { clark, type XmlNode } from "../support/xml-node.js";
import { XmlDecodeError, type CustomFrame } from "../xml/decode-options.js";
import { isNil } from "../xml/decode-values.js";
import type { XmlTag } from "../xml/tokens.js";
import { keepUndescribed } from "../xml/undescribed.js";

/**
 * The frame of an element that holds one repeated element, `holds`: each occurrence is read
 * through `inner` when given (the array element inside the result), else decoded as `holds` and
 * pushed on `items`. Other elements, and occurrences past `holds.max`, are kept on `holder` as raw
 * XML (where the whole call keeps them: on the array, or on the wrapper) or refused.
 */
class HolderFrame implements CustomFrame {
  /** How many occurrences of `holds` came. */
  seen = 0;
  constructor(
    private readonly name: string,
    readonly holds: FieldDesc,
    private readonly inner: HolderFrame | undefined,
    private readonly items: unknown[],
    private readonly holder: object,
    private readonly refuse: boolean,
  ) {}

  child(ns: string, local: string, tag: XmlTag): FieldDesc | "tree" | "skip" | CustomFrame {
    const f = this.holds;
    if (f.name !== local || f.ns !== ns) return this.undescribed(ns, local, undefined);
    if (this.seen >= f.max) return this.undescribed(ns, local, f);
    this.seen++;
    if (!this.inner) return f;
    // A nil array is an empty result, as the whole call reads it (no items).
    return tag.attributes.length > 0 && isNil(tag) ? "skip" : this.inner;
  }

  /** An element the schema does not describe here, or one too many: as the decoder does it. */
  private undescribed(ns: string, local: string, field: FieldDesc | undefined): "tree" {
    if (!this.refuse) return "tree";
    const why = !field
      ? "is not allowed in"
      : field.max <= 1
        ? "occurs more than once in"
        : `occurs more than ${field.max} times in`;
    throw new XmlDecodeError(`element ${clark(ns, local)} ${why} ${this.name}`, "invalid", local);
  }

  done(_ns: string, _local: string, value: unknown, field: FieldDesc | undefined): void {
    // The inner frame's own close gives no value (no field): only kept trees have one.
    if (field === undefined) {
      if (value !== undefined) keepUndescribed(this.holder, value as XmlNode);
    } else if (field === this.holds && !this.inner) this.items.push(value);
  }

  /** Fails, when strict, if `holds` came fewer times than it must. */
  check(): void {
    const f = this.holds;
    if (this.seen < f.min)
      throw new XmlDecodeError(
        `element ${this.name} lacks ${clark(f.ns, f.name)} (${f.min} at least, ${this.seen} read)`,
        "missing",
        f.name,
      );
    if (this.seen > 0) this.inner?.check();
  }
}
// One kept: the decoder's optimized code that met these frames is not thrown away each time a
// garbage collection finds none alive (see support/kept.ts).
keepShapes(new HolderFrame("", undefined as never, undefined, [], {}, false));

/** The frames of a streamed result of `shape`. */
export interface ItemFrames {
  /** The frame of the result element (the body element, or the HTTP document's root). */
  readonly root: CustomFrame;
  /**
   * The value of the result element, for the whole call's answer to pick the result from: `result`
   * itself, or a wrapper holding it at `prop`. What the wrapper keeps goes to `result` as the whole
   * call's goes to its array (client/result.ts).
   */
  readonly value: object;
  /** Once the result element has been read: fails, when strict, if it lacks required items. */
  check(strict: boolean): void;
}

/**
 * The frames reading a streamed result of `shape` (`prop`: the body's, when the result is a field
 * of its element), each item pushed on `items`; `result` stands for the array of the whole call:
 * what it would keep, this keeps (or, with `refuse`, refuses).
 */
export function itemFrames(
  shape: StreamShape,
  prop: string | undefined,
  items: unknown[],
  result: object,
  refuse: boolean,
): ItemFrames {
  const { root, inner, item } = shape;
  const value = prop === undefined ? result : { [prop]: result };
  const innerFrame = inner && new HolderFrame(inner.name, item, undefined, items, result, refuse);
  const rootFrame = new HolderFrame(root.name, inner ?? item, innerFrame, items, value, refuse);
  return {
    root: rootFrame,
    value,
    check: (strict) => {
      if (strict) rootFrame.check();
    },
  };
}
