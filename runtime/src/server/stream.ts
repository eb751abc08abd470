/**
 * Streamed results (issue #47): an implementation may return an iterable (sync or async) for a
 * result that is, or wraps, one repeated element. The answer is then written as the items come:
 * the document's head, each item with the writer and strictness of the whole result, the tail,
 * chunked, with backpressure from the socket (docs/serving.md).
 */
import type { ServerResponse } from "node:http";
import type { BodyDesc } from "../descriptors/types.js";
import { streamShape, type StreamShape } from "../descriptors/stream-shape.js";
import { startTag, xsiTypeAttr } from "../xml/write-scalars.js";
import { writeOccurrence } from "../xml/writer.js";
import { withXsiTypes } from "../xml/xsi-types.js";
import { ValueFormatError } from "../scalars/scalars.js";
import type { Logger } from "./call.js";

/** An iterable result, and the shape it is streamed in: none when it must be written whole. */
export interface Streamed {
  readonly items: Iterable<unknown> | AsyncIterable<unknown>;
  readonly shape: StreamShape | undefined;
}

/**
 * A result `v` that is an iterable (not an array), with the shape its body is streamed in;
 * undefined for any other result, which is written whole (an array costs one check). An iterable
 * whose body cannot be streamed (an HTTP document that is not an array, say) is collected and
 * written whole.
 */
export function streamedResult(v: unknown, body: BodyDesc | undefined): Streamed | undefined {
  return isStreamed(v) ? { items: v, shape: streamShape(body) } : undefined;
}

/** An iterable an implementation returned in place of an array (a string is no result's). */
function isStreamed(v: unknown): v is Iterable<unknown> | AsyncIterable<unknown> {
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    (Symbol.asyncIterator in v || Symbol.iterator in v)
  );
}

type Items = Iterator<unknown> | AsyncIterator<unknown>;

/** A streamed result, its first item pulled (or found to be empty). */
interface Opened {
  readonly items: Items;
  readonly first: IteratorResult<unknown>;
}

/**
 * Starts the iteration and pulls the first item. What this throws is the implementation's error,
 * before anything was written: it is answered as a thrown error is.
 */
async function openItems(result: Iterable<unknown> | AsyncIterable<unknown>): Promise<Opened> {
  const items =
    Symbol.asyncIterator in result
      ? result[Symbol.asyncIterator]()
      : (result as Iterable<unknown>)[Symbol.iterator]();
  return { items, first: await items.next() };
}

/**
 * All the items, into the array a whole result holds: for answers that must be written whole
 * (signed, MTOM) and for an empty result. Errors are the implementation's.
 */
async function collectItems({ items, first }: Opened): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let r = first; r.done !== true; r = await items.next()) out.push(r.value);
  return out;
}

const GONE = Symbol("gone");

/**
 * Answers a streamed result: written as its items come, or, when it is empty or `whole` (the answer
 * must be written whole: signed, MTOM), collected into the array it stands for, which is returned
 * for the caller to write. Undefined once answered, an error before any byte went out by
 * `t.failEarly`.
 */
export async function answerStreamed(
  t: StreamTarget,
  { items, shape }: Streamed,
  whole: boolean,
): Promise<{ whole: unknown[] } | undefined> {
  try {
    const opened = await openItems(items);
    if (whole || !shape || opened.first.done === true) return { whole: await collectItems(opened) };
    await writeStreamed(t, shape, opened);
  } catch (e) {
    t.failEarly(e);
  }
  return undefined;
}

/** Bytes gathered before a write: a 10 000-item answer is not 10 000 writes. */
const CHUNK = 16 * 1024;

/** What a streamed answer is written with. */
export interface StreamTarget {
  readonly res: ServerResponse;
  readonly contentType: string;
  /** Before the body element (the SOAP envelope's head), and after it. */
  readonly before: string;
  readonly after: string;
  /** Namespace declarations on the body element's start tag (an HTTP document's root). */
  readonly rootExtra: string;
  readonly xsiTypeAlways: boolean;
  readonly log: Logger;
  /** Names the operation in the log. */
  readonly what: string;
  /**
   * Answers an error met before any byte went out (the first chunk not yet written), as a thrown
   * one is answered.
   */
  readonly failEarly: (e: unknown) => void;
}

/**
 * The bytes gathered for the next write. The loop writes them once they reach CHUNK; when it waits
 * instead (a cursor fetching its next rows, a drain), an immediate writes what is ready, so that
 * the head and the items already read do not sit unsent: one immediate per chunk, not per item,
 * since items read without waiting run in one go before it fires.
 */
