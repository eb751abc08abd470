/**
 * Values that are there now or later: a message's securing is synchronous over parts in memory and
 * a promise over Blobs read first, and the in-memory path is kept without an added await.
 */

/** `f` of a value, now, or once its promise settles. */
export const andThen = <T, U>(v: T | Promise<T>, f: (v: T) => U): U | Promise<U> =>
  v instanceof Promise ? v.then(f) : f(v);
