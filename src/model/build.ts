/** Stage two's entry point: raw documents in, the model out (or diagnostics). */
import { DiagnosticBag } from "../diagnostics.js";
import type { LoadedDocuments } from "../parse/loader.js";
import type {
  ComplexType,
  ElementDecl,
  Service,
  SimpleType,
  SoapBindingOperation,
  TypeRef,
  WsdlModel,
} from "./model.js";
import { ifHttp, ifSoap } from "./protocols.js";
import { recovery } from "../recovery.js";
import { referencedTypes } from "./references.js";
import { SchemaSet } from "./schema-set.js";
import { mapServices } from "./services.js";
import type { EncodedBinding } from "./encoded-limits.js";
import { runModelPasses } from "./passes.js";
import { selectOperations } from "./select-operations.js";

export interface BuiltModel {
  readonly model: WsdlModel;
  /** Name hints for anonymous types (the element or operation they belong to). */
  readonly nameHints: ReadonlyMap<ComplexType | SimpleType, string>;
  readonly diagnostics: DiagnosticBag;
}

export function buildModel(
  docs: LoadedDocuments,
  source: string,
  operations?: readonly string[],
): BuiltModel {
  const diagnostics = new DiagnosticBag();
  for (const w of docs.warnings) diagnostics.add(w);
  const schemas = new SchemaSet(docs.schemas, diagnostics);
  const encoded: EncodedBinding[] = [];
  // A service none of whose ports is usable (each left out with its warning) has no client or
  // server.
  const declaredServices = mapServices(docs.definitions, schemas, diagnostics, encoded);
  const usable = declaredServices.filter((s) => s.ports.length > 0);
  const services = operations
    ? selectOperations(usable, operations, diagnostics, docs.root.loc)
    : usable;
  const used = new InUse(schemas);
  for (const s of services) used.service(s);
  if (services.length === 0) fragmentTypes(docs, schemas, used, declaredServices.length > 0);
  // Only now is every type in use mapped, with the types derived from it: the model passes, in
  // the order of MODEL_PASSES (passes.ts).
  runModelPasses({ schemas, encoded, diagnostics });
  return {
    model: {
      kind: "wsdl",
      source,
      targetNamespace: docs.root.targetNamespace,
      services,
      types: used.types,
      elements: [...used.elements],
    },
    nameHints: schemas.nameHints,
    diagnostics,
  };
}

/** Types and elements in use, in the order first reached: deterministic and source-ordered. */
class InUse {
  readonly types: (ComplexType | SimpleType)[] = [];
  readonly elements = new Set<ElementDecl>();
  private readonly seen = new Set<TypeRef>();

  constructor(private readonly schemas: SchemaSet) {}

  /** `t`, and what it reaches. */
  type(t: TypeRef): void {
    if (t.kind === "builtin" || this.seen.has(t)) return;
    this.seen.add(t);
    this.types.push(t);
    if (t.kind === "complex") {
      this.schemas.derivedOf(t); // records t.derived: types nothing names are reached through their base
      for (const f of t.fields) for (const m of f.substitutes?.members ?? []) this.elements.add(m);
      for (const r of referencedTypes(t)) this.type(r);
    }
  }

  /** The element `e`, and its type. */
  element(e: ElementDecl): void {
    this.elements.add(e);
    this.type(e.type);
  }

  /** The body, fault and header elements a SOAP binding operation uses. */
  private soapOperation(bop: SoapBindingOperation): void {
    for (const shape of [bop.soapInput, bop.soapOutput])
      if (shape?.kind === "element") this.element(shape.element);
    for (const f of bop.faults) this.element(f.element);
    for (const h of [...bop.inputHeaders, ...bop.outputHeaders]) this.elements.add(h);
  }

  /** What the operations of `s` and its ports' bindings use. */
  service(s: Service): void {
    if (s.soapHeaders) this.type(s.soapHeaders);
    for (const op of s.operations) {
      this.type(op.input);
      if (op.result.kind === "unwrapped") this.type(op.result.field.type);
      if (op.result.kind === "object") this.type(op.result.type);
    }
    for (const p of s.ports) {
      for (const bop of p.binding.operations) {
        const soap = ifSoap(bop);
        if (soap) this.soapOperation(soap);
        const mimeXml = ifHttp(bop)?.mimeXmlElement;
        if (mimeXml) this.element(mimeXml);
      }
    }
  }
}

/**
 * A fragment (no service with a usable port): the types its messages' parts use, in document
 * order, or else its schemas' named types, said by a recovery warning; with neither, an error.
 */
function fragmentTypes(
  docs: LoadedDocuments,
  schemas: SchemaSet,
  used: InUse,
  declaresServices: boolean,
): void {
  for (const d of docs.definitions) {
    for (const m of d.messages) {
      for (const part of m.parts) {
        if (part.element) used.type(schemas.element(part.element, part.loc).type);
        else if (part.type) used.type(schemas.type(part.type, part.loc));
      }
    }
  }
  let from = "the types of its messages";
  if (used.types.length === 0) {
    // No message names a type either: the named types of its schemas, so that something usable
    // comes out.
    for (const schema of docs.schemas) {
      for (const t of [...schema.complexTypes, ...schema.simpleTypes]) {
        if (t.name !== undefined)
          used.type(schemas.type({ ns: schema.targetNamespace, local: t.name }, t.loc));
      }
    }
    from = "the named types of its schemas";
  }
  const what = declaresServices
    ? "no wsdl:service of the WSDL has a usable port"
    : "the WSDL declares no wsdl:service (an abstract fragment)";
  if (used.types.length > 0)
    schemas.diagnostics.add(
      recovery(
        "WSDL_NO_SERVICE",
        `${what}; generating ${from} only, without a client or server`,
        docs.root.loc,
      ),
    );
  else
    schemas.diagnostics.error(
      "WSDL_NO_SERVICE",
      `${what}, and neither its messages nor its schemas declare a type: nothing to generate; expected a wsdl:service whose port names a SOAP or HTTP binding`,
      docs.root.loc,
    );
}
