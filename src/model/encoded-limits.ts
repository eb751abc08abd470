/**
 * What SOAP encoding (rpc/encoded) cannot carry as its peers may expect, checked per binding once
 * the types in use, and the types derived from them, are known: the values its encoded messages
 * hold that are written without `xsi:type`, and, in SOAP 1.2, encoding's arrays and references. A
 * SOAP 1.1 binding with neither gets no warning, so that `--strict` accepts it.
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics.js";
import type { Binding, ComplexType, ElementField, SoapBodyShape } from "./model.js";
import { arrayWrapperItem, inFamily } from "./value-shapes.js";

/** A SOAP binding with operations that use SOAP encoding, and where the first of them is. */
export interface EncodedBinding {
  readonly binding: Binding;
  readonly loc: SourceLocation;
}

/** How many types a warning names before it only counts the rest. */
const NAMED = 6;

export function warnEncodedLimits(
  found: readonly EncodedBinding[],
  diagnostics: DiagnosticBag,
): void {
  for (const { binding, loc } of found) {
    const encoded = binding.operations.filter(
      (b) => isEncoded(b.inputEncoding) || isEncoded(b.outputEncoding),
    );
    const untyped = untypedValues(
      encoded.flatMap((b) => [
        ...(isEncoded(b.inputEncoding) && b.soapInput ? [b.soapInput] : []),
        ...(isEncoded(b.outputEncoding) && b.soapOutput ? [b.soapOutput] : []),
      ]),
    );
    const soap12 = binding.protocol === "soap12";
    if (untyped.length === 0 && !soap12) continue;
    const limits: string[] = [];
    if (untyped.length > 0) {
      const named = untyped.slice(0, NAMED).join(", ");
      const more = untyped.length > NAMED ? ` and ${untyped.length - NAMED} more` : "";
      limits.push(
        `values of ${named}${more} are written without the xsi:type rpc/encoded peers may need`,
      );
    }
    if (soap12)
      limits.push(
        "SOAP 1.2 encoding's arrays and references (enc:itemType, enc:arraySize, enc:ref) are not read or written as such",
      );
    const names = encoded.map((b) => b.operation.name);
    diagnostics.warn(
      "WSDL_ENCODED",
      `binding ${binding.name.local} uses SOAP encoding (use="encoded") in ${names.length === 1 ? "operation" : "operations"} ${names.join(", ")}; ${limits.join("; ")}`,
      loc,
    );
  }
}

const isEncoded = (e: { readonly kind: string; readonly use?: string }): boolean =>
  e.kind === "soapBody" && e.use === "encoded";

/**
 * The values of encoded bodies that the writer sends without `xsi:type` (as the transform's
 * encoded-values pass decides), described, in the order first met: an anonymous complex type's,
 * a plain array's, and a derivation family's own (a derived type's values say which type they are,
 * so an abstract type's never lack it); and a document-style body element's, written as literal.
 */
function untypedValues(bodies: readonly SoapBodyShape[]): string[] {
  const out = new Set<string>();
  const seen = new Set<ComplexType>();
  const content = (t: ComplexType): void => {
    if (seen.has(t)) return;
    seen.add(t);
    // An encoded array types its items (soapenc:arrayType, and each item's xsi:type) unless they
    // are of a family, whose writer says the type itself: only a derived type's value does.
    if (t.encodedArray) return t.fields[0] && visit(t.fields[0], "family");
    for (let c: ComplexType | undefined = t; c; c = c.base)
      for (const f of c.fields) visit(f, "all");
    for (const d of t.derived) content(d);
  };
  const visit = (f: ElementField, judge: Judged): void => {
    if (f.type.kind !== "complex") return;
    const why = untyped(f.type, f, judge);
    if (why) out.add(why);
    content(f.type);
  };
  for (const body of bodies) {
    if (body.kind === "element")
      out.add(`body element ${body.element.name.local} (document style, written as literal)`);
    else if (body.kind !== "empty") for (const p of body.parts) visit(p, "all");
  }
  return [...out];
}

/** Which values a field's type is judged for: all reasons, or only a family's (array items). */
type Judged = "all" | "family";

/** Why values of `t` in field `f` go without `xsi:type`, if they do. */
function untyped(t: ComplexType, f: ElementField, judge: Judged): string | undefined {
  if (judge === "all") {
    if (t.name === undefined) return `the anonymous type of element ${f.name.local}`;
    if (!t.encodedArray && arrayWrapperItem(t)) return `${t.name.local} (a plain array)`;
  }
  if (inFamily(t) && !t.abstract)
    return `${t.name?.local ?? f.name.local} (its own, not a derived type's)`;
  return undefined;
}
