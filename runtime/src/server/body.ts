/**
 * How the server reads a request body: within a size and a time limit, with `100 Continue` sent
 * only when the body is wanted, and as text in its declared charset.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isUtf8 } from "node:buffer";
import { isUtf8Charset } from "../http/content-type.js";
import { HttpProblem } from "./respond.js";

/** Bodies declared at least this large are read into one buffer of their size (see readBody). */
const PREALLOCATE_FROM = 1024 * 1024;

/** Requests whose `100 Continue` is ours to send, when their body is wanted. */
export const awaitingContinue = new WeakSet<IncomingMessage>();

/** A body over `maxBytes` bytes, refused (also before it is sent: listen.ts). */
export const tooLarge = (maxBytes: number): HttpProblem =>
  new HttpProblem(413, `The request body is larger than ${maxBytes} bytes.`, {
    Connection: "close",
  });

/** The body length a request declares (0 when it declares none). */
export const declaredLength = (req: IncomingMessage): number =>
  Number(req.headers["content-length"] ?? "0");

/** The longest delay setTimeout takes. */
const MAX_DELAY = 2 ** 31 - 1;

/** A body being read, and what ends it when its time is up. */
interface Pending {
  /** When its time is up, in `performance.now()` milliseconds. */
  at: number;
  readonly expire: () => void;
}

/**
 * The body reads under way with one time limit, and one timer for the oldest of them: with one
 * limit, the order they began in is the order their time runs out in. A timer set and cleared per
 * request cost about as much as the rest of reading a small body; this is a Set entry added and
 * deleted. The timer holds the process only while a read is under way.
 */
class Deadlines {
  private readonly pending = new Set<Pending>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  constructor(private readonly ms: number) {}

  add(expire: () => void): Pending {
    const p: Pending = { at: performance.now() + this.ms, expire };
    this.pending.add(p);
    if (this.timer === undefined) this.arm(this.ms);
    else if (this.pending.size === 1) this.timer.ref();
    return p;
  }

  delete(p: Pending): void {
    this.pending.delete(p);
    if (this.pending.size === 0) this.timer?.unref();
  }

  private arm(ms: number): void {
    // Node fires a delay past 2^31 - 1 ms at once: capped, the timer wakes and re-arms instead.
    this.timer = setTimeout(this.fire, Math.min(MAX_DELAY, Math.max(1, Math.ceil(ms))));
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const now = performance.now();
    for (const p of this.pending) {
      if (p.at > now) return this.arm(p.at - now);
      this.pending.delete(p);
      p.expire();
    }
  };
}

const deadlines = new Map<number, Deadlines>();
function deadlinesOf(ms: number): Deadlines {
  let d = deadlines.get(ms);
  if (d === undefined) deadlines.set(ms, (d = new Deadlines(ms)));
  return d;
}

export function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes: number,
  timeoutMs: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = declaredLength(req);
    const continues = awaitingContinue.delete(req);
    if (declared > maxBytes) {
      reject(tooLarge(maxBytes));
      // A client waiting for 100 Continue sends nothing more: there is nothing to drain.
      if (!continues) req.resume();
      return;
    }
    if (continues) res.writeContinue();
    const chunks: Buffer[] = [];
    // A large declared body is copied into one buffer as it arrives, not joined at its end (which
    // held it twice): the parser refuses more bytes than the Content-Length declares.
    const whole = declared >= PREALLOCATE_FROM ? Buffer.allocUnsafe(declared) : undefined;
    let size = 0;
    let done = false;
    const limits = deadlinesOf(timeoutMs);
    const finish = (err: Error | undefined, body?: Buffer) => {
      if (done) return;
      done = true;
      limits.delete(deadline);
      if (err) reject(err);
      else resolve(body!);
    };
    const deadline = limits.add(() => {
      finish(
        new HttpProblem(408, "The request body did not arrive in time.", { Connection: "close" }),
      );
      req.resume();
    });
    req.on("data", (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > maxBytes) {
        finish(tooLarge(maxBytes));
        req.resume();
        return;
      }
      if (whole === undefined) return void chunks.push(c);
      if (size <= whole.length) return void c.copy(whole, size - c.length);
      finish(new HttpProblem(400, "The request body is longer than its Content-Length."));
      req.resume();
    });
    // A body that came in one chunk (most do) is that chunk, not a copy of it.
    req.on("end", () =>
      finish(
        undefined,
        whole !== undefined
          ? whole.subarray(0, size)
          : chunks.length === 1
            ? chunks[0]
            : Buffer.concat(chunks),
      ),
    );
    // A client that goes away or breaks its chunked encoding mid-body: its problem, not ours.
    req.on("error", () =>
      finish(new HttpProblem(400, "The request body was cut short.", { Connection: "close" })),
    );
  });
}

