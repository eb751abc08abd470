/**
 * Derivation families: the named complex types that extend or restrict a type, recorded as its
 * `derived`, so that a value declared as the type may carry any of them with `xsi:type` (`$type`
 * in JS), and so that types nothing names are reached through their base. A derivation that would
 * make a type its own base is a circle XML Schema forbids: the derivation that closes it is left
 * out, with a warning. SchemaSet checks each base as it maps a type; build.ts asks for the
 * derived types as it walks the types in use, since what it reaches through them is in use too.
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics.js";
import { qnameKey } from "../parse/qname.js";
import type { RawComplexType, RawSchema } from "../parse/xsd.js";
import { recovery } from "../recovery.js";
import type { ComplexType, Mutable } from "../model/model.js";
import { referrers, type Declared } from "./referrers.js";

export class DerivationFamilies {
  /**
   * Named complex types by the key of the base they extend or restrict (complexContent), in schema
   * order.
   */
  private derivationsByBase: Map<string, Declared<RawComplexType>[]> | undefined;

  constructor(
    /** The named complex types of every schema by key, in schema order. */
    private readonly declared: ReadonlyMap<
      string,
      { readonly raw: RawComplexType; readonly schema: RawSchema }
    >,
    /** Maps a named complex type (once: later calls return the same type). */
    private readonly map: (d: Declared<RawComplexType>) => ComplexType,
  ) {}

  /**
   * The named types that extend or restrict `ct` directly, mapped, and recorded as `ct.derived`.
   */
  derivedOf(ct: ComplexType): readonly ComplexType[] {
    if (ct.name === undefined) return ct.derived;
    const derived: ComplexType[] = [];
    for (const d of this.byBase().get(qnameKey(ct.name)) ?? []) {
      const t = this.map(d);
      // A base resolved elsewhere (by local name), or left out as circular, is no derivation of ct.
      if (t.base === ct || t.restricts === ct) derived.push(t);
    }
    (ct as Mutable<ComplexType>).derived = derived;
    return derived;
  }

  private byBase(): Map<string, Declared<RawComplexType>[]> {
    return (this.derivationsByBase ??= referrers(this.declared, (raw) => raw.complexContent?.base));
  }
}

/** The type a complex type derives from, by extension or restriction. */
const parentOf = (t: ComplexType): ComplexType | undefined => t.base ?? t.restricts;

/**
 * `base` as the base of `ct`, unless `base` derives (directly or not) from `ct`: a circle, which
 * XML Schema forbids; then the derivation that closes it is left out, with a warning.
 */
export function acyclicBase(
  ct: ComplexType,
  base: ComplexType,
  at: SourceLocation,
  diagnostics: DiagnosticBag,
): ComplexType | undefined {
  const chain: ComplexType[] = [base];
  for (let t = parentOf(base); t !== undefined && !chain.includes(t); t = parentOf(t))
    chain.push(t);
  if (base !== ct && !chain.includes(ct)) return base;
  const names = [ct, ...chain.slice(0, chain.indexOf(ct) + 1)].map((t) =>
    t.name ? `{${t.name.ns}}${t.name.local}` : "(anonymous)",
  );
  diagnostics.add(
    recovery(
      "XSD_CIRCULAR",
      `the type ${names[0]} derives from itself (${names.join(" → ")}); expected a base that does not derive from it; reading it without this derivation`,
      at,
    ),
  );
  return undefined;
}
