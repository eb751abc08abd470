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
  /** The content, its transfer encoding undone. */
  readonly content: Uint8Array;
}

/** A received package's attachment parts (every part but the envelope's), by Content-ID. */
export type MessageParts = ReadonlyMap<string, MessagePart>;
