/**
 * RC2-CBC decryption (RFC 2268), for the certificates of PKCS#12 files written by Windows and by
 * `openssl pkcs12 -legacy` (pbeWithSHAAnd40BitRC2-CBC): Node's OpenSSL 3 has RC2 only in its
 * legacy provider, which it does not load.
 */

/** RFC 2268's PITABLE, a permutation of 0..255 derived from the digits of pi. */
const PITABLE = Buffer.from(
  "d978f9c419ddb5ed28e9fd794aa0d89dc67e37832b76538e624c6488448bfba2179a59f587b34f1361456d8d09817d32" +
    "bd8f40eb86b77b0bf09521225c6b4e8254d66593ce60b21c7356c014a78cf1dc1275ca1f3bbee4d1423dd430a33cb626" +
    "6fbf0eda4669075727f21d9bbc944303f811c7f690ef3ee706c3d52fc8661ed708e8eade8052eef784aa72ac354d6a2a" +
    "961ad2715a1549744b9fd05e0418a4ecc2e0416e0f51cbcc2491af50a1f47039997c3a8523b8b47afc02365b25559731" +
    "2d5dfa98e38a92ae05df2910676cbac9d300e6cfe19ea82c6316013f58e289a90d38341bab33ffb0bb480c5fb9b1cd2e" +
    "c5f3db47e5a59c770aa62068fe7fc1ad",
  "hex",
);

/** The 64 16-bit subkeys of `key` with `effectiveBits` of effective key length. */
export function rc2Subkeys(key: Uint8Array, effectiveBits: number): Uint16Array {
  const l = new Uint8Array(128);
  l.set(key);
  const t = key.length;
  for (let i = t; i < 128; i++) l[i] = PITABLE[(l[i - 1]! + l[i - t]!) & 255]!;
  const t8 = Math.ceil(effectiveBits / 8);
  const tm = 255 >> (8 * t8 - effectiveBits);
  l[128 - t8] = PITABLE[l[128 - t8]! & tm]!;
  for (let i = 127 - t8; i >= 0; i--) l[i] = PITABLE[l[i + 1]! ^ l[i + t8]!]!;
  const k = new Uint16Array(64);
  for (let i = 0; i < 64; i++) k[i] = l[2 * i]! | (l[2 * i + 1]! << 8);
  return k;
}

const SHIFTS = [1, 2, 3, 5] as const;

/** Decrypts one 8-byte block of `data` at `at` in place. */
export function rc2DecryptBlock(k: Uint16Array, data: Uint8Array, at: number): void {
  const r = [0, 0, 0, 0];
  for (let i = 0; i < 4; i++) r[i] = data[at + 2 * i]! | (data[at + 2 * i + 1]! << 8);
  let j = 63;
  const mix = (): void => {
    for (let i = 3; i >= 0; i--) {
      const s = SHIFTS[i]!;
      const v = r[i]!;
      const rotated = ((v >>> s) | (v << (16 - s))) & 0xffff;
      const a = r[(i + 3) & 3]!;
      const b = r[(i + 2) & 3]!;
      const c = r[(i + 1) & 3]!;
      r[i] = (rotated - k[j--]! - (a & b) - (~a & c)) & 0xffff;
    }
  };
  const mash = (): void => {
    for (let i = 3; i >= 0; i--) r[i] = (r[i]! - k[r[(i + 3) & 3]! & 63]!) & 0xffff;
  };
  for (let n = 0; n < 5; n++) mix();
  mash();
  for (let n = 0; n < 6; n++) mix();
  mash();
  for (let n = 0; n < 5; n++) mix();
  for (let i = 0; i < 4; i++) {
    data[at + 2 * i] = r[i]! & 255;
    data[at + 2 * i + 1] = r[i]! >> 8;
  }
}

/** RC2-CBC decryption of `data` with PKCS#7 padding; throws when the padding is wrong. */
export function rc2CbcDecrypt(
  key: Uint8Array,
  effectiveBits: number,
  iv: Uint8Array,
  data: Uint8Array,
): Buffer {
  if (data.length === 0 || data.length % 8 !== 0)
    throw new Error("RC2 data is not a whole number of blocks");
  const k = rc2Subkeys(key, effectiveBits);
  const out = Buffer.from(data);
  for (let at = out.length - 8; at >= 0; at -= 8) {
    rc2DecryptBlock(k, out, at);
    const prev = at === 0 ? iv : data.subarray(at - 8, at);
    for (let i = 0; i < 8; i++) out[at + i]! ^= prev[i]!;
  }
  const pad = out[out.length - 1]!;
  if (pad < 1 || pad > 8 || out.subarray(out.length - pad).some((b) => b !== pad))
    throw new Error("bad decrypt");
  return out.subarray(0, out.length - pad);
}