class Gathered {
  buf = "";
  /** Set once the answer is ended or abandoned: nothing more is written. */
  over = false;
  private armed = false;
  constructor(private readonly t: StreamTarget) {}

  add(s: string): void {
    this.buf += s;
    if (this.armed) return;
    this.armed = true;
    setImmediate(this.flushWaiting);
  }

  private readonly flushWaiting = (): void => {
    this.armed = false;
    if (!this.over && this.buf !== "" && !this.t.res.destroyed) this.write();
  };

  /** Writes what is gathered (the status line and headers first); false when the socket is full. */
  write(): boolean {
    const { t } = this;
    if (!t.res.headersSent) writeHead(t);
    const s = this.buf;
    this.buf = "";
    return t.res.write(s);
  }
}

/**
 * Writes a streamed answer: an error once bytes have gone out destroys the connection, as ASMX
 * does, rather than sending a second envelope. A client that goes away stops the pulling, and the
 * iterator's `return()` closes its cursor.
 */
async function writeStreamed(t: StreamTarget, shape: StreamShape, o: Opened): Promise<void> {
  const { res } = t;
  const { root, inner, item, itemParentNs } = shape;
  let closed = false;
  // Settles the pending next()'s wait when the client goes away: a slow cursor is not waited for.
  // One slot, overwritten per wait: a Promise.race against one long-lived "gone" promise would
  // keep a reaction, and the item it settled with, for every item until the end.
  let wake: ((v: typeof GONE) => void) | undefined;
  const onClose = () => {
    closed = true;
    wake?.(GONE);
  };
  const untilGone = <T>(p: Promise<T>) =>
    new Promise<T | typeof GONE>((resolve, reject) => {
      wake = resolve;
      p.then(resolve, reject);
    });
  res.once("close", onClose);
  // Gone while the first item was pulled: no "close" will come, so nothing would stop the pulling.
  if (res.destroyed) closed = true;
  const out = new Gathered(t);
  out.add(
    t.before +
      startTag(root.name, root.ns, "", t.rootExtra + xsiTypeAttr(root)) +
      ">" +
      (inner ? startTag(inner.name, inner.ns, root.ns, xsiTypeAttr(inner)) + ">" : ""),
  );
  const tail = (inner ? `</${inner.name}>` : "") + `</${root.name}>` + t.after;
  let count = 0;
  let r = o.first;
  let finished = false;
  try {
    while (r.done !== true && !closed) {
      if (++count > item.max)
        throw new ValueFormatError(`more than ${item.max} ${item.prop} items`);
      const v = r.value === undefined && inner ? null : r.value;
      const path = `${item.prop}[${count - 1}]`;
      out.add(withXsiTypes(t.xsiTypeAlways, () => writeOccurrence(item, itemParentNs, v, path)));
      if (out.buf.length >= CHUNK) out.write();
      // Also after the flush of a wait (Gathered), whose full socket the loop did not see.
      if (res.writableNeedDrain) await drained(res);
      if (closed) return;
      const next = o.items.next();
      const got = next instanceof Promise ? await untilGone(next) : next;
      if (got === GONE || closed) return;
      r = got;
    }
    if (closed) return;
    finished = true;
    if (count < item.min) throw new ValueFormatError(`fewer than ${item.min} ${item.prop} items`);
    out.add(tail);
    out.over = true;
    // All of it gathered before any write (a short or quick result): sent with its length, as a
    // whole answer (and ASMX) is, not chunked.
    if (!res.headersSent) writeHead(t, Buffer.byteLength(out.buf));
    res.end(out.buf);
  } catch (e) {
    out.over = true;
    if (!res.headersSent) return t.failEarly(e);
    t.log(`wsdl-tsgen: ${t.what} failed while its result was streamed: connection closed`, e);
    res.destroy();
  } finally {
    out.over = true;
    res.off("close", onClose);
    // Not awaited: an async generator's return() waits for its pending next().
    if (!finished) void closeItems(o.items, t);
  }
}

function writeHead(t: StreamTarget, length?: number): void {
  t.res.writeHead(200, {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Type": t.contentType,
    ...(length === undefined ? {} : { "Content-Length": length }),
  });
}

/**
 * The socket has taken what was written, or the connection closed (a response emits 'close', not
 * 'error', when its client goes away, so waiting for 'drain' alone would never end).
 */
export function drained(res: ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** Ends an iteration left unfinished, so that what it holds (a cursor) is released. */
async function closeItems(items: Items, t: StreamTarget): Promise<void> {
  try {
    await items.return?.();
  } catch (e) {
    t.log(`wsdl-tsgen: ${t.what}: closing its streamed result failed`, e);
  }
}
