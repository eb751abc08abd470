/**
 * What SOAP encoding (rpc/encoded) cannot carry as its peers may expect, checked per binding once
 * the types in use, and the types derived from them, are known: the values its encoded messages
 * hold that are written without `xsi:type`, and, in SOAP 1.2, encoding's arrays and references. A
 * SOAP 1.1 binding with neither gets no warning, so that `--strict` accepts it.
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics.js";
import { ifSoap } from "./protocols.js";
import type {
  Binding,
  BindingOperation,
  ComplexType,
  ElementField,
  SoapBodyShape,
} from "./model.js";
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
    const encoded = binding.operations.filter((b) => encodedBodies(b).length > 0);
    const untyped = untypedValues(encoded.flatMap(encodedBodies));
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
        "SOAP 1.2 encoding's arrays and references (enc:itemType, enc:arraySize, enc:ref) " +
          "are not read or written as such",
      );
    const names = encoded.map((b) => b.operation.name);
    const ops = `${names.length === 1 ? "operation" : "operations"} ${names.join(", ")}`;
    diagnostics.warn(
      "WSDL_ENCODED",
      `binding ${binding.name.local} uses SOAP encoding (use="encoded") in ${ops}; ${limits.join("; ")}`,
      loc,
    );
  }
}

const isEncoded = (e: { readonly kind: string; readonly use?: string }): boolean =>
  e.kind === "soapBody" && e.use === "encoded";

/** The bodies of a binding operation that use SOAP encoding: its input's, its output's, both. */
export function encodedBodies(bop: BindingOperation): SoapBodyShape[] {
  const b = ifSoap(bop);
  if (!b) return [];
  const out: SoapBodyShape[] = [];
  if (isEncoded(b.inputEncoding)) out.push(b.soapInput);
  if (isEncoded(b.outputEncoding) && b.soapOutput) out.push(b.soapOutput);
  return out;
}

/**
 * Visits each element field of encoded `bodies` once: their parts and, below them, the fields of
 * every complex type reached (its bases' too) and of the types derived from it. `inArray` marks an
 * encoded array's item, which the array's own `soapenc:arrayType` types.
 */
export function forEachEncodedField(
  bodies: readonly SoapBodyShape[],
  visit: (f: ElementField, inArray: boolean) => void,
): void {
  const seen = new Set<ComplexType>();
  const field = (f: ElementField, inArray: boolean): void => {
    visit(f, inArray);
    if (f.type.kind === "complex") content(f.type);
  };
  const content = (t: ComplexType): void => {
    if (seen.has(t)) return;
    seen.add(t);
    if (t.encodedArray) return t.fields[0] && field(t.fields[0], true);
    for (let c: ComplexType | undefined = t; c; c = c.base)
      for (const f of c.fields) field(f, false);
    for (const d of t.derived) content(d);
  };
  for (const body of bodies)
    if (body.kind === "rpc" || body.kind === "parts") for (const p of body.parts) field(p, false);
}

/**
 * The values of encoded bodies that the writer sends without `xsi:type`, described, in the order
 * first met (see untyped); and a document-style body element's, written as literal.
 */
function untypedValues(bodies: readonly SoapBodyShape[]): string[] {
  const out = new Set<string>();
  for (const body of bodies)
    if (body.kind === "element")
      out.add(`body element ${body.element.name.local} (document style, written as literal)`);
  forEachEncodedField(bodies, (f, inArray) => {
    const why = f.type.kind === "complex" ? untyped(f.type, f, inArray) : undefined;
    if (why) out.add(why);
  });
  return [...out];
}

/**
 * Why values of `t` in field `f` go without `xsi:type`, if they do: an anonymous type's, a plain
 * array's, and a derivation family's own (a derived type's say which they are, so an abstract
 * type's never lack it). An encoded array types its items itself, unless they are of a family.
 */
function untyped(t: ComplexType, f: ElementField, inArray: boolean): string | undefined {
  if (!inArray) {
    if (t.name === undefined) return `the anonymous type of element ${f.name.local}`;
    if (!t.encodedArray && arrayWrapperItem(t)) return `${t.name.local} (a plain array)`;
  }
  if (inFamily(t) && !t.abstract)
    return `${t.name?.local ?? f.name.local} (its own, not a derived type's)`;
  return undefined;
}
