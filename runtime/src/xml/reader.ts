/**
 * A streaming XML decoder driven by descriptors (on the runtime's own tokenizer). It builds typed
 * values while it reads, never a DOM; DTDs are refused, and depth and element count are bounded.
 */
import { keepShapes } from "../support/kept.js";
import { positionIn } from "../support/text-position.js";
import { XmlPieces } from "./pieces.js";
import { tokenizeXml, XmlSyntaxError, XmlTokenizer } from "./tokenizer.js";
import type { FieldDesc } from "../descriptors/types.js";
import { XmlDecodeError, type CustomFrame, type DecodeOptions } from "./decode-options.js";
import { Decoder } from "./decoder.js";
import { clark } from "../support/xml-node.js";

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

  /** `minPiece`: see XmlPieces (0 reads each chunk as it comes, as a streamed result is). */
  constructor(root: CustomFrame, options: DecodeOptions, minPiece?: number) {
    this.decoder = takeDecoder(root, options);
    this.pieces = new XmlPieces(new XmlTokenizer(this.decoder), minPiece);
  }

  /** Keeps none of the bytes read from now on (see XmlPieces.forget). */
  forget(): void {
    this.pieces.forget();
    this.forgotten = true;
  }

  /** Whether the bytes read are no longer kept: errors then say a byte offset, not a line. */
  private forgotten = false;

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
      throw this.forgotten ? atByte(e, d.at) : located(e, this.pieces.received(), d.at);
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

/** A problem located by its byte offset alone (the bytes before it were not kept). */
function atByte(e: unknown, at: number): unknown {
  if (e instanceof XmlSyntaxError)
    return new XmlDecodeError(`malformed XML at byte ${e.offset}: ${e.message}`, "malformed");
  if (e instanceof XmlDecodeError && (e.kind === "missing" || e.kind === "invalid"))
    return new XmlDecodeError(`${e.message} (at byte ${at})`, e.kind, e.element);
  return e;
}

let idleDecoder: Decoder | undefined;

/**
 * The frame around a document whose root element is one of `roots`. A class, one of them kept (see
 * support/kept.ts): the reader calls it, and per-document closures would cost it its optimized
 * code.
 */
class DocumentFrame implements CustomFrame {
  value: { field: FieldDesc; value: unknown } | undefined;
  rootName: string | undefined;
  matched: FieldDesc | undefined;
  constructor(
    readonly roots: readonly FieldDesc[],
    /** Reads the root element in place of its field (a streamed result: client/stream.ts). */
    readonly frame: CustomFrame | undefined,
    /** The root element's value when `frame` reads it (what stands for it). */
    readonly frameValue: unknown,
  ) {}

  child(ns: string, local: string): FieldDesc | "skip" | CustomFrame {
    this.rootName = clark(ns, local);
    const f = this.roots.find((r) => r.name === local && r.ns === ns);
    this.matched = f;
    return f === undefined ? "skip" : (this.frame ?? f);
  }

  done(_ns: string, _local: string, value: unknown, field: FieldDesc | undefined): void {
    this.value = { field: field ?? this.matched!, value: this.frame ? this.frameValue : value };
  }
}
keepShapes(new DocumentFrame([], undefined, undefined));

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

/** What reads a document (whole or in chunks), then gives its root element's value. */
export interface DocumentReader {
  readonly root: CustomFrame;
  result(): { field: FieldDesc; value: unknown };
}

/**
 * What reads a document whose root element is one of `roots` (whole or in chunks), then its value;
 * with `streamed`, the root element is read through its frame, and its value is `streamed.value`.
 */
export function documentReader(
  roots: readonly FieldDesc[],
  streamed?: { readonly frame: CustomFrame; readonly value: unknown },
): DocumentReader {
  const frame = new DocumentFrame(roots, streamed?.frame, streamed?.value);
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
