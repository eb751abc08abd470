/**
 * Lenient name resolution. Real WSDLs name components with prefixes nobody declared, or in a
 * namespace that declares no such component (an unprefixed reference that meant the target
 * namespace). When a name is not declared as written, and exactly one component of that kind has
 * the same local name, that component is used and a warning says so; peers (node-soap, zeep) match
 * by local name silently. Anything else stays an error that names the defect.
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics.js";
import { qnameKey, type QName } from "../parse/qname.js";

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
   * The component `name` refers to, or undefined with an error naming the defect. `describe` adds
   * the usual "expected …" wording of the caller's error.
   */
  resolve(name: QName, at: SourceLocation, diagnostics: DiagnosticBag, expected: string): Resolved<T> | undefined {
    const found = this.lookup(name, at, diagnostics);
    if (found) return found;
    const written = name.unboundPrefix !== undefined ? `${name.unboundPrefix}:${name.local}` : `{${name.ns}}${name.local}`;
    if (name.unboundPrefix !== undefined) {
      diagnostics.error("XML_UNBOUND_PREFIX", `the ${this.what} ${written} uses the prefix "${name.unboundPrefix}", which no xmlns declaration in scope binds, and no ${this.what} is named ${name.local}`, at);
    } else {
      diagnostics.error(`${this.area}_UNRESOLVED`, `${this.what} ${written} is not declared; ${expected}`, at);
    }
    return undefined;
  }

  /** Like `resolve`, but silent when nothing is found (the caller reports or has a fallback). */
  lookup(name: QName, at: SourceLocation, diagnostics: DiagnosticBag): Resolved<T> | undefined {
    const key = qnameKey(name);
    const value = this.map.get(key);
    if (value !== undefined) return { name: { ns: name.ns, local: name.local }, key, value };
    const candidates = this.local(name.local);
    if (candidates.length !== 1) return undefined;
    const only = candidates[0]!;
    const ns = only.slice(1, only.lastIndexOf("}"));
    const why = name.unboundPrefix !== undefined
      ? `uses the prefix "${name.unboundPrefix}", which no xmlns declaration in scope binds`
      : `is not declared in namespace "${name.ns}"`;
    diagnostics.warn(
      `${this.area}_RESOLVED_BY_LOCAL_NAME`,
      `the ${this.what} reference ${name.unboundPrefix !== undefined ? `${name.unboundPrefix}:` : ""}${name.local} ${why}; using {${ns}}${name.local}, the only ${this.what} of that local name`,
      at,
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
