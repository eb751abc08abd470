/**
 * The rules both multipart readers (the whole-body one in multipart.ts, the one reading as the body
 * arrives in multipart-stream.ts) hold a body to, written once: which boundaries are taken, what a
 * delimiter line may hold, how large a header block may be, how headers are read, which transfer
 * encodings are, and how many parts. Strict where leniency would let data be read as structure.
 */

/** A multipart body that cannot be read: `reason` says which rule it breaks, for code to test. */
export class MultipartError extends Error {
  constructor(
    message: string,
    readonly reason:
      | "malformed"
      | "boundary-in-data"
      | "missing-part"
      | "duplicate-part"
      | "too-large"
      | "unsupported",
  ) {
    super(message);
    this.name = "MultipartError";
  }
}

export interface MultipartLimits {
  /** The largest part accepted, in bytes. */
  readonly maxPartBytes: number;
  /** The most parts accepted. */
  readonly maxParts: number;
}

/** Header blocks larger than this are no MIME headers of ours. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** The delimiter of `boundary` (CRLF `--boundary`), or a MultipartError for a boundary not valid. */
export function delimiterOf(boundary: string): Buffer {
  if (boundary === "" || boundary.length > 70 || /[\r\n]/.test(boundary))
    throw new MultipartError(`the boundary ${JSON.stringify(boundary)} is not valid`, "malformed");
  return Buffer.from("\r\n--" + boundary, "latin1");
}

/**
 * Where the transport padding (spaces, tabs) after a delimiter ends in `buf` from `from`: the CRLF
 * that must follow it is there, or `buf` ends first (-1). Anything else is the boundary appearing
 * inside data.
 */
export function afterPadding(buf: Uint8Array, from: number): number {
  let i = from;
  while (buf[i] === 0x20 || buf[i] === 0x09) i++;
  if (i + 1 >= buf.length) return -1;
  if (buf[i] === 0x0d && buf[i + 1] === 0x0a) return i + 2;
  throw new MultipartError(
    "the boundary appears inside a part's data (a delimiter followed by other than CRLF)",
    "boundary-in-data",
  );
}

/** Refuses a part beyond the `limits`' count, `read` being how many were read before it. */
export function checkPartCount(read: number, limits: MultipartLimits): void {
  if (read >= limits.maxParts)
    throw new MultipartError(`the body holds more than ${limits.maxParts} parts`, "too-large");
}

/** Refuses a header block of `length` bytes over MAX_HEADER_BYTES. */
export function checkHeaderBytes(length: number): void {
  if (length > MAX_HEADER_BYTES)
    throw new MultipartError(
      `a part's headers are longer than ${MAX_HEADER_BYTES} bytes`,
      "malformed",
    );
}

/** `Name: value` lines, continuation lines folded in (RFC 5322 §2.2.3). */
export function partHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  let last = "";
  for (const line of block.split("\r\n")) {
    if (line === "") continue;
    if ((line[0] === " " || line[0] === "\t") && last !== "") {
      headers[last] += " " + line.trim();
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0)
      throw new MultipartError(
        `a part's header line '${line.slice(0, 60)}' has no name`,
        "malformed",
      );
    last = line.slice(0, colon).trim().toLowerCase();
    if (Object.hasOwn(headers, last))
      throw new MultipartError(`a part repeats its ${last} header`, "malformed");
    headers[last] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** Refuses a part of `size` bytes (decoded) over `max`; `what` names it ("part", "root part"). */
export function checkPartBytes(size: number, max: number, what = "part"): void {
  if (size > max) throw new MultipartError(`a ${what} is larger than ${max} bytes`, "too-large");
}
