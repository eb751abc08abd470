/**
 * The items of an implementation's result, whole or streamed: an array, an iterable (sync or
 * async), or a promise of one; undefined as none. Tests that call an implementation directly read
 * its answers so, whichever form it returns.
 */
type Whole<T> = readonly T[] | undefined | Iterable<T> | AsyncIterable<T>;

export async function resultItems<T>(result: Whole<T> | Promise<Whole<T>>): Promise<T[]> {
  const r = await result;
  if (r === undefined) return [];
  const out: T[] = [];
  for await (const item of r) out.push(item);
  return out;
}
