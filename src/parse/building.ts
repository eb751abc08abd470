/** Objects built one optional property at a time, exact-optional (no property set to undefined). */

/** An object being built one property at a time (see put). */
export type Building<T> = { -readonly [K in keyof T]?: T[K] };

/**
 * Sets `o[key]` when `value` is defined: exact-optional like opt, without the object and the spread
 * that opt costs per property (the readers below run for every schema element).
 */
export function put<T, K extends keyof T>(o: Building<T>, key: K, value: T[K] | undefined): void {
  if (value !== undefined) o[key] = value;
}

/** `{ key: value }` when the value is defined, `{}` otherwise: keeps objects exact-optional. */
export function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
