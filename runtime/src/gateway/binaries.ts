/**
 * Binaries in a result the gateway answers as JSON. JSON has one form for bytes, base64 (as the
 * OpenAPI document's `contentEncoding: base64` says), so a binary the client spooled to a file (a
 * Blob) is read into memory and written as a Uint8Array is. The bytes an answer carries this way
 * are bounded: past `maxBinaryBytes` (Blobs counted by their size, before any is read) the answer
 * is refused, and no Blob is read.
 */
import { releaseAttachments } from "../mime/spool.js";

/** The most binary bytes one answer carries as base64 unless an option says otherwise. */
export const DEFAULT_MAX_BINARY_BYTES = 16 * 1024 * 1024;

/** A result holding more binary bytes than the gateway answers as JSON. */
export class BinariesTooLargeError extends Error {
  constructor(
    readonly bytes: number,
    readonly max: number,
  ) {
    super(`the answer holds ${bytes} bytes of binaries; the gateway answers at most ${max}`);
    this.name = "BinariesTooLargeError";
  }
}

type Found = { blobs: Blob[]; bytes: number };

/** Plain containers only: typed values (dates, XML nodes) hold no binary to look for. */
const isPlain = (v: object): boolean => {
  const proto: unknown = Object.getPrototypeOf(v);
  return Array.isArray(v) || proto === Object.prototype || proto === null;
};

function find(v: unknown, found: Found, depth: number): void {
  if (v === null || typeof v !== "object" || depth > 64) return;
  if (v instanceof Blob) return void (found.blobs.push(v), (found.bytes += v.size));
  if (v instanceof Uint8Array) return void (found.bytes += v.byteLength);
  if (!isPlain(v)) return;
  for (const x of Array.isArray(v) ? v : Object.values(v)) find(x, found, depth + 1);
}

/** `v` with each Blob in `bytes` replaced by its bytes; containers copied only where one is. */
function replace(v: unknown, bytes: ReadonlyMap<Blob, Uint8Array>, depth: number): unknown {
  if (v === null || typeof v !== "object" || depth > 64) return v;
  if (v instanceof Blob) return bytes.get(v) ?? v;
  if (v instanceof Uint8Array || !isPlain(v)) return v;
  if (Array.isArray(v)) {
    const items = v.map((x) => replace(x, bytes, depth + 1));
    return items.some((x, i) => x !== v[i]) ? items : v;
  }
  let out: Record<string, unknown> | undefined;
  for (const [k, x] of Object.entries(v)) {
    const y = replace(x, bytes, depth + 1);
    if (y !== x) (out ??= { ...(v as Record<string, unknown>) })[k] = y;
  }
  return out ?? v;
}

/**
 * Runs `answer` on `result` with its Blobs read into memory, when its binaries (bytes and Blobs)
 * total at most `max` bytes; else a BinariesTooLargeError. Either way the Blobs' spooled files are
 * released at the end, not left for the garbage collector.
 */
export async function withBinariesRead<T>(
  result: unknown,
  max: number,
  answer: (inMemory: unknown) => T,
): Promise<T> {
  const found: Found = { blobs: [], bytes: 0 };
  find(result, found, 0);
  if (found.blobs.length === 0 && found.bytes <= max) return answer(result);
  try {
    if (found.bytes > max) throw new BinariesTooLargeError(found.bytes, max);
    const read = await Promise.all(
      found.blobs.map(async (b) => new Uint8Array(await b.arrayBuffer())),
    );
    return answer(replace(result, new Map(found.blobs.map((b, i) => [b, read[i]!])), 0));
  } finally {
    await releaseAttachments(found.blobs);
  }
}
