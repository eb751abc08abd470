/**
 * A document's UTF-8 bytes fed to the tokenizer as they arrive (a response body, chunk by chunk),
 * so that it is read while the rest is still on its way, never held as one Latin-1 view, and its
 * chunks need not be kept: what has been read is kept as the views the tokenizer made of it (which
 * the strings it gave out refer to anyway), and the bytes so far can be had back from them.
 */
import type { XmlTokenizer } from "./tokenizer.js";

const NOTHING = Buffer.alloc(0);

/**
 * Chunks are gathered into pieces of at least this many bytes before they are read. Reading every
 * chunk as it came (fetch's are 30–64 KiB) made the 4.6 MiB benchmark response ~10% slower over
 * loopback here (86 ms against 78 ms, medians of 24 calls) than reading it whole; pieces of 1 MiB
 * and more are as fast, and their Latin-1 views are strings Node keeps outside the JavaScript heap,
 * which garbage collection never copies. A body smaller than this is read whole, once it has all
 * come.
 */
export const MIN_PIECE = 1024 * 1024;

export class XmlPieces {
  /** The Latin-1 views of what the tokenizer has read, in order. */
  private readonly read: string[] = [];
  /** What the tokenizer has not read yet: the start of a construct the last piece cut short. */
  private rest: Uint8Array = NOTHING;
  /** Chunks received since, not yet given to the tokenizer. */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /**
   * The tokenizer is tried again once this many bytes wait: twice what it could not read last time,
   * so that a construct spanning many chunks (a long text, a large CDATA section) is not read again
   * from its start for every chunk, which would cost the square of its length.
   */
  private retryAt = 0;
  /** Where pieces are put together, reused from one to the next. */
  private scratch: Buffer = NOTHING;
  /** Whether what has been read is kept (see forget). */
  private keep = true;

  constructor(
    private readonly tokenizer: XmlTokenizer,
    /** See MIN_PIECE (smaller in tests, to cut documents anywhere). */
    private readonly minPiece = MIN_PIECE,
  ) {}

  /**
   * The next chunk (cut anywhere, even inside a character: the tokenizer reads whole constructs).
   */
  write(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.rest.length + this.pendingBytes >= Math.max(this.retryAt, this.minPiece))
      this.feed(false);
  }

  /**
   * The document is complete: reads what is left, and fails if that is not the end of a document.
   */
  end(): void {
    this.feed(true);
  }

  /**
   * Keeps nothing read from now on (and lets go of what was): a streamed result's memory stays that
   * of one piece, whatever the document's size. `received` then gives only what is still unread.
   */
  forget(): void {
    this.keep = false;
    this.read.length = 0;
  }

  /** The bytes received so far, in order (rebuilt: for messages, and the body of an error). */
  received(): Buffer {
    return Buffer.concat([
      ...this.read.map((v) => Buffer.from(v, "latin1")),
      this.rest,
      ...this.pending,
    ]);
  }

  private feed(final: boolean): void {
    const piece = this.piece();
    // Until the tokenizer has read it, all of the piece waits (should it fail, received() has it).
    this.rest = piece;
    this.pending = [];
    this.pendingBytes = 0;
    const n = this.tokenizer.read(piece, final);
    if (n > 0 && this.keep) this.read.push(this.tokenizer.lastView.slice(0, n));
    this.rest = piece.subarray(n);
    this.retryAt = this.rest.length * 2;
  }

  /**
   * The rest and the pending chunks as one piece of bytes: a chunk alone as it is, else put
   * together in `scratch`.
   */
  private piece(): Uint8Array {
    const rest = this.rest;
    if (rest.length === 0 && this.pending.length === 1) return this.pending[0]!;
    const total = rest.length + this.pendingBytes;
    if (this.scratch.length < total) {
      // Never from the shared pool: a buffer of its own tells whether the rest lies in it.
      const grown = Buffer.allocUnsafeSlow(Math.max(total, this.scratch.length * 2));
      grown.set(rest, 0);
      this.scratch = grown;
    } else if (rest.buffer === this.scratch.buffer) {
      // The rest is the end of the last piece, put together here: move it to the front.
      const from = rest.byteOffset - this.scratch.byteOffset;
      this.scratch.copyWithin(0, from, from + rest.length);
    } else this.scratch.set(rest, 0);
    let at = rest.length;
    for (const c of this.pending) {
      this.scratch.set(c, at);
      at += c.length;
    }
    return this.scratch.subarray(0, total);
  }
}
