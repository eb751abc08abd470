/**
 * SOAP-encoded arrays: a restriction of `soapenc:Array` is a typed array of its item type, named by
 * `wsdl:arrayType` on the arrayType attribute (`tns:Item[]`) or by the one repeated element of its
 * content. The runtime writes `soapenc:arrayType` itself, so the attribute is no field of the type.
 * An array of more than one dimension is not an array of items: its content is kept raw, with a
 * warning. SchemaSet applies this rule after the content and attribute rules, since it reshapes
 * what they made. (ASMX's literal `ArrayOfX` wrappers are the transform's array-wrappers pass.)
 */
import type { DiagnosticBag, SourceLocation } from "../../diagnostics.js";
import { NS, SOAP_ENCODINGS } from "../../parse/namespaces.js";
import type { QName } from "../../parse/qname.js";
import type { RawDerivation } from "../../parse/xsd.js";
import type { ComplexType, ElementField, Mutable, TypeRef } from "../model.js";
import type { MappingRule } from "./rule.js";

/** What the encoded array rule asks of the schema set. */
export interface EncodedArrayContext {
  readonly diagnostics: DiagnosticBag;
  /** The item type `name` (declared nowhere: xs:anyType's content, with a recovery warning). */
  itemType(name: QName, at: SourceLocation): TypeRef;
}

/** Reshapes a restriction of soapenc:Array into an array of its items. */
export const encodedArrays: MappingRule<EncodedArrayContext> = {
  name: "encoded-arrays",
  step: "content",
  apply({ ct, raw }, cx) {
    const d = raw.complexContent;
    if (d !== undefined && isEncodedArray(d))
      shapeEncodedArray(ct, d, (n, at) => cx.itemType(n, at), cx.diagnostics);
  },
};

const ANY_TYPE: QName = { ns: NS.xsd, local: "anyType" };

/** Whether a complexContent derivation restricts SOAP encoding's Array. */
export const isEncodedArray = (d: RawDerivation): boolean =>
  d.derivation === "restriction" && SOAP_ENCODINGS.has(d.base.ns) && d.base.local === "Array";

/**
 * Gives `ct`, a restriction of soapenc:Array whose content is mapped, its shape as an encoded
 * array. A multi-dimensional one (`Item[,]`, `Item[][]`) is not an array of items: its content is
 * kept raw (`$any`, `$attributes`), with a limitation warning.
 */
export function shapeEncodedArray(
  ct: Mutable<ComplexType>,
  d: RawDerivation,
  resolve: (name: QName, at: SourceLocation) => TypeRef,
  diagnostics: DiagnosticBag,
): void {
  const declared = d.attributes.find((a) => a.kind === "attribute" && a.arrayType !== undefined);
  const arrayType = declared?.kind === "attribute" ? declared.arrayType : undefined;
  ct.attributes = [];
  ct.anyAttributes = false;
  if (arrayType !== undefined && arrayType.dims !== "[]") {
    diagnostics.warn(
      "XSD_ENCODED_ARRAY_DIMENSIONS",
      `the SOAP-encoded array ${name(ct)} is declared ${arrayType.text}: arrays of more than one dimension, or of arrays, are not read as arrays; their content is kept as raw XML ($any, $attributes)`,
      declared!.loc,
    );
    ct.fields = [];
    ct.anyElements = true;
    ct.anyAttributes = true;
    return;
  }
  const only = ct.fields.length === 1 && ct.fields[0]!.maxOccurs > 1 ? ct.fields[0] : undefined;
  if (arrayType === undefined && only !== undefined) {
    ct.encodedArray = { itemType: typeName(only.type) };
    return;
  }
  const itemType = arrayType?.item ?? ANY_TYPE;
  const item: ElementField = {
    kind: "elementField",
    name: { ns: "", local: "item" },
    type: resolve(itemType, declared?.loc ?? ct.loc),
    minOccurs: 0,
    maxOccurs: Infinity,
    nillable: true,
    default: undefined,
    fixed: undefined,
    choice: undefined,
    doc: undefined,
    loc: declared?.loc ?? ct.loc,
  };
  ct.fields = [item];
  ct.anyElements = false;
  ct.encodedArray = { itemType: item.type.name ?? ANY_TYPE };
}

/** The name `xsi:type` gives a value of `t`: an anonymous type's values are xs:anyType's. */
const typeName = (t: TypeRef): QName => t.name ?? ANY_TYPE;

const name = (ct: ComplexType): string =>
  ct.name ? `{${ct.name.ns}}${ct.name.local}` : "(anonymous)";
