/**
 * Derivation: what a complex type derives from, by extension or restriction of complex content (its
 * `base` or what it `restricts`) or as simple content, and the families that derivation makes: the
 * named complex types that extend or restrict a type, recorded as its `derived`, so that a value
 * declared as the type may carry any of them with `xsi:type` (`$type` in JS), and so that types
 * nothing names are reached through their base. A derivation that would make a type its own base
 * is a circle XML Schema forbids: the derivation that closes it is left out, with a warning.
 * SchemaSet applies the rule as it maps a type (the first of MAPPING_RULES: the others read its
 * base); build.ts asks for the derived types as it walks the types in use, since what it reaches
 * through them is in use too.
 */
import type { DiagnosticBag, SourceLocation } from "../../diagnostics.js";
import { NS, SOAP_ENCODINGS } from "../../parse/namespaces.js";
import { qnameKey, type QName } from "../../parse/qname.js";
import type { RawComplexType, RawDerivation, RawSchema } from "../../parse/xsd.js";
import { recovery } from "../../recovery.js";
import { XS_STRING } from "../builtins.js";
import type { ComplexType, Mutable, TypeRef } from "../model.js";
import { referrers, type Declared } from "./referrers.js";
import type { MappingRule } from "./rule.js";

/** What the derivation rule asks of the schema set. */
export interface DerivationContext {
  readonly diagnostics: DiagnosticBag;
  /** The base `name` of a derivation, its chain's depth bounded. */
  baseType(name: QName, at: SourceLocation): TypeRef;
  /**
   * The base `name` of a restriction when it is a declared complex type, its chain's depth
   * bounded; declared nowhere, undefined and a recovery warning saying what is done (`instead`).
   */
  complexBase(name: QName, at: SourceLocation, instead: string): TypeRef | undefined;
}

/** Gives a complex type what it derives from: its base, what it restricts, its simple content. */
export const derivation: MappingRule<DerivationContext> = {
  name: "derivation",
  step: "derivation",
  apply({ ct, raw }, cx) {
    if (raw.complexContent) complexDerivation(ct, raw.complexContent, cx);
    else if (raw.simpleContent) simpleDerivation(ct, raw.simpleContent, cx);
  },
};

function complexDerivation(
  ct: Mutable<ComplexType>,
  d: RawDerivation,
  cx: DerivationContext,
): void {
  ct.anyAttributes = d.anyAttribute;
  if (d.derivation === "extension") {
    const base = cx.baseType(d.base, d.loc);
    if (base.kind === "complex") ct.base = acyclicBase(ct, base, d.loc, cx.diagnostics);
  } else if (!SOAP_ENCODINGS.has(d.base.ns) && d.base.ns !== NS.xsd) {
    // A restriction of a declared complex type (not of xs:anyType, nor an encoded array's
    // soapenc:Array); a base declared nowhere is said, and the type keeps its own content.
    const base = cx.complexBase(
      d.base,
      d.loc,
      "the type is read as its own content, restricting nothing",
    );
    const restricts =
      base?.kind === "complex" ? acyclicBase(ct, base, d.loc, cx.diagnostics) : undefined;
    if (restricts) ct.restricts = restricts;
  }
}

function simpleDerivation(ct: Mutable<ComplexType>, d: RawDerivation, cx: DerivationContext): void {
  ct.anyAttributes = d.anyAttribute;
  const base = cx.baseType(d.base, d.loc);
  if (base.kind === "complex") {
    ct.simpleContent = base.simpleContent ?? XS_STRING;
    if (d.derivation === "extension") ct.base = acyclicBase(ct, base, d.loc, cx.diagnostics);
  } else {
    ct.simpleContent = base;
  }
}

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
