/** A reference's digest: the base64 hash of its canonical form's UTF-8 bytes. */
import { createHash } from "node:crypto";
import type { DigestName } from "./algorithms.js";

export function digestOf(digest: DigestName, canonical: string): string {
  return createHash(digest).update(canonical, "utf8").digest("base64");
}
