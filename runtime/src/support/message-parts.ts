/**
 * The attachment parts of a package, as the MIME reader gives them and the security checks read
 * them: a type of its own, low in the runtime, so that mime/ and soap/ share it without importing
 * each other.
 */
/** An attachment part of a multipart/related message (MTOM or SOAP with Attachments). */
export interface MessagePart {
  /** The Content-ID, without its angle brackets. */
  readonly id: string;
  /** The part's MIME headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The content, its transfer encoding undone: bytes, or, for a large part received (spooled to a
   * temporary file) or a part sent from a file or a stream, a Blob or a ReadableStream.
   */
  readonly content: PartContent;
}

/** What an attachment part's content may be: in memory, a Blob, or a stream read once. */
export type PartContent = Uint8Array | Blob | ReadableStream<Uint8Array>;

/**
 * A binary the generated types say may travel as an attachment part (MTOM or SOAP with
 * Attachments), as received: bytes, or a Blob of a part spooled to a temporary file.
 */
export type ReceivedBinary = Uint8Array | Blob;
/** Such a binary as sent: bytes, a Blob (a file, say), or a stream read once as it is sent. */
export type SentBinary = PartContent;

/** Whether `v` is a value an attachment part may hold (see PartContent). */
export const isPartContent = (v: unknown): v is PartContent =>
  v instanceof Uint8Array || v instanceof Blob || v instanceof ReadableStream;

/** A received package's attachment parts (every part but the envelope's), by Content-ID. */
export type MessageParts = ReadonlyMap<string, MessagePart>;
