/**
 * Values that are there now or later: a message's securing is synchronous over parts in memory and
 * a promise over Blobs read first, and the in-memory path is kept without an added await.
 */

/**
 * Whether `v` is a promise or another thenable (a hook's promise from another realm, or a
 * library's, fails `instanceof Promise`, and must not pass for a value).
 */
export const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  (typeof v === "object" || typeof v === "function") &&
  v !== null &&
  typeof (v as { then?: unknown }).then === "function";

/** `f` of a value, now, or once its promise settles. */
export const andThen = <T, U>(v: T | Promise<T>, f: (v: T) => U): U | Promise<U> =>
  isThenable(v) ? Promise.resolve(v).then(f) : f(v as T);
