/** Test binaries: bytes no text encoding survives unchanged, every byte value, CRLFs and dashes among them. */
export function binary(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}
