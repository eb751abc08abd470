/**
 * Test binaries: bytes no text encoding survives unchanged, every byte value, CRLFs and dashes
 * among them.
 */
export function binary(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** The bytes of a binary value as received: a Uint8Array, or a Blob of a spooled part, read. */
export async function bytesOf(v: Uint8Array | Blob): Promise<Buffer> {
  return v instanceof Blob ? Buffer.from(await v.arrayBuffer()) : Buffer.from(v);
}
