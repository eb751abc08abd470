/**
 * Reading a client's response: whole, or, for a UTF-8 body to decode, decoded as it arrives (see
 * xml/pieces.ts); either way a `Received`, which gives the body's bytes and text only when asked.
 */
import { isUtf8Charset, parseContentType } from "../http/content-type.js";
import { eachChunk, readBody } from "../http/body.js";
import { isXmlSpace, onlyWhiteSpace } from "../support/xml-space.js";
import { ChunkDecoder, decodeXml } from "../xml/reader.js";
import { type CustomFrame, type DecodeOptions } from "../xml/decode-options.js";
import { isMultipartRelated } from "../mime/xop.js";
import type { BodyPart } from "../mime/multipart.js";
import { DEFAULT_SPOOL_BYTES, type Spool } from "../mime/spool.js";
import { receivePackage } from "./attachments.js";

/** A call's response as received, and how to read its typed result from it. */
export interface Sent {
  readonly res: Received;
  answer(): unknown;
}

/**
 * Reads `res`'s body, at most `maxBytes` (`limitName` says which limit in the error). With
 * `decoding`, a UTF-8 body is decoded into that frame as it arrives (see Received.decode) rather
 * than after it has all come; other charsets are read whole, to be decoded as text.
 */
export async function receive(
  res: Response,
  maxBytes: number,
  limitName: string,
  decoding: CustomFrame | undefined,
  options: DecodeOptions,
  maxPartBytes = maxBytes,
  spoolBytes = DEFAULT_SPOOL_BYTES,
): Promise<Received> {
  const contentType = res.headers.get("content-type") ?? "";
  const media = parseContentType(contentType);
  if (decoding !== undefined && isMultipartRelated(media)) {
    const limits = { maxBytes, limitName, maxPartBytes, spoolBytes };
    const p = await receivePackage(res, media, decoding, options, limits);
    return new Received(res.status, p.contentType, () => p.xml, res.headers, p.decoded);
  }
  if (decoding === undefined || !isUtf8Charset(media.params["charset"])) {
    const bytes = await readBody(res, maxBytes, limitName);
    return new Received(res.status, contentType, () => bytes, res.headers);
  }
  // Decoded as it arrives, the chunks are not kept (the decoder can give the bytes back), unless
  // decoding fails: then the rest of the body is kept after what came before, for the error.
  const d = new ChunkDecoder(decoding, options);
  const blank = new BlankSoFar();
  let failure: { error: unknown } | undefined;
  const afterFailure: Uint8Array[] = [];
  try {
    await eachChunk(res, maxBytes, limitName, (chunk) => {
      blank.add(chunk);
      if (failure !== undefined) return void afterFailure.push(chunk);
      try {
        d.write(chunk);
      } catch (error) {
        failure = { error };
        afterFailure.push(d.received());
      }
    });
    // A blank body is no document: the caller says what it means (a one-way call, say).
    if (failure === undefined && !blank.blank) {
      try {
        d.end();
      } catch (error) {
        failure = { error };
      }
    }
  } finally {
    d.release();
  }
  const bytes = () =>
    failure !== undefined && afterFailure.length > 0 ? Buffer.concat(afterFailure) : d.received();
  return new Received(res.status, contentType, bytes, res.headers, {
    root: decoding,
    failure,
    blank: blank.blank,
  });
}

/**
 * A response: status, Content-Type and body. The body is read as text only when needed (an error's
 * message, a charset other than UTF-8): the decoders read UTF-8 bytes faster than a string. A body
 * decoded as it arrived has its bytes put back together only when they are asked for.
 */
export class Received {
  #text: string | undefined;
  #bytes: Buffer | undefined;
  #blank: boolean | undefined;
  /** The charset the Content-Type declares, if any. */
  private readonly charset: string | undefined;
  constructor(
    readonly status: number,
    readonly contentType: string,
    /** The body's bytes (asked for once, when needed). */
    private readonly body: () => Buffer,
    private readonly rawHeaders: Headers,
    /**
     * For a body decoded as it arrived: into which frame, how that ended, and whether it was blank.
     */
    private readonly decoded?: {
      readonly root: CustomFrame;
      readonly failure: { error: unknown } | undefined;
      readonly blank: boolean;
      /** A package's parts besides the root, by Content-ID. */
      readonly parts?: ReadonlyMap<string, BodyPart>;
      /** A package's temporary files (see client/attachments.ts). */
      readonly spool?: Spool;
    },
  ) {
    this.charset = parseContentType(contentType).params["charset"];
    this.#blank = decoded?.blank;
  }

  /** A multipart/related response's parts besides the envelope, by Content-ID. */
  get parts(): ReadonlyMap<string, BodyPart> | undefined {
    return this.decoded?.parts;
  }

  /** A package's temporary files, for the call to release (see keepingAttachments). */
  get spool(): Spool | undefined {
    return this.decoded?.spool;
  }

  /** The response headers, names in lower case. */
  get headers(): Record<string, string> {
    return Object.fromEntries(this.rawHeaders);
  }

  /** The body's bytes. */
  get bytes(): Buffer {
    return (this.#bytes ??= this.body());
  }

  /** The body as text, in its declared charset (UTF-8 when none is declared or it is unknown). */
  get text(): string {
    if (this.#text !== undefined) return this.#text;
    let decoder: InstanceType<typeof TextDecoder>;
    try {
      decoder = new TextDecoder(this.charset ?? "utf-8");
    } catch {
      decoder = new TextDecoder("utf-8");
    }
    return (this.#text = decoder.decode(this.bytes));
  }

  /** The body for the XML decoders: the bytes when they are UTF-8, else the text. */
  get xml(): string | Uint8Array {
    return isUtf8Charset(this.charset) ? this.bytes : this.text;
  }

  /** Whether the body is empty or only white space. */
  get blank(): boolean {
    if (this.#blank !== undefined) return this.#blank;
    return (this.#blank = onlyWhiteSpace(this.xml));
  }

  /**
   * Decodes the body into `root`; when that was done as it arrived, says how it ended (rethrows its
   * error).
   */
  decode(root: CustomFrame, options: DecodeOptions): void {
    const done = this.decoded;
    if (done === undefined || done.root !== root) return decodeXml(this.xml, root, options);
    if (done.failure !== undefined) throw done.failure.error;
  }
}

/**
 * Whether a body that arrives chunk by chunk is empty or only XML white space (after a byte order
 * mark).
 */
export class BlankSoFar {
  /** The body's first three bytes: a byte order mark, or white space like the rest. */
  private readonly head: number[] = [];
  private restBlank = true;

  add(chunk: Uint8Array): void {
    let i = 0;
    while (this.head.length < 3 && i < chunk.length) this.head.push(chunk[i++]!);
    if (!this.restBlank) return;
    for (; i < chunk.length; i++) {
      if (!isXmlSpace(chunk[i]!)) {
        this.restBlank = false;
        return;
      }
    }
  }

  get blank(): boolean {
    const h = this.head;
    const bom = h.length === 3 && h[0] === 0xef && h[1] === 0xbb && h[2] === 0xbf;
    return this.restBlank && (bom || h.every(isXmlSpace));
  }
}
