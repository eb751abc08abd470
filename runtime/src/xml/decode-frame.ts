/**
 * The decoder's frames: one per open element, of one shape so that its property accesses stay
 * monomorphic.
 */
import type { FieldDesc, TypeDesc } from "../descriptors/types.js";
import type { CustomFrame } from "./decode-options.js";
import type { XmlNode } from "../support/xml-node.js";

export const enum F {
  Complex,
  Array,
  Scalar,
  Skip,
  Tree,
  Custom,
  AnyType,
}

export interface Frame {
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
export interface MultiRef {
  readonly field: FieldDesc;
  /** The object or array the value goes in, at `prop` (an object's) and `index` (an array's). */
  readonly holder: Record<string, unknown> | unknown[];
  readonly prop: string | undefined;
  readonly index: number;
}

/** What a multi-referenced value holds until its element is read. */
export const PENDING: unique symbol = Symbol("pending multi-reference");

export const emptyFrame = (): Frame => ({
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
