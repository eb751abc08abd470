/** Stage two's entry point: raw documents in, the model out (or diagnostics). */
import { DiagnosticBag } from "../diagnostics.js";
import type { LoadedDocuments } from "../parse/loader.js";
import type { ComplexType, SimpleType, TypeRef, WsdlModel } from "./model.js";
import { recovery } from "../recovery.js";
import { referencedTypes } from "./references.js";
import { SchemaSet } from "./schema-set.js";
import { mapServices } from "./services.js";
import { AFTER_MAPPING } from "./passes/order.js";

export interface BuiltModel {
  readonly model: WsdlModel;
  /** Name hints for anonymous types (the element or operation they belong to). */
  readonly nameHints: ReadonlyMap<ComplexType | SimpleType, string>;
  readonly diagnostics: DiagnosticBag;
}

export function buildModel(docs: LoadedDocuments, source: string): BuiltModel {
  const diagnostics = new DiagnosticBag();
  for (const w of docs.warnings) diagnostics.add(w);
  const schemas = new SchemaSet(docs.schemas, diagnostics);
  // A service none of whose ports is usable (each left out with its warning) has no client or server.
  const declaredServices = mapServices(docs.definitions, schemas, diagnostics);
  const services = declaredServices.filter((s) => s.ports.length > 0);
  const fragment = services.length === 0;
  // Types in use, in the order first reached from the services: deterministic and source-ordered.
  const types: (ComplexType | SimpleType)[] = [];
  const seen = new Set<TypeRef>();
  const visit = (t: TypeRef): void => {
    if (t.kind === "builtin" || seen.has(t)) return;
    seen.add(t);
    types.push(t);
    if (t.kind === "complex") {
      schemas.derivedOf(t); // records t.derived: types nothing names are reached through their base
      for (const f of t.fields) for (const m of f.substitutes?.members ?? []) elements.add(m);
      for (const r of referencedTypes(t)) visit(r);
    }
  };
  const elements = new Set<import("./model.js").ElementDecl>();
  for (const s of services) {
    if (s.soapHeaders) visit(s.soapHeaders);
    for (const op of s.operations) {
      visit(op.input);
      if (op.result.kind === "unwrapped") visit(op.result.field.type);
      if (op.result.kind === "object") visit(op.result.type);
    }
    for (const p of s.ports) {
      for (const bop of p.binding.operations) {
        for (const shape of [bop.soapInput, bop.soapOutput]) {
          if (shape?.kind === "element") {
            elements.add(shape.element);
            visit(shape.element.type);
          }
        }
        for (const f of bop.faults) {
          elements.add(f.element);
          visit(f.element.type);
        }
        for (const h of [...bop.inputHeaders, ...bop.outputHeaders]) elements.add(h);
        if (bop.mimeXmlElement) {
          elements.add(bop.mimeXmlElement);
          visit(bop.mimeXmlElement.type);
        }
      }
    }
  }
  // A fragment (no service with a usable port): the types its messages' parts use, in document order.
  if (fragment) {
    for (const d of docs.definitions) {
      for (const m of d.messages) {
        for (const part of m.parts) {
          if (part.element) visit(schemas.element(part.element, part.loc).type);
          else if (part.type) visit(schemas.type(part.type, part.loc));
        }
      }
    }
    let from = "the types of its messages";
    if (types.length === 0) {
      // No message names a type either: the named types of its schemas, so that something usable comes out.
      for (const schema of docs.schemas) {
        for (const t of [...schema.complexTypes, ...schema.simpleTypes]) {
          if (t.name !== undefined)
            visit(schemas.type({ ns: schema.targetNamespace, local: t.name }, t.loc));
        }
      }
      from = "the named types of its schemas";
    }
    const what =
      declaredServices.length === 0
        ? "the WSDL declares no wsdl:service (an abstract fragment)"
        : "no wsdl:service of the WSDL has a usable port";
    if (types.length > 0)
      diagnostics.add(
        recovery(
          "WSDL_NO_SERVICE",
          `${what}; generating ${from} only, without a client or server`,
          docs.root.loc,
        ),
      );
    else
      diagnostics.error(
        "WSDL_NO_SERVICE",
        `${what}, and neither its messages nor its schemas declare a type: nothing to generate; expected a wsdl:service whose port names a SOAP or HTTP binding`,
        docs.root.loc,
      );
  }
  for (const pass of AFTER_MAPPING) pass.run(schemas);
  return {
    model: {
      kind: "wsdl",
      source,
      targetNamespace: docs.root.targetNamespace,
      services,
      types,
      elements: [...elements],
    },
    nameHints: schemas.nameHints,
    diagnostics,
  };
}
