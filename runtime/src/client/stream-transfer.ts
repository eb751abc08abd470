/**
 * One streamed call's connection (client/stream.ts): the request sent, the body read chunk by
 * chunk through the result's item frames, the items each chunk completes handed over, and the
 * response's answer (a fault, an HTTP error, a malformed body) read once the body has ended.
 */
import type { StreamShape } from "../descriptors/stream-shape.js";
import { ResponseFormatError, StreamedResultError } from "../errors.js";
import { isUtf8Charset, parseContentType } from "../http/content-type.js";
import { isMultipartRelated } from "../mime/xop.js";
import { keepShapes } from "../support/kept.js";
import { DEFAULT_DECODE_LIMITS, XmlDecodeError, type CustomFrame } from "../xml/decode-options.js";
import { ChunkDecoder } from "../xml/reader.js";
import type { Caller } from "./caller.js";
import type { CallOptions } from "./options.js";
import { BlankSoFar, Received } from "./received.js";
import { itemFrames, type ItemFrames } from "./stream-frames.js";

/** The client's default for `maxItemBytes`. */
const DEFAULT_MAX_ITEM_BYTES = 16 * 1024 * 1024;

/** What reads a response, and the typed result it gives once read. */
export interface ResponseReader {
  readonly root: CustomFrame;
  /** The typed result, or its promise (a security's `checkFault` may answer later). */
  answer(res: Received): unknown;
}

/** A streamed call, by protocol: its request, its result's shape, and its response's readers. */
export interface Plan {
  readonly url: string;
  readonly init: RequestInit;
  readonly shape: StreamShape | undefined;
  /** The body's `prop`, when the result is a field of the result element. */
  readonly prop: string | undefined;
  /** Reads the response whole, or, with `frames`, its result element through them. */
  reader(frames?: ItemFrames): ResponseReader;
}

/** A response whose body is read item by item: a UTF-8 XML body of a successful call. */
export function streamable(res: Response): boolean {
  const media = parseContentType(res.headers.get("content-type") ?? "");
  return (
    res.ok &&
    res.body !== null &&
    !isMultipartRelated(media) &&
    isUtf8Charset(media.params["charset"])
  );
}

/** What a streamable response is read with. */
interface Decoding {
  readonly res: Response;
  readonly frames: ItemFrames;
  readonly reader: ResponseReader;
  readonly strict: boolean;
  readonly d: ChunkDecoder;
}