/**
 * A request body as it arrives, chunk by chunk, within the same limits as readBody: a body over
 * `maxBytes` is a 413, one that stops arriving for `timeoutMs` a 408, one cut short a 400. When the
 * reader stops early (it failed, say), the rest is drained so that an answer can still be sent.
 */
export async function* bodyChunks(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes: number,
  timeoutMs: number,
): AsyncGenerator<Buffer> {
  const continues = awaitingContinue.delete(req);
  if (declaredLength(req) > maxBytes) {
    if (!continues) req.resume();
    throw tooLarge(maxBytes);
  }
  if (continues) res.writeContinue();
  const it = req.iterator({ destroyOnReturn: false })[Symbol.asyncIterator]();
  const late = new HttpProblem(408, "The request body did not arrive in time.", {
    Connection: "close",
  });
  // The pending read, failed by the timer. Not a race against one long-lived promise: each read's
  // reaction to it would keep that read's chunk alive until the body ends.
  let wake: ((e: unknown) => void) | undefined;
  let timedOut = false;
  const timer = setTimeout(() => ((timedOut = true), wake?.(late)), timeoutMs);
  let size = 0;
  let ended = false;
  try {
    for (;;) {
      if (timedOut) throw late;
      let r: IteratorResult<Buffer>;
      try {
        r = await new Promise<IteratorResult<Buffer>>((resolve, reject) => {
          wake = reject;
          it.next().then(resolve, reject);
        });
      } catch (e) {
        if (e instanceof HttpProblem) throw e;
        throw new HttpProblem(400, "The request body was cut short.", { Connection: "close" });
      } finally {
        wake = undefined;
      }
      if (r.done) return void (ended = true);
      size += r.value.length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      yield r.value;
    }
  } finally {
    clearTimeout(timer);
    if (!ended) req.resume();
  }
}

const decoders = new Map<string, InstanceType<typeof TextDecoder>>();

/**
 * An XML request body for the decoder: UTF-8 bytes as they are (checked), another charset as text.
 */
export function xmlBody(body: Buffer, charset: string | undefined): string | Uint8Array {
  if (!isUtf8Charset(charset)) return decodeText(body, charset);
  if (looksUtf16(body))
    throw new HttpProblem(
      400,
      "The request body looks like UTF-16 but is declared or taken as UTF-8; send UTF-8, or declare charset=utf-16.",
    );
  if (!isUtf8(body))
    throw new HttpProblem(400, "The request body is not valid text in its declared charset.");
  return body;
}

/** A UTF-16 byte order mark, or a NUL byte among the first two (XML starts with '<' or a BOM). */
function looksUtf16(body: Buffer): boolean {
  const [a, b] = body;
  return (a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff) || a === 0 || b === 0;
}

export function decodeText(body: Buffer, charset: string | undefined): string {
  try {
    const label = (charset || "utf-8").toLowerCase();
    let decoder = decoders.get(label);
    if (!decoder) {
      decoder = new TextDecoder(label, { fatal: true });
      // Bounded: charset labels come from requests.
      if (decoders.size < 64) decoders.set(label, decoder);
    }
    return decoder.decode(body);
  } catch (e) {
    if (e instanceof RangeError)
      throw new HttpProblem(415, `The charset '${charset}' is not supported.`);
    throw new HttpProblem(400, "The request body is not valid text in its declared charset.");
  }
}
