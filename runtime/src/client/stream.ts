/**
 * Streamed results on the client (issue #47): `client.stream.op(input)` iterates the items of a
 * result that is, or wraps, one repeated element, each yielded as soon as its element has been read
 * and decoded, the bytes read not kept: memory stays that of one item and one chunk, whatever the
 * response's size (docs/generated-code.md, "Streamed results").
 */
import { streamShape } from "../descriptors/stream-shape.js";
import type { HttpOperationDesc, SoapOperationDesc } from "../descriptors/operations.js";
import { keepShapes } from "../support/kept.js";
import { documentReader } from "../xml/reader.js";
import { keepUndescribed, undescribedOf } from "../xml/undescribed.js";
import { keepingAttachments } from "./attachments.js";
import type { Caller } from "./caller.js";
import { httpAnswer, httpRequest } from "./http.js";
import type { CallOptions } from "./options.js";
import { responseReader, soapAnswer, soapRequest, soapVersion } from "./soap.js";
import { streamable, Transfer, type Plan } from "./stream-transfer.js";

async function soapPlan(
  caller: Caller,
  name: string,
  op: SoapOperationDesc,
  input: unknown,
  callOptions: CallOptions,
): Promise<Plan> {
  const version = soapVersion(caller);
  const shape = streamShape(op.response);
  return {
    url: caller.endpoint,
    init: await soapRequest(caller, name, op, input, callOptions, version),
    shape,
    prop: op.response?.prop,
    reader: (frames) => {
      const streamed = frames &&
        shape && { field: shape.root, frame: frames.root, value: frames.value };
      const r = responseReader(caller, op, streamed);
      return {
        root: r.root,
        answer: (res) => soapAnswer(caller, op, res, r, version, callOptions),
      };
    },
  };
}

function httpPlan(caller: Caller, op: HttpOperationDesc, input: unknown): Plan {
  const { url, init } = httpRequest(caller, op, input);
  const element = op.response?.element;
  return {
    url,
    init,
    shape: streamShape(op.response),
    prop: op.response?.prop,
    reader: (frames) => {
      const r =
        element && documentReader([element], frames && { frame: frames.root, value: frames.value });
      return { root: r!.root, answer: (res) => httpAnswer(caller, op, res, r, url) };
    },
  };
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });
const NO_ITEMS: unknown[] = [];

/**
 * The items of a streamed call, as an async iterator written by hand rather than an async
 * generator: the items a chunk completes are handed out from an array, each `next()` an already
 * settled promise, and the body read again only once they have all been taken. What the whole call
 * would keep beside the items (in "keep" mode) is kept on this object: `undescribedOf(it)`, once
 * the loop has ended, lists them as it lists the whole call's on its array, in the same order.
 */
class StreamedItems implements AsyncIterableIterator<unknown> {
  private items: unknown[] = NO_ITEMS;
  /** The next item of `items` to hand out. */
  private at = 0;
  private transfer: Transfer | undefined;
  /** The `next()` waiting for the body, if any: a further call waits for it. */
  private pending: Promise<IteratorResult<unknown>> | undefined;
  /** No more reading: the body was read to its end, failed, or the iteration was left. */
  private ended = false;
  /** The items were all read at once (a response that is not streamable): nothing follows. */
  private last = false;
  /** `return()` was called: every later `next()` is done. */
  private closing = false;

  constructor(
    private readonly caller: Caller,
    private readonly plan: () => Promise<Plan>,
    private readonly callOptions: CallOptions,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<unknown>> {
    if (this.closing) return Promise.resolve(DONE);
    if (this.pending !== undefined) return this.pending.then(this.again, this.again);
    const items = this.items;
    if (this.at < items.length) {
      const value = items[this.at];
      // Held by the caller only: memory stays one chunk's items.
      items[this.at++] = undefined;
      return Promise.resolve({ value, done: false });
    }
    if (this.ended) return Promise.resolve(DONE);
    return (this.pending = this.fill());
  }

  /** A `next()` called while another was under way, once that one has settled. */
  private readonly again = () => this.next();

  /**
   * Leaving the loop: closes the connection at once; a `next()` under way settles with what the
   * close gives it (its own caller sees that), and one queued behind it is done.
   */
  async return(): Promise<IteratorResult<unknown>> {
    this.closing = true;
    const pending = this.pending;
    this.stop();
    if (pending !== undefined) await pending.catch(() => {});
    return DONE;
  }

  /** Reads until items come, then hands out the first; at the end, or on a failure, stops. */
  private async fill(): Promise<IteratorResult<unknown>> {
    try {
      const got = await this.more();
      if (got === undefined || got.length === 0) {
        this.stop();
        return DONE;
      }
      this.items = got;
      this.at = 1;
      const value = got[0];
      got[0] = undefined;
      return { value, done: false };
    } catch (e) {
      this.stop();
      throw e;
    } finally {
      this.pending = undefined;
    }
  }

  /** The next items: the response opened first, then read item by item or whole. */
  private async more(): Promise<unknown[] | undefined> {
    if (this.last) return undefined;
    if (this.transfer !== undefined) return this.transfer.next();
    const plan = await this.plan();
    // Left while the request was made: nothing is sent.
    if (this.ended) return undefined;
    const t = (this.transfer = new Transfer(this.caller, plan, this.callOptions));
    const res = await t.open();
    if (streamable(res)) {
      t.reading(res, this);
      return t.next();
    }
    // Read whole as the call would be (an HTTP error, a fault, a package, another charset).
    this.last = true;
    const r = plan.reader();
    const whole = await t.whole(res, r.root);
    t.finished = true;
    // A package's spooled attachments are removed as a call's are (client/attachments.ts).
    const value = await keepingAttachments(whole.spool, () => r.answer(whole));
    for (const node of undescribedOf(value)) keepUndescribed(this, node);
    return (value ?? []) as unknown[];
  }

  private stop(): void {
    this.ended = true;
    this.items = NO_ITEMS;
    this.transfer?.close();
    // Its response, frames and read pieces are not kept as long as the caller keeps the iterable.
    this.transfer = undefined;
  }
}

keepShapes(new StreamedItems(undefined as never, async () => undefined as never, {}));

/**
 * The items of operation `name`'s result, as they arrive. Nothing is sent until the first `next()`;
 * ending the iteration early (a `break`) or the call's signal closes the connection.
 */
export function streamCall(
  caller: Caller,
  name: string,
  op: SoapOperationDesc | HttpOperationDesc,
  input: unknown,
  callOptions: CallOptions,
): AsyncIterableIterator<unknown> {
  return new StreamedItems(
    caller,
    async () => {
      const plan =
        op.kind === "soap"
          ? await soapPlan(caller, name, op, input, callOptions)
          : httpPlan(caller, op, input);
      if (!plan.shape)
        throw new Error(
          `the result of ${name} over port ${caller.port.name} is not one repeated element: it ` +
            "cannot be streamed; call the operation whole",
        );
      if (caller.options.security?.checkResponse)
        throw new Error(
          `this client verifies signed responses (security), which takes the whole response: ` +
            `${name} cannot be streamed; call the operation whole`,
        );
      return plan;
    },
    callOptions,
  );
}