/** One streamed call's connection: its abort, its idle time-out, and the items read. */
export class Transfer {
  private readonly abort = new AbortController();
  private readonly signal: AbortSignal;
  private readonly timeoutMs: number;
  private readonly maxItemBytes: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the wait under way (for the response's head, or a chunk) began; -1: none is. */
  private waitingSince = -1;
  private body: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** Items read so far (each yielded before the next chunk is read). */
  private count = 0;
  /** The items the last chunks completed (the same array each time, emptied first). */
  private readonly got: unknown[] = [];
  /** Bytes read since the last chunk that completed an item. */
  private since = 0;
  private readonly blank = new BlankSoFar();
  private failure: { error: unknown } | undefined;
  /** The body has been read to its end, or has failed to decode. */
  private ended = false;
  private decoding: Decoding | undefined;
  /** The body has been read to its end (its `read()` said done): nothing to close. */
  finished = false;
  /** The response's answer has been read (a failure thrown): `next()` gives nothing more. */
  private answered = false;

  constructor(
    private readonly caller: Caller,
    private readonly plan: Plan,
    private readonly callOptions: CallOptions,
  ) {
    const given = callOptions.signal;
    this.signal = given ? AbortSignal.any([this.abort.signal, given]) : this.abort.signal;
    this.timeoutMs = callOptions.timeoutMs ?? caller.options.timeoutMs ?? 60_000;
    this.maxItemBytes = caller.options.maxItemBytes ?? DEFAULT_MAX_ITEM_BYTES;
  }

  /** Sends the request; the response once its head has come. */
  open(): Promise<Response> {
    const { caller, plan } = this;
    return this.timed(() =>
      caller.open(plan.url, plan.init, this.callOptions, this.signal, this.timeoutMs),
    );
  }

  /** Reads a response whole, as a call would (within maxResponseBytes). */
  async whole(res: Response, root: CustomFrame): Promise<Received> {
    try {
      return await this.timed(() => this.caller.receiveWhole(res, root));
    } catch (e) {
      throw this.caller.failure(e, this.plan.init, this.plan.url, this.timeoutMs);
    }
  }

  /**
   * Starts reading a streamable response: `next()` then gives the items each chunk completes, and
   * what the whole call would keep beside them goes on `result` (see itemFrames).
   */
  reading(res: Response, result: object): void {
    const options = this.caller.decodeOptions();
    const refuse = options.undescribed === "refuse";
    const frames = itemFrames(this.plan.shape!, this.plan.prop, this.got, result, refuse);
    const reader = this.plan.reader(frames);
    // No count of elements (a result of many items would reach it); maxItemBytes bounds the bytes
    // between items instead, and maxDepth still applies.
    const limits = { ...(options.limits ?? DEFAULT_DECODE_LIMITS), maxElements: Infinity };
    this.decoding = {
      res,
      frames,
      reader,
      strict: options.strict ?? true,
      d: new ChunkDecoder(reader.root, { ...options, limits }, 0),
    };
    this.body = res.body!.getReader();
  }

  /**
   * The items the next chunks complete (at least one), undefined once the response has been read
   * and found whole. What fails once items have been yielded is a StreamedResultError with their
   * count.
   */
  async next(): Promise<unknown[] | undefined> {
    try {
      return await this.nextItems();
    } catch (e) {
      this.decoding?.d.release();
      throw this.count > 0 ? new StreamedResultError(this.count, e) : e;
    }
  }

  private async nextItems(): Promise<unknown[] | undefined> {
    const { d, res, reader, frames, strict } = this.decoding!;
    const got = this.got;
    got.length = 0;
    while (this.failure === undefined && !this.ended) {
      const chunk = await this.read();
      if (chunk === undefined) break;
      this.blank.add(chunk);
      try {
        d.write(chunk);
      } catch (error) {
        this.failure = { error };
        break;
      }
      this.since = got.length > 0 ? 0 : this.since + chunk.length;
      if (this.since > this.maxItemBytes) throw this.itemTooLarge();
      if (got.length > 0) return this.counted(got);
    }
    if (!this.ended) {
      this.ended = true;
      if (!this.failure && !this.blank.blank) {
        try {
          d.end();
        } catch (error) {
          this.failure = { error };
        }
      }
      d.release();
      // The items read before the end (or a failure) first; how it ended at the next call.
      if (got.length > 0) return this.counted(got);
    }
    if (this.answered) return undefined;
    this.answered = true;
    const type = res.headers.get("content-type") ?? "";
    const decoded = { root: reader.root, failure: this.failure, blank: this.blank.blank };
    // Awaited: a fault found by an asynchronous check must not end the stream as if it were done.
    await reader.answer(new Received(res.status, type, () => d.received(), res.headers, decoded));
    try {
      frames.check(strict);
    } catch (e) {
      // As the whole call says a result that lacks required items.
      if (!(e instanceof XmlDecodeError)) throw e;
      throw new ResponseFormatError(`the result is not valid: ${e.message}`, res.status, "", e);
    }
    return undefined;
  }

  /** The items a chunk completed, counted. */
  private counted(got: unknown[]): unknown[] {
    // From the first item on, nothing read is kept (before it, a fault's text is).
    if (this.count === 0) this.decoding!.d.forget();
    this.count += got.length;
    return got;
  }

  /** The next chunk of the body, undefined at its end; failures are TransportErrors. */
  private async read(): Promise<Uint8Array | undefined> {
    this.waitingSince = performance.now();
    this.timer ??= setTimeout(this.onTimer, this.timeoutMs);
    try {
      const r = await this.body!.read();
      // Only a body read to its end leaves nothing to close: a decode failure stops before it.
      if (r.done) this.finished = true;
      return r.done ? undefined : r.value;
    } catch (e) {
      throw this.caller.failure(e, this.plan.init, this.plan.url, this.timeoutMs);
    } finally {
      this.waitingSince = -1;
    }
  }

  private itemTooLarge(): Error {
    return new Error(
      `more than ${this.maxItemBytes} bytes of the streamed result came without an item ` +
        "completing (the client's maxItemBytes)",
    );
  }

  /** Runs `f`, aborting the connection if it takes longer than the time-out. */
  private async timed<T>(f: () => Promise<T>): Promise<T> {
    this.waitingSince = performance.now();
    this.timer ??= setTimeout(this.onTimer, this.timeoutMs);
    try {
      return await f();
    } finally {
      this.waitingSince = -1;
    }
  }

  /**
   * The time-out's timer: one for the whole transfer, not one per chunk (arming and clearing a
   * timer for each read cost a few percent of a streamed call). When it fires, it aborts if the
   * wait under way has lasted the time-out, else waits again for what remains of it; with no wait
   * under way it lapses, and the next wait arms it.
   */
  private readonly onTimer = (): void => {
    this.timer = undefined;
    if (this.waitingSince < 0) return;
    const waited = performance.now() - this.waitingSince;
    if (waited >= this.timeoutMs)
      this.abort.abort(new DOMException("the call timed out", "TimeoutError"));
    else this.timer = setTimeout(this.onTimer, this.timeoutMs - waited);
  };

  /** Closes the connection unless the response was read to its end (a break, an error). */
  close(): void {
    clearTimeout(this.timer);
    this.decoding?.d.release();
    if (this.finished) return;
    this.abort.abort(new DOMException("the streamed result was closed", "AbortError"));
    this.body?.cancel().catch(() => {});
  }
}
// One kept, with one item iterator (client/stream.ts): their methods' optimized code is not thrown
// away each time a garbage collection finds no streamed call under way (see support/kept.ts).
keepShapes(new Transfer({ options: {} } as Caller, undefined as never, {}));
