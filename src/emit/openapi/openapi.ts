/**
 * The OpenAPI 3.1 document of a WSDL's services, from the model (not from templates): one POST path
 * per operation (`operationId` the WSDL operation's name), the request body its typed input and the
 * 200 response its result, both as JSON Schema 2020-12 in `components/schemas`; faults as
 * `application/problem+json` (RFC 9457) responses carrying the fault code, string and the declared
 * detail. The JSON is the runtime's mapping (runtime/src/json), which the gateway speaks.
 */
import type {
  AttachmentPart,
  Operation,
  Service,
  SoapBindingOperation,
} from "../../model/model.js";
import type { EmitPlan } from "../../transform/plan.js";
import { NULL, orNull, ref, TypeSchemas } from "./type-schemas.js";
import { scalarSchema, type JsonSchema } from "./scalar-schemas.js";
import { OPERATION_FAILURES } from "@wsdl-tsgen/runtime/internal";

export interface OpenApiOptions {
  /** Copy documentation from the WSDL into descriptions. Default: true. */
  readonly docs?: boolean;
  /**
   * Describe this service alone, its operations at `/{operation}`: what a gateway that serves it
   * answers. Default: every service (at `/{service}/{operation}` when there are several).
   */
  readonly service?: string;
}

type Obj = Record<string, unknown>;

/** An OpenAPI 3.1 document, as JSON. */
export interface OpenApiDocument {
  readonly openapi: "3.1.0";
  readonly info: Obj;
  /** One path per operation: `/{operation}` (`/{service}/{operation}` for several services). */
  readonly paths: Obj;
  readonly components: { readonly schemas: Obj };
}

/** The OpenAPI 3.1 document of every service of the plan's model, as a JSON value. */
export function openApiDocument(plan: EmitPlan, options: OpenApiOptions = {}): OpenApiDocument {
  const docs = options.docs ?? true;
  const types = new TypeSchemas(plan, docs);
  const all = plan.model.services;
  const services =
    options.service === undefined ? all : all.filter((s) => s.name === options.service);
  const problem = uniqueName(types, "Problem");
  const paths: Obj = {};
  const ids = new Set<string>();
  for (const s of services)
    for (const op of s.operations) {
      const prefix = services.length > 1 ? `/${encodeURIComponent(s.name)}` : "";
      const id = ids.has(op.name) ? `${s.name}_${op.name}` : op.name;
      ids.add(id);
      paths[`${prefix}/${encodeURIComponent(op.name)}`] = {
        post: operationObject(types, s, op, id, problem, docs),
      };
    }
  const first = services[0];
  const info: Obj = {
    title: first?.name ?? "SOAP service",
    // A WSDL states no version of its service.
    version: "1.0.0",
  };
  const description = docs
    ? services
        .map((s) => s.doc)
        .filter(Boolean)
        .join("\n\n")
    : "";
  if (description !== "") info["description"] = description;
  types.schemas.set(problem, problemSchema());
  return {
    openapi: "3.1.0",
    info,
    paths,
    components: { schemas: Object.fromEntries([...types.schemas].sort(byName)) },
  };
}

const byName = (a: [string, unknown], b: [string, unknown]) => (a[0] < b[0] ? -1 : 1);

/** `base`, or `base` with a number, whichever no type's schema is named. */
function uniqueName(types: TypeSchemas, base: string): string {
  let name = base;
  for (let i = 2; types.schemas.has(name) || types.isTypeName(name); i++) name = `${base}${i}`;
  return name;
}

/** The SOAP binding operation the document describes faults by: the first SOAP port's. */
function soapOperation(s: Service, op: Operation): SoapBindingOperation | undefined {
  for (const p of s.ports)
    for (const b of p.binding.operations)
      if (b.operation === op && (b.protocol === "soap11" || b.protocol === "soap12")) return b;
  return undefined;
}

