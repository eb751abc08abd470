/** Turning XML names into TypeScript identifiers and property keys. */
import { isInheritedName } from "@wsdl-tsgen/runtime/internal";

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "as implements interface let package private protected public static yield any boolean number string symbol " +
    "bigint unknown never object undefined type of keyof readonly infer is asserts await async declare module namespace require global"
  ).split(" "),
);

/** Global names generated code refers to; a declaration must not shadow them. */
const GLOBALS = new Set([
  "Promise",
  "Uint8Array",
  "Date",
  "Array",
  "Record",
  "Error",
  "Object",
  "String",
  "Number",
  "Boolean",
  "BigInt",
  "Symbol",
  "Map",
  "Set",
  "Partial",
  "Readonly",
  "URL",
  "Buffer",
  "JSON",
  "Math",
]);

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const NOT_IDENT_CHAR = /[^A-Za-z0-9_$]/;

export const isIdentifier = (s: string): boolean => IDENT.test(s) && !RESERVED.has(s);

/**
 * A safe type or value name from an XML local name: invalid characters become `_`, words are kept.
 */
export function typeIdentifier(local: string): string {
  // Most names hold no character to drop: test before a replace that calls back.
  let s = !NOT_IDENT_CHAR.test(local)
    ? local
    : local.replace(/[^A-Za-z0-9_$]+(.)?/g, (_m, c: string | undefined) =>
        c ? c.toUpperCase() : "",
      );
  if (s === "") s = "Type";
  if (/^[0-9]/.test(s)) s = `_${s}`;
  s = s.charAt(0).toUpperCase() + s.slice(1);
  if (RESERVED.has(s) || GLOBALS.has(s)) s = `${s}_`;
  return s;
}

/**
 * camelCase for method names: `GetMessages` → `getMessages`, `URLInfo` → `urlInfo`. Reserved words,
 * `then` (the client would be a thenable: `await client` would call it) and names every object
 * inherits (`constructor` is the class's constructor; `toString` and the rest are relied on
 * elsewhere) get a trailing `_`.
 */
export function methodIdentifier(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_$]+(.)?/g, (_m, c: string | undefined) =>
    c ? c.toUpperCase() : "",
  );
  const m = /^([A-Z]+)(?=[A-Z][a-z]|[0-9]|$)/.exec(clean);
  let s = m
    ? m[1]!.toLowerCase() + clean.slice(m[1]!.length)
    : clean.charAt(0).toLowerCase() + clean.slice(1);
  if (s === "") s = "call";
  if (/^[0-9]/.test(s)) s = `_${s}`;
  if (RESERVED.has(s) || s === "then" || isInheritedName(s)) s = `${s}_`;
  return s;
}

/** A property key as written in a declaration: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return IDENT.test(name) ? name : JSON.stringify(name);
}

/**
 * A property key in an object literal (a value, not a type): as propertyKey, but `__proto__`
 * computed, since `{ __proto__: x }` (bare or quoted) sets the object's prototype instead.
 */
export function objectKey(name: string): string {
  return name === "__proto__" ? '["__proto__"]' : propertyKey(name);
}

/**
 * Makes names unique in one scope, deterministically: the first keeps its name, then `_2`, `_3`.
 */
export class NameScope {
  private readonly used = new Set<string>();
  /**
   * For a wanted name, the suffix to try next: the ones below it are all taken (names are never
   * freed).
   */
  private readonly nextSuffix = new Map<string, number>();
  constructor(reserved: Iterable<string> = []) {
    for (const r of reserved) this.used.add(r);
  }
  claim(wanted: string): string {
    let name = wanted;
    let i = this.nextSuffix.get(wanted) ?? 2;
    if (this.used.has(name)) {
      // Resumed where the last claim of this name stopped: n claims of one name cost n, not n².
      for (name = `${wanted}_${i}`; this.used.has(name); name = `${wanted}_${++i}`);
      this.nextSuffix.set(wanted, i + 1);
    }
    this.used.add(name);
    return name;
  }
  has(name: string): boolean {
    return this.used.has(name);
  }
}
