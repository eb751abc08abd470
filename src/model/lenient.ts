/**
 * Lenient name resolution. Real WSDLs name components with prefixes nobody declared, or in a
 * namespace that declares no such component (an unprefixed reference that meant the target
 * namespace). When a name is not declared as written, and exactly one component of that kind has
 * the same local name, that component is used and a warning says so; peers (node-soap, zeep) match
 * by local name silently. A name that matches nothing is a recovery warning too (recovery.ts): the
 * caller carries on without the component and says how.
 */
import type { Diagnostic, DiagnosticBag, SourceLocation } from "../diagnostics.js";
import { qnameKey, type QName } from "../parse/qname.js";
import { recovery } from "../recovery.js";

export interface Resolved<T> {
  /** The declared name the reference resolved to. */
  readonly name: QName;
  readonly key: string;
  readonly value: T;
}

/** A map of components by `{ns}local` key, with a lazily built index by local name. */
export class ComponentIndex<T> {
  private byLocal: Map<string, string[]> | undefined;
  constructor(
    private readonly map: ReadonlyMap<string, T>,
    /** The kind of component, for messages: "type", "element", "message", … */
    private readonly what: string,
    /** Diagnostic code prefix: "XSD" or "WSDL". */
    private readonly area: "XSD" | "WSDL",
  ) {}

  /**
   * The component `name` refers to; when there is none, undefined and a recovery warning naming the
   * defect: `expected` says where it should have been declared, `instead` what the caller does
   * without it (see recovery.ts).
   */
  resolve(
    name: QName,
    at: SourceLocation,
    diagnostics: DiagnosticBag,
    expected: string,
    instead: string,
  ): Resolved<T> | undefined {
    const found = this.lookup(name, at, diagnostics);
    if (found) return found;
    diagnostics.add(unresolved(this.area, this.what, name, at, expected, instead));
    return undefined;
  }

  /** Like `resolve`, but silent when nothing is found (the caller reports or has a fallback). */
  lookup(name: QName, at: SourceLocation, diagnostics: DiagnosticBag): Resolved<T> | undefined {
    const key = qnameKey(name);
    // A prefix no xmlns binds names no namespace for certain: only the local name (with a warning)
    // can match.
    const value = name.unboundPrefix === undefined ? this.map.get(key) : undefined;
    if (value !== undefined) return { name: { ns: name.ns, local: name.local }, key, value };
    const candidates = this.local(name.local);
    if (candidates.length !== 1) return undefined;
    const only = candidates[0]!;
    const ns = only.slice(1, only.lastIndexOf("}"));
    const why =
      name.unboundPrefix !== undefined
        ? `uses the prefix "${name.unboundPrefix}", which no xmlns declaration in scope binds`
        : `is not declared in namespace "${name.ns}"`;
    diagnostics.add(
      recovery(
        `${this.area}_RESOLVED_BY_LOCAL_NAME`,
        `the ${this.what} reference ${name.unboundPrefix !== undefined ? `${name.unboundPrefix}:` : ""}${name.local} ${why}; using {${ns}}${name.local}, the only ${this.what} of that local name`,
        at,
      ),
    );
    return { name: { ns, local: name.local }, key: only, value: this.map.get(only)! };
  }

  private local(local: string): readonly string[] {
    if (!this.byLocal) {
      this.byLocal = new Map();
      for (const key of this.map.keys()) {
        const l = key.slice(key.lastIndexOf("}") + 1);
        const list = this.byLocal.get(l);
        if (list) list.push(key);
        else this.byLocal.set(l, [key]);
      }
    }
    return this.byLocal.get(local) ?? [];
  }
}

/**
 * The recovery warning for a reference that resolves to nothing (an unbound prefix named as such).
 */
export function unresolved(
  area: "XSD" | "WSDL",
  what: string,
  name: QName,
  at: SourceLocation,
  expected: string,
  instead: string,
): Diagnostic {
  if (name.unboundPrefix !== undefined) {
    return recovery(
      "XML_UNBOUND_PREFIX",
      `the ${what} ${name.unboundPrefix}:${name.local} uses the prefix "${name.unboundPrefix}", which no xmlns declaration in scope binds, and no ${what} is named ${name.local}; ${instead}`,
      at,
    );
  }
  return recovery(
    `${area}_UNRESOLVED`,
    `${what} {${name.ns}}${name.local} is not declared; ${expected}; ${instead}`,
    at,
  );
}
