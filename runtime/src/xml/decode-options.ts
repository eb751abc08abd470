/**
 * What a decode is told (limits, strictness) and how it fails: shared by the reader and its
 * callers.
 */
import type { FieldDesc } from "../descriptors/types.js";
import type { XmlTag } from "./tokens.js";

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
  /**
   * An XOP package's attachments (MTOM): a base64Binary element holding an `xop:Include` is the
   * bytes of the part its href names. Without it, an `xop:Include` is an element like any other.
   */
  readonly xop?: XopAttachments;
}

/** The parts of an XOP package, each given once (see DecodeOptions.xop). */
export interface XopAttachments {
  /** The bytes of the part `href` (a `cid:` URL) names; throws an XmlDecodeError when none. */
  include(href: string): Uint8Array | Blob;
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

/** A structural frame above the typed content (a SOAP envelope, a document root). */
export interface CustomFrame {
  /**
   * Chooses what a child element becomes: a typed field, a tree, skipped, or another custom frame.
   */
  child(ns: string, local: string, tag: XmlTag): FieldDesc | "tree" | "skip" | CustomFrame;
  /** Receives a finished child. */
  done(ns: string, local: string, value: unknown, field: FieldDesc | undefined): void;
}
