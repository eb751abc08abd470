/**
 * Temporary files for received attachment parts too large to hold in memory: one private
 * directory per message (mkdtemp under os.tmpdir(), files mode 0600), given to the user as Blobs
 * (`fs.openAsBlob`), removed when the message's lifetime ends or its Blobs are garbage-collected
 * (see docs/attachments.md).
 */
import { rmSync, openAsBlob } from "node:fs";
import { mkdtemp, open, rm, type FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServiceDesc } from "../descriptors/operations.js";

/** Parts of at least this many bytes are spooled to a file unless an option says otherwise. */
export const DEFAULT_SPOOL_BYTES = 1024 * 1024;

/**
 * Whether a service's binaries may be given as Blobs: where its WSDL asks for MTOM on a port, or
 * declares SOAP with Attachments parts. The generated types say so in the same places (base64Binary
 * element fields and attachment parts are `Uint8Array | Blob`); elsewhere they stay in memory.
 */
export function spoolsBinaries(service: ServiceDesc): boolean {
  return Object.values(service.ports).some(
    (p) =>
      p.mtom === true ||
      Object.values(p.operations).some(
        (o) => "attachments" in o && (o.attachments || o.responseAttachments),
      ),
  );
}

/** Spools not yet released, removed at process exit whatever else happened. */
const live = new Set<Spool>();
let exitHooked = false;

/** The spool of each Blob a spool gave (and of their slices), for `releaseAttachments`. */
const ofBlob = new WeakMap<Blob, Spool>();

/**
 * One spooled file and how many of the objects that read it lazily are still reachable: the Blob
 * handed out, its slices (each a Blob of the same file, read when it is read) and streams not yet
 * begun. When the last is collected, the file is removed; a read already begun holds the file open.
 */
interface SpooledFile {
  readonly spool: Spool;
  readonly path: string;
  holders: number;
}

const collected = new FinalizationRegistry<SpooledFile>((file) => {
  if (--file.holders === 0) void file.spool.drop(file.path);
});

function hold<T extends object>(holder: T, file: SpooledFile): T {
  file.holders++;
  collected.register(holder, file);
  return holder;
}

/**
 * The Blob given for a spooled file: a Blob of the file (read lazily, as fs.openAsBlob's), whose
 * slices and streams keep the file as it does. A Blob made from it otherwise (`new Blob([b])`, a
 * structured clone, a transfer to a worker) reads the same file without keeping it.
 */
class SpooledBlob extends Blob {
  readonly #file: SpooledFile;

  constructor(of: Blob, file: SpooledFile) {
    super([of], { type: of.type });
    this.#file = file;
    hold(this, file);
    ofBlob.set(this, file.spool);
  }

  override slice(start?: number, end?: number, contentType?: string): Blob {
    return new SpooledBlob(super.slice(start, end, contentType), this.#file);
  }

  // Node's Blob stream opens the file at its first read, which may come after this Blob is gone.
  override stream(): ReturnType<Blob["stream"]> {
    return hold(super.stream(), this.#file);
  }
}

/** One message's temporary files: created on first use, removed together by `release`. */
export class Spool {
  #dir: Promise<string> | undefined;
  /** The directory once made (for the synchronous removal at exit). */
  #path: string | undefined;
  #count = 0;
  #released = false;
  /** Files whose Blobs may still be read; `#settled` once no more are made. */
  #held = 0;
  #settled = false;

  /** A new file for one part, opened for writing (mode 0600). */
  async file(): Promise<{ path: string; handle: FileHandle }> {
    if (this.#released) throw new Error("the attachment spool was released");
    if (!exitHooked) {
      exitHooked = true;
      process.once("exit", () => {
        for (const s of live) s.releaseSync();
      });
    }
    live.add(this);
    this.#dir ??= mkdtemp(join(tmpdir(), "wsdl-tsgen-")).then((d) => (this.#path = d));
    const path = join(await this.#dir, `part-${++this.#count}`);
    return { path, handle: await open(path, "wx", 0o600) };
  }

  /**
   * The Blob of a spooled file, tied to this spool (see releaseAttachments); its file is removed
   * once it, its slices and its streams are garbage-collected.
   */
  async blob(path: string, type: string): Promise<Blob> {
    this.#held++;
    return new SpooledBlob(await openAsBlob(path, { type }), { spool: this, path, holders: 0 });
  }

  /**
   * Says that this spool makes no more files (its message was read and its result given): once the
   * Blobs of all its files are collected, the spool is released.
   */
  settle(): void {
    this.#settled = true;
    if (this.#held === 0) void this.release();
  }

  /** Removes a file none of whose Blobs is reachable any more (a failure is left to `release`). */
  async drop(path: string): Promise<void> {
    if (this.#released) return;
    await rm(path, { force: true }).catch(() => undefined);
    if (--this.#held === 0 && this.#settled) await this.release();
  }

  /** Whether a file was ever made. */
  get used(): boolean {
    return this.#dir !== undefined;
  }

  /**
   * Removes the directory and its files; a second call does nothing. When removing fails, the spool
   * stays among the live ones: the exit hook tries again.
   */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    // A directory never made (mkdtemp failed) leaves nothing to remove.
    const path = await this.#dir?.catch(() => undefined);
    if (path !== undefined) {
      const removed = await rm(path, { recursive: true, force: true }).then(
        () => true,
        () => false,
      );
      if (!removed) return;
    }
    live.delete(this);
  }

  /** `release`, synchronously (process exit). */
  releaseSync(): void {
    this.#released = true;
    live.delete(this);
    if (this.#path !== undefined) rmSync(this.#path, { recursive: true, force: true });
  }
}

/**
 * Releases the temporary files behind the Blobs found in `value` (a call's result, or any value
 * holding its attachments): after this the Blobs can no longer be read. Returns how many spools
 * were released.
 */
export async function releaseAttachments(value: unknown): Promise<number> {
  const spools = spoolsIn(value);
  await Promise.all([...spools].map((s) => s.release()));
  return spools.size;
}

/** Whether `value` holds a Blob of `spool`'s. */
export const holds = (value: unknown, spool: Spool): boolean => spoolsIn(value).has(spool);

function spoolsIn(value: unknown): Set<Spool> {
  const spools = new Set<Spool>();
  collect(value, spools, new Set(), 0);
  return spools;
}

function collect(v: unknown, into: Set<Spool>, seen: Set<object>, depth: number): void {
  if (v === null || typeof v !== "object" || depth > 64 || seen.has(v)) return;
  seen.add(v);
  if (v instanceof Blob) {
    const s = ofBlob.get(v);
    if (s) into.add(s);
    return;
  }
  if (ArrayBuffer.isView(v)) return;
  for (const x of Array.isArray(v) ? v : Object.values(v)) collect(x, into, seen, depth + 1);
}