function operationObject(
  types: TypeSchemas,
  s: Service,
  op: Operation,
  id: string,
  problem: string,
  docs: boolean,
): Obj {
  const soap = soapOperation(s, op);
  const out: Obj = { operationId: id };
  if (docs && op.doc) out["description"] = op.doc;
  if (docs && op.doc) out["summary"] = op.doc.split(/\n/)[0]!.slice(0, 120);
  out["requestBody"] = {
    required: true,
    content: { "application/json": { schema: inputSchema(types, op) } },
  };
  const responses: Obj = op.oneWay
    ? { "204": { description: "accepted (a one-way operation: no answer)" } }
    : {
        "200": {
          description:
            "the operation's result; binaries (base64Binary values and attachment parts) as base64, whether the service sent them inline, as MTOM or as attachments",
          content: { "application/json": { schema: resultSchema(types, op) } },
        },
      };
  const faults = faultSchema(types, soap, problem);
  for (const [status, description] of Object.entries(OPERATION_FAILURES))
    responses[status] = {
      description,
      content: { "application/problem+json": { schema: faults } },
    };
  out["responses"] = responses;
  return out;
}

const attachmentsOf = (parts: readonly AttachmentPart[] | undefined) =>
  Object.fromEntries(
    (parts ?? []).map((p) => [
      p.name,
      {
        ...scalarSchema("base64Binary"),
        description: `attachment (${p.contentTypes[0] ?? "bytes"})`,
      },
    ]),
  );

/** The schema of an operation's typed input (its attachment parts beside its members). */
function inputSchema(types: TypeSchemas, op: Operation): JsonSchema {
  const parts = op.attachments?.input ?? [];
  if (parts.length > 0) return types.complexSchema(op.input, attachmentsOf(parts));
  return types.typeSchema(op.input);
}

/** The schema of an operation's result: null for none. */
function resultSchema(types: TypeSchemas, op: Operation): JsonSchema {
  const r = op.result;
  const parts = op.attachments?.output ?? [];
  if (r.kind === "void") return parts.length ? objectOf(attachmentsOf(parts)) : NULL;
  if (r.kind === "object")
    return parts.length
      ? types.complexSchema(r.type, attachmentsOf(parts))
      : types.typeSchema(r.type);
  const s = types.fieldSchema(r.field);
  return r.field.maxOccurs <= 1 && r.field.minOccurs === 0 && !r.field.nillable ? orNull(s) : s;
}

const objectOf = (properties: Obj): JsonSchema => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

/** An operation's problem+json: the shared problem, with its declared faults' details. */
function faultSchema(
  types: TypeSchemas,
  soap: SoapBindingOperation | undefined,
  problem: string,
): JsonSchema {
  const faults = soap?.faults ?? [];
  if (faults.length === 0) return ref(problem);
  const details = faults.map((f) => types.typeSchema(f.element.type));
  return {
    allOf: [ref(problem)],
    properties: {
      fault: { enum: faults.map((f) => f.name), description: "the declared fault (wsdl:fault)" },
      faultDetail: { anyOf: [...details, XML_TREE] },
    },
  };
}

/** An undeclared fault's detail: its XML tree. */
const XML_TREE: JsonSchema = {
  type: "object",
  required: ["local", "children"],
  description: "an undeclared detail, as its XML tree",
};

/** RFC 9457 problem details, with the SOAP fault's members. */
function problemSchema(): JsonSchema {
  return {
    type: "object",
    description: "RFC 9457 problem details; for a SOAP fault, its code, string and decoded detail",
    properties: {
      type: { type: "string" },
      title: { type: "string" },
      status: { type: "integer" },
      detail: { type: "string" },
      instance: { type: "string" },
      pointer: { type: "string", description: "the JSON pointer (RFC 6901) of an invalid value" },
      faultcode: { type: "string" },
      faultstring: { type: "string" },
      faultactor: { type: "string" },
      fault: { type: "string" },
      faultDetail: { description: "the fault's detail, decoded" },
    },
    required: ["title", "status"],
  };
}
