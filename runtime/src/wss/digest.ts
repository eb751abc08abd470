/** A reference's digest: the base64 hash of its canonical form's UTF-8 bytes. */
import { createHash, timingSafeEqual } from "node:crypto";
import type { DigestName } from "./algorithms.js";

export function digestOf(digest: DigestName, canonical: string): string {
  return createHash(digest).update(canonical, "utf8").digest("base64");
}

/**
 * Whether the base64 digests `expected` and `got` are one value, compared in time independent of
 * where they differ.
 */
export function sameDigest(expected: string, got: string): boolean {
  const a = Buffer.from(expected, "base64");
  const b = Buffer.from(got, "base64");
  return a.length === b.length && timingSafeEqual(a, b);
}
