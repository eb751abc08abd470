/**
 * A client's multipart/related responses read as they arrive: large attachment parts spooled to
 * temporary files and given as Blobs (mime/spool.ts), whose files live until the caller releases
 * them (`releaseAttachments`), the Blobs are garbage-collected or the process exits, and are
 * removed at once when the call fails or its result holds none of them (docs/attachments.md).
 */
import { chunksWithin } from "../http/body.js";
import { isUtf8Charset } from "../http/content-type.js";
import type { MediaType } from "../mime/headers.js";
import { MultipartError, type BodyPart } from "../mime/multipart.js";
import { holds, Spool } from "../mime/spool.js";
import { readMtomStream, type MtomMessage } from "../mime/xop.js";
import { XmlDecodeError, type CustomFrame, type DecodeOptions } from "../xml/decode-options.js";
import { decodeXml } from "../xml/reader.js";

/** The limits of a package response. */
export interface PackageLimits {
  /** The whole body's limit, and its name for the error. */
  readonly maxBytes: number;
  readonly limitName: string;
  readonly maxPartBytes: number;
  readonly spoolBytes: number;
}

/** The most parts a response may have: an envelope's attachments, not a file system. */
const MAX_PARTS = 10_000;

/**
 * A multipart/related response: its root part decoded into `root`, each `xop:Include` the bytes or
 * the Blob of its part. A package that cannot be read fails as a decode would (the body is not
 * kept: its root part, when read, stands for it in errors); a body over the limit rejects.
 */
export async function receivePackage(
  res: Response,
  media: MediaType,
  root: CustomFrame,
  options: DecodeOptions,
  limits: PackageLimits,
): Promise<ReceivedPackage> {
  const spool = new Spool();
  let message: MtomMessage;
  try {
    message = await readMtomStream(
      chunksWithin(res, limits.maxBytes, limits.limitName),
      media,
      {
        maxPartBytes: limits.maxPartBytes,
        maxParts: MAX_PARTS,
        maxRootBytes: limits.maxBytes,
        spoolBytes: limits.spoolBytes,
      },
      spool,
    );
  } catch (error) {
    // Only a package that cannot be read is a bad response; the connection, the limit or the
    // spool's files (ENOSPC, EACCES) failing goes on as it is.
    if (!(error instanceof MultipartError || error instanceof XmlDecodeError)) {
      await spool.release();
      throw error;
    }
    const contentType = res.headers.get("content-type") ?? "";
    const decoded = { root, failure: { error }, blank: false as const, spool };
    return { contentType, xml: Buffer.alloc(0), decoded };
  }
  const { root: bytes, charset } = message;
  const xml = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let failure: { error: unknown } | undefined;
  try {
    const text = isUtf8Charset(charset) ? xml : new TextDecoder(charset).decode(xml);
    decodeXml(text, root, { ...options, xop: message.attachments });
  } catch (error) {
    // As a plain response's: whatever decoding the root part throws is the answer's to report.
    failure = { error };
  }
  return {
    contentType: `${message.soapType.type}; charset=${charset ?? "utf-8"}`,
    xml,
    decoded: { root, failure, blank: false, spool, parts: message.parts },
  };
}

/** What a package response is read into (received.ts makes it a Received). */
export interface ReceivedPackage {
  /** The root part's Content-Type. */
  readonly contentType: string;
  /** The root part's bytes. */
  readonly xml: Buffer;
  readonly decoded: {
    readonly root: CustomFrame;
    readonly failure: { error: unknown } | undefined;
    readonly blank: false;
    readonly spool: Spool;
    readonly parts?: ReadonlyMap<string, BodyPart>;
  };
}

/**
 * Runs `answer` on a response whose temporary files are `spool`'s: when it fails, they are
 * removed before the error goes on; when it succeeds, unless its result holds their Blobs (then
 * when those are garbage-collected, or by releaseAttachments).
 */
export async function keepingAttachments<T>(
  spool: Spool | undefined,
  answer: () => T | Promise<T>,
): Promise<T> {
  let result: T;
  try {
    result = await answer();
  } catch (e) {
    await spool?.release();
    throw e;
  }
  // Only a spool that made files has Blobs to look for in the result.
  if (spool?.used && !holds(result, spool)) await spool.release();
  // The result's Blobs hold the files from here on: collected, they are removed.
  else spool?.settle();
  return result;
}
