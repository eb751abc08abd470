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

/** Each byte's 6-bit value in the base64 alphabet; WS for line breaks and blanks, PAD for `=`. */
const WS = -2;
const PAD = -3;
const VALUE = new Int8Array(256).fill(-1);
for (const [i, c] of [
  ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
].entries())
  VALUE[c.charCodeAt(0)] = i;
for (const c of " \t\r\n") VALUE[c.charCodeAt(0)] = WS;
VALUE["=".charCodeAt(0)] = PAD;

const malformed = (why: string) =>
  new MultipartError(`a part's base64 content is malformed: ${why}`, "malformed");

/**
 * base64 text decoded as it comes, in chunks cut anywhere: a 4-character group begun in one chunk
 * is finished in the next. Line breaks and blanks are skipped (RFC 2045 breaks lines at 76);
 * any other character outside the alphabet, `=` other than as the last group's padding, anything
 * after that padding, or text ending inside a group is refused, as base64Binary values are.
 */
export class Base64Decoder {
  /** The 6-bit values of the group begun, high first. */
  #group = 0;
  /** How many characters of the group have come (padding included). */
  #count = 0;
  #pads = 0;
  /** A padded group was closed: only blanks may follow. */
  #closed = false;

  /** The bytes of the groups `text` completes. */
  push(text: Uint8Array): Buffer {
    const out = Buffer.allocUnsafe(Math.floor((this.#count + text.length) / 4) * 3);
    let o = 0;
    for (let i = 0; i < text.length; i++) {
      const v = VALUE[text[i]!]!;
      if (v === WS) continue;
      if (v === -1) throw malformed(`byte 0x${text[i]!.toString(16)} is not base64`);
      if (this.#closed) throw malformed("text follows its padding");
      if (v === PAD) {
        if (this.#count < 2) throw malformed("'=' stands where data belongs");
        this.#pads++;
      } else if (this.#pads > 0) throw malformed("data follows '='");
      this.#group = (this.#group << 6) | (v === PAD ? 0 : v);
      if (++this.#count < 4) continue;
      const g = this.#group;
      out[o++] = g >>> 16;
      if (this.#pads < 2) out[o++] = (g >>> 8) & 0xff;
      if (this.#pads < 1) out[o++] = g & 0xff;
      this.#closed = this.#pads > 0;
      this.#group = this.#count = 0;
    }
    return out.subarray(0, o);
  }

  /** Checks that the text ended on a group's end. */
  end(): void {
    if (this.#count !== 0) throw malformed("it ends inside a 4-character group");
  }
}

/** A whole base64 part decoded (the whole-body reader's form of Base64Decoder). */
export function decodeBase64(text: Uint8Array): Uint8Array {
  const decoder = new Base64Decoder();
  const bytes = decoder.push(text);
  decoder.end();
  return bytes;
}
