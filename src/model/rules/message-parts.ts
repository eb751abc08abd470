/**
 * Message parts: what a `wsdl:part` is in the model. A part naming an element stands for that
 * element; a part naming a type is an element named after the part, in no namespace, of that type
 * (an rpc wrapper's child, or, in a document-style body, what toolkits that accept `type=` put
 * there, against WS-I R2204, with a warning). The body of a SOAP message is then an rpc wrapper of
 * the parts, one element, or several elements each under its part's name. Called by the binding
 * readers (soap-binding.ts, http-binding.ts) for each binding operation; the binding rules stay
 * there.
 */
import type { DiagnosticBag, SourceLocation } from "../../diagnostics.js";
import type { QName } from "../../parse/qname.js";
import type { RawPart } from "../../parse/wsdl.js";
import { recovery } from "../../recovery.js";
import { XS_STRING } from "../builtins.js";
import { syntheticField } from "../fields.js";
import type { ElementDecl, ElementField, SoapBodyShape, TypeRef } from "../model.js";

/** The components parts name, as SchemaSet maps them. */
export interface PartSchemas {
  type(name: QName, at: SourceLocation): TypeRef;
  element(name: QName, at: SourceLocation): ElementDecl;
}

/** What the part rules need: the schemas parts name components of, and where defects are said. */
export interface PartContext {
  readonly schemas: PartSchemas;
  readonly diagnostics: DiagnosticBag;
}

/** The type of a part's value: its type, or its element's; with neither, xs:string and an error. */
export function partType(part: RawPart, cx: PartContext): TypeRef {
  if (part.type) return cx.schemas.type(part.type, part.loc);
  if (part.element) return cx.schemas.element(part.element, part.loc).type;
  untypedPart(part, cx);
  return XS_STRING;
}

/** The error for a part with neither element= nor type=, which says nothing of its content. */
function untypedPart(part: RawPart, cx: PartContext): void {
  cx.diagnostics.error(
    "WSDL_PART_WITHOUT_TYPE",
    `part ${part.name} has neither an element nor a type attribute; expected one of them`,
    part.loc,
  );
}

/** A part as a field: its element, or an unqualified element named after the part. */
export function partField(part: RawPart, cx: PartContext): ElementField {
  const decl = part.element ? cx.schemas.element(part.element, part.loc) : undefined;
  return syntheticField(
    decl ? decl.name : { ns: "", local: part.name },
    decl ? decl.type : partType(part, cx),
    part.loc,
    { nillable: decl?.nillable ?? false },
  );
}

/**
 * What a SOAP body holds for the body `parts` of a message: rpc style, a wrapper named `wrapper`
 * of the parts; document style, the parts' elements (one, several, or none).
 */
export function soapBody(
  style: "document" | "rpc",
  parts: readonly RawPart[],
  wrapper: QName,
  cx: PartContext,
): SoapBodyShape {
  if (style === "rpc") return { kind: "rpc", wrapper, parts: parts.map((p) => partField(p, cx)) };
  const elements = parts.map((p) => documentPartElement(p, cx)).filter((e) => e !== undefined);
  if (elements.length === 0) return { kind: "empty" };
  if (elements.length === 1) return { kind: "element", element: elements[0]!.element };
  // Several parts: their elements in part order, each the property of its part's name.
  return {
    kind: "parts",
    parts: elements.map(({ part, element: e }) =>
      syntheticField(e.name, e.type, part.loc, { nillable: e.nillable, propertyName: part.name }),
    ),
  };
}

/**
 * The body element a document-style part puts in the body, or undefined (an error) for a part with
 * neither element= nor type=.
 */
function documentPartElement(
  part: RawPart,
  cx: PartContext,
): { part: RawPart; element: ElementDecl } | undefined {
  if (part.element) return { part, element: cx.schemas.element(part.element, part.loc) };
  if (!part.type) return void untypedPart(part, cx);
  // WS-I R2204 wants element=; toolkits that accept type= put an element named after the part,
  // in no namespace, in the body. Do the same, and say so.
  cx.diagnostics.add(
    recovery(
      "WSDL_DOCUMENT_PART_TYPE",
      `document-style part ${part.name} uses type= where WS-I Basic Profile R2204 expects element=; the body element is taken to be <${part.name}> in no namespace`,
      part.loc,
    ),
  );
  return {
    part,
    element: {
      kind: "elementDecl",
      name: { ns: "", local: part.name },
      type: partType(part, cx),
      nillable: false,
      abstract: false,
      doc: undefined,
      loc: part.loc,
    },
  };
}
