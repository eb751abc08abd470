/**
 * The frames that read a streamed result's elements (client/stream.ts): the result element, and
 * the array element inside it when there is one, each item decoded as a whole call decodes it and
 * handed over as soon as its element has closed, never gathered into an array.
 */
import type { StreamShape } from "../descriptors/stream-shape.js";
import type { FieldDesc } from "../descriptors/types.js";
import { clark } from "../support/xml-node.js";
import { XmlDecodeError, type CustomFrame } from "../xml/decode-options.js";
import { isNil } from "../xml/decode-values.js";
import type { XmlTag } from "../xml/tokens.js";

/**
 * The frame of an element that holds one repeated element, `holds`: each occurrence is read
 * through `inner` when given (the array element inside the result), else decoded as `holds` and
 * given to `onItem`.
 */
class HolderFrame implements CustomFrame {
  /** How many occurrences of `holds` came. */
  seen = 0;
  constructor(
    private readonly name: string,
    readonly holds: FieldDesc,
    private readonly inner: HolderFrame | undefined,
    private readonly onItem: (value: unknown) => void,
  ) {}

  child(ns: string, local: string, tag: XmlTag): FieldDesc | "skip" | CustomFrame {
    const f = this.holds;
    if (f.name !== local || f.ns !== ns)
      // Kept, a whole call would put it on the array; a stream has no array to put it on.
      throw new XmlDecodeError(
        `element ${clark(ns, local)} is not allowed in ${this.name} (a streamed result keeps no ` +
          "content its schema does not describe: call the operation whole to keep it)",
        "invalid",
        local,
      );
    if (++this.seen > f.max)
      throw new XmlDecodeError(
        `element ${clark(ns, local)} occurs more than ${f.max === 1 ? "once" : `${f.max} times`} ` +
          `in ${this.name}`,
        "invalid",
        local,
      );
    if (!this.inner) return f;
    // A nil array is an empty result, as the whole call reads it (no items).
    return tag.attributes.length > 0 && isNil(tag) ? "skip" : this.inner;
  }

  done(_ns: string, _local: string, value: unknown, field: FieldDesc | undefined): void {
    if (field === this.holds && !this.inner) this.onItem(value);
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

/** The frames of a streamed result of `shape`. */
export interface ItemFrames {
  /** The frame of the result element (the body element, or the HTTP document's root). */
  readonly root: CustomFrame;
  /** Once the result element has been read: fails, when strict, if it lacks required items. */
  check(strict: boolean): void;
}

/** The frames reading a streamed result of `shape`, each item given to `onItem`. */
export function itemFrames(shape: StreamShape, onItem: (value: unknown) => void): ItemFrames {
  const { root, inner, item } = shape;
  const innerFrame = inner && new HolderFrame(inner.name, item, undefined, onItem);
  const rootFrame = new HolderFrame(root.name, inner ?? item, innerFrame, onItem);
  return {
    root: rootFrame,
    check: (strict) => {
      if (strict) rootFrame.check();
    },
  };
}
