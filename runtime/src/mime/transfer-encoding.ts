/**
 * A part's Content-Transfer-Encoding (RFC 2045 §6) as both multipart readers take it: binary, 8bit
 * and 7bit as they are, base64 decoded strictly and chunk by chunk, so that a part can be decoded
 * as it arrives (and spooled) with the same refusals as when it is decoded whole.
 */
import { MultipartError } from "./part-rules.js";

/** The encodings read; anything else is refused by name. */
const ENCODINGS = ["binary", "8bit", "7bit", "base64"] as const;
export type TransferEncoding = (typeof ENCODINGS)[number];

/** The Content-Transfer-Encoding of a part's `headers` (binary when absent), or a MultipartError. */
export function transferEncoding(headers: Readonly<Record<string, string>>): TransferEncoding {
  const encoding = (headers["content-transfer-encoding"] ?? "binary").trim().toLowerCase();
  if (!(ENCODINGS as readonly string[]).includes(encoding))
    throw new MultipartError(
      `the Content-Transfer-Encoding '${encoding}' is not supported; expected binary, 8bit, 7bit or base64`,
      "unsupported",
    );
  return encoding as TransferEncoding;
}

const BLANKS = /[\r\n \t]+/g;
const NOT_BASE64 = /[^A-Za-z0-9+/=]/;

const malformed = (why: string) =>
  new MultipartError(`a part's base64 content is malformed: ${why}`, "malformed");

/**
 * base64 text decoded as it comes, in chunks cut anywhere: a 4-character group begun in one chunk
 * is finished in the next. Line breaks and blanks are skipped (RFC 2045 breaks lines at 76);
 * any other character outside the alphabet, `=` other than as the last group's padding, anything
 * after that padding, or text ending inside a group is refused, as base64Binary values are. Each
 * chunk is checked and decoded by the engine's own routines (regular expressions, Buffer's base64).
 */
export class Base64Decoder {
  /** The characters of a group begun (fewer than 4, or a padded group not yet whole). */
  #carry = "";
  /** A padded group was closed: only blanks may follow. */
  #closed = false;

  /** The bytes of the groups `text` completes. */
  push(text: Uint8Array): Buffer {
    const chunk = Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString("latin1");
    const s = this.#carry + chunk.replace(BLANKS, "");
    if (s.length === 0) return Buffer.alloc(0);
    const bad = NOT_BASE64.exec(s);
    if (bad) throw malformed(`byte 0x${bad[0].charCodeAt(0).toString(16)} is not base64`);
    if (this.#closed) throw malformed("text follows its padding");
    let whole = s.length - (s.length % 4);
    const pad = s.indexOf("=");
    if (pad !== -1) {
      if (pad % 4 < 2) throw malformed("'=' stands where data belongs");
      const end = pad - (pad % 4) + 4;
      if (!/^=*$/.test(s.slice(pad, end))) throw malformed("data follows '='");
      if (s.length > end) throw malformed("text follows its padding");
      this.#closed = s.length === end;
      whole = this.#closed ? end : end - 4;
    }
    this.#carry = s.slice(whole);
    return Buffer.from(s.slice(0, whole), "base64");
  }

  /** Checks that the text ended on a group's end. */
  end(): void {
    if (this.#carry.length !== 0) throw malformed("it ends inside a 4-character group");
  }
}

/** A whole base64 part decoded (the whole-body reader's form of Base64Decoder). */
export function decodeBase64(text: Uint8Array): Uint8Array {
  const decoder = new Base64Decoder();
  const bytes = decoder.push(text);
  decoder.end();
  return bytes;
}
