/**
 * MD4 (RFC 1320), which NTLM's NT hash is made of: Node's OpenSSL 3 has it only in the legacy
 * provider, most often not loaded, so it is written here. Used for nothing else.
 */

const rotl = (x: number, n: number): number => (x << n) | (x >>> (32 - n));

/** The MD4 digest of `input`. */
export function md4(input: Uint8Array): Buffer {
  // Padding: a 1 bit, zeros to 56 mod 64, then the length in bits as 64-bit little-endian.
  const length = input.length;
  const padded = Buffer.alloc((((length + 8) >>> 6) + 1) * 64);
  padded.set(input);
  padded[length] = 0x80;
  const bits = length * 8;
  padded.writeUInt32LE(bits >>> 0, padded.length - 8);
  padded.writeUInt32LE(Math.floor(bits / 0x100000000), padded.length - 4);
  const h = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
  const x = new Array<number>(16);
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) x[i] = padded.readInt32LE(off + i * 4);
    block(h, x);
  }
  const out = Buffer.alloc(16);
  h.forEach((v, i) => out.writeInt32LE(v | 0, i * 4));
  return out;
}

/** The three rounds of one 64-byte block, added into `h`. */
function block(h: number[], x: readonly number[]): void {
  let [a, b, c, d] = h as [number, number, number, number];
  const f = (p: number, q: number, r: number) => (p & q) | (~p & r);
  const g = (p: number, q: number, r: number) => (p & q) | (p & r) | (q & r);
  const hh = (p: number, q: number, r: number) => p ^ q ^ r;
  const rounds: readonly [typeof f, number, readonly number[], readonly number[]][] = [
    [f, 0, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], [3, 7, 11, 19]],
    [g, 0x5a827999, [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15], [3, 5, 9, 13]],
    [hh, 0x6ed9eba1, [0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15], [3, 9, 11, 15]],
  ];
  for (const [fn, k, order, shifts] of rounds) {
    for (let i = 0; i < 16; i++) {
      const t = rotl((a + fn(b, c, d) + x[order[i]!]! + k) | 0, shifts[i % 4]!);
      [a, b, c, d] = [d, t, b, c];
    }
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
}
