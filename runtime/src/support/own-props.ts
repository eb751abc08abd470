/**
 * Properties of typed values are XML local names, and a few of those are names every plain object
 * inherits from Object.prototype (`constructor`, `toString`, `valueOf`, `__proto__`, …). For those
 * the runtime reads own properties only (an absent `toString` is absent, not a function) and sets
 * `__proto__` as an own property (assigning it would set the object's prototype).
 */
const INHERITED: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Whether plain objects inherit a property of this name. */
export const isInheritedName = (key: string): boolean => INHERITED.has(key);

/** The object's own value for `key`; undefined when it has none (whatever it inherits). */
export function ownValue(obj: Readonly<Record<string, unknown>>, key: string): unknown {
  return INHERITED.has(key) && !Object.hasOwn(obj, key) ? undefined : obj[key];
}

/** Sets `key` on `obj` as an own, enumerable property (`__proto__` included). */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(obj, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else obj[key] = value;
}
