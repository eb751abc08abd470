/**
 * A small DER reader, enough for PKCS#12 files and X.509 certificates: tag, length and content of
 * each element, read without copying. Only definite lengths are read (DER); a BER file with
 * indefinite lengths is refused with a DerError rather than misread.
 */

export class DerError extends Error {}

/** One element: its tag byte, and where its content begins and ends in `bytes`. */
export interface Der {
  readonly tag: number;
  readonly bytes: Uint8Array;
  /** Where the element's header begins. */
  readonly start: number;
  readonly body: number;
  readonly end: number;
}

export const TAG = {
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  oid: 0x06,
  sequence: 0x30,
  /** `[0]`, constructed (EXPLICIT) and primitive (IMPLICIT). */
  context0: 0xa0,
  implicit0: 0x80,
  context3: 0xa3,
} as const;

/** The element at `at` of `bytes`, which must end by `limit`. */
export function readDer(bytes: Uint8Array, at = 0, limit = bytes.length): Der {
  if (at + 2 > limit) throw new DerError("the data ends inside an element");
  const tag = bytes[at]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError("a multi-byte tag, which no field here has");
  let length = bytes[at + 1]!;
  let body = at + 2;
  if (length === 0x80) throw new DerError("an indefinite length (BER), not DER");
  if (length > 0x80) {
    const n = length & 0x7f;
    if (n > 4 || body + n > limit) throw new DerError("a length too large");
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + bytes[body + i]!;
    body += n;
  }
  const end = body + length;
  if (end > limit) throw new DerError("an element longer than what holds it");
  return { tag, bytes, start: at, body, end };
}

/** The element, which must have `tag`; `what` names it in the error. */
export function expectTag(d: Der, tag: number, what: string): Der {
  if (d.tag !== tag) throw new DerError(`${what} is not where it was expected`);
  return d;
}

/** The elements a constructed element holds. */
export function children(d: Der): Der[] {
  const out: Der[] = [];
  for (let at = d.body; at < d.end;) {
    const c = readDer(d.bytes, at, d.end);
    out.push(c);
    at = c.end;
  }
  return out;
}

/** The `i`th child, which must be there. */
export function child(d: Der, i: number, what: string): Der {
  const c = children(d)[i];
  if (!c) throw new DerError(`${what} is missing`);
  return c;
}

/** The content bytes (a view). */
export function contentOf(d: Der): Buffer {
  return Buffer.from(d.bytes.buffer, d.bytes.byteOffset + d.body, d.end - d.body);
}

/** The whole element, header and content (a view). */
export function encodedOf(d: Der): Buffer {
  return Buffer.from(d.bytes.buffer, d.bytes.byteOffset + d.start, d.end - d.start);
}

/** An OBJECT IDENTIFIER in dotted form. */
export function oidOf(d: Der): string {
  const b = contentOf(expectTag(d, TAG.oid, "an object identifier"));
  if (b.length === 0) throw new DerError("an empty object identifier");
  const parts: number[] = [];
  let value = 0;
  for (const byte of b) {
    value = value * 128 + (byte & 0x7f);
    if (byte & 0x80) continue;
    if (parts.length === 0)
      parts.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
    else parts.push(value);
    value = 0;
  }
  return parts.join(".");
}

/** Big-endian bytes as an unsigned bigint (0n for none). */
export function unsignedOf(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n;
  return BigInt(
    `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`,
  );
}

/** A non-negative INTEGER as a bigint. */
export function bigIntOf(d: Der): bigint {
  return unsignedOf(contentOf(expectTag(d, TAG.integer, "an integer")));
}

/** A small non-negative INTEGER (an iteration count, a version). */
export function intOf(d: Der, max: number, what: string): number {
  const n = bigIntOf(d);
  if (n > BigInt(max)) throw new DerError(`${what} is over ${max}`);
  return Number(n);
}

/** The content of an OCTET STRING. */
export function octetsOf(d: Der, what: string): Buffer {
  return contentOf(expectTag(d, TAG.octetString, what));
}
