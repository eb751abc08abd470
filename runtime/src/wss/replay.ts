/**
 * The messages seen, by a hash of what each signed (its canonical SignedInfo, not its signature
 * value, of which ECDSA has two valid forms), each until it expires: one seen again within that
 * window is a replay. Bounded: past its size, expired entries go first, then the oldest.
 */
import { createHash } from "node:crypto";

export class ReplayCache {
  private readonly seen = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Records `value` until `until` (ms); false when it was already recorded and not expired. */
  add(value: Uint8Array, until: number, now: number): boolean {
    const key = createHash("sha256").update(value).digest("base64");
    const known = this.seen.get(key);
    if (known !== undefined && known >= now) return false;
    this.seen.delete(key);
    this.seen.set(key, until);
    if (this.seen.size > this.max) this.evict(now);
    return true;
  }

  private evict(now: number): void {
    for (const [k, until] of this.seen) if (until < now) this.seen.delete(k);
    while (this.seen.size > this.max) this.seen.delete(this.seen.keys().next().value!);
  }
}
