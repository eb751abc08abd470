/**
 * The context every scaffold template receives (templates/, and a user's `--templates` folder):
 * a typed, documented interface, built here from the model and the names the SDK was generated
 * with, so that templates only lay text out and never work anything out.
 */
import { docComment } from "../emit/comments.js";
import type { Operation, Port, Service, WsdlModel } from "../model/model.js";
import { requestKey } from "../model/services.js";
import { addressPath } from "@wsdl-tsgen/runtime/internal";
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import { GeneratedFile } from "../emit/generated-file.js";
import { printStatement } from "../emit/printer.js";
import type { EmitContext } from "../emit/context.js";
import { resultType, typeExpr } from "../emit/type-expressions.js";
import type { EmitPlan } from "../transform/plan.js";

/** What the scaffolded project's package.json installs, each an npm version range. */
export interface ScaffoldVersions {
  readonly runtime: string;
  readonly generator: string;
  readonly typescript: string;
  readonly tsx: string;
  readonly vitest: string;
  readonly typesNode: string;
}

/** The context of every template. */
export interface ScaffoldContext {
  /** The npm package name (`--name`; default: the output folder's name). */
  readonly name: string;
  /** One line for package.json: the services this project serves. */
  readonly description: string;
  /** `--mock`: methods return samples instead of throwing the not-implemented fault. */
  readonly mock: boolean;
  /** `--gateway`: a JSON/OpenAPI gateway over a backend, not a server to implement. */
  readonly gateway: boolean;
  /** The WSDL as the user named it (a path or URL, without credentials). */
  readonly source: string;
  /** The vendored root WSDL, relative to the project (`wsdl/api.wsdl`). */
  readonly wsdl: string;
  /** Where `generate` writes the SDK, relative to the project (`src/generated`). */
  readonly generated: string;
  /** The `--templates` folder, relative to the project, or "" when none. */
  readonly templates: string;
  /** `--operations`: the WSDL operations the SDK is limited to; empty for all. */
  readonly operations: readonly string[];
  readonly versions: ScaffoldVersions;
  readonly services: readonly ServiceContext[];
  /** The paths the services are served at, each once, in WSDL order (`?WSDL` answers at each). */
  readonly paths: readonly string[];
  /**
   * Types service.ts uses, sorted, one import each: from the SDK's index (the service and context
   * types), from its types.ts (the operations' types) and from the runtime.
   */
  readonly sdkTypes: readonly string[];
  readonly schemaTypes: readonly string[];
  readonly runtimeTypes: readonly string[];
  /** Names of the SDK's descriptors.ts that the mock's bodies use (empty without `--mock`). */
  readonly descriptorImports: readonly string[];
}

/** One WSDL service: its generated names, operations and ports. */
export interface ServiceContext {
  /** The WSDL's name of the service (`Api`). */
  readonly name: string;
  /** The exported implementation object in src/service.ts (`apiService`). */
  readonly object: string;
  /** The implementation's type (`ApiService`), its partial form and its context type. */
  readonly serviceType: string;
  readonly partialType: string;
  readonly contextType: string;
  /** The request listener factory (`createApiHandler`), the client class and the descriptor. */
  readonly handlerFactory: string;
  readonly client: string;
  readonly descriptor: string;
  readonly operations: readonly OperationContext[];
  readonly ports: readonly PortContext[];
}

/** One operation of a service, as its method in src/service.ts. */
export interface OperationContext {
  /** The WSDL's operation name (`GetMessages`), which the not-implemented fault names. */
  readonly name: string;
  /** The implementation's method name (`getMessages`). */
  readonly method: string;
  /** The service's descriptor (`ApiDesc`), which a mock's sample is read from. */
  readonly descriptor: string;
  /** The method's documentation comment, indented for a member of the object ("" when none). */
  readonly doc: string;
  /** What the implementation receives and returns, as TypeScript. */
  readonly inputType: string;
  readonly outputType: string;
  /** The service's request context type (`ApiContext`), the method's second parameter. */
  readonly contextType: string;
  /** The names `inputType` and `outputType` use, each with the module it is imported from. */
  readonly imports: readonly TypeImport[];
}

/** A type name and the module service.ts imports it from. */
export interface TypeImport {
  readonly name: string;
  readonly from: string;
}

/** An operation as one port carries it. */
export interface PortOperation {
  readonly name: string;
  readonly method: string;
  /**
   * The earlier operation of the port whose requests are this one's on the wire (the same HTTP
   * location, or SOAPAction and body), which the server answers instead; "" when none.
   */
  readonly answeredAs: string;
}

/** One port (binding) of a service, served at `path`. */
export interface PortContext {
  readonly name: string;
  /** `SOAP 1.1`, `SOAP 1.2`, `HTTP GET` or `HTTP POST`. */
  readonly binding: string;
  /** The path the generated handler serves it at (from the WSDL's address). */
  readonly path: string;
  /**
   * An earlier service served at the same path, whose handler then answers every request there
   * (serve one of them at another path: the handler's `path` option); "" when none.
   */
  readonly shadowedBy: string;
  /** The operations the port carries, in WSDL order. */
  readonly operations: readonly PortOperation[];
}

const BINDING_LABEL = {
  soap11: "SOAP 1.1",
  soap12: "SOAP 1.2",
  httpGet: "HTTP GET",
  httpPost: "HTTP POST",
} as const;

/** Where the implementation and the tests import the SDK from. */
export const SDK_INDEX = "./generated/index.js";
/** Where it imports the schema's types from: all of them are exported there. */
export const SDK_TYPES = "./generated/types.js";
export const RUNTIME = "@wsdl-tsgen/runtime";

/** What a template context needs besides the model: the plan's names and the options. */
export interface ContextInputs {
  readonly model: WsdlModel;
  readonly plan: EmitPlan;
  readonly name: string;
  readonly mock: boolean;
  readonly gateway?: boolean;
  readonly source: string;
  readonly wsdl: string;
  readonly generated: string;
  readonly templates: string;
  readonly operations?: readonly string[] | undefined;
  readonly versions: ScaffoldVersions;
  /** Copy the WSDL's documentation into the methods' comments. */
  readonly docs: boolean;
}

export function scaffoldContext(inputs: ContextInputs): ScaffoldContext {
  const servedBy = new Map<string, string>();
  const services = inputs.model.services.map((s) => serviceContext(inputs, s, servedBy));
  const sdkTypes = new Set<string>();
  const schemaTypes = new Set<string>();
  const runtimeTypes = new Set<string>();
  for (const s of services) {
    for (const n of [s.serviceType, s.contextType]) sdkTypes.add(n);
    for (const op of s.operations)
      for (const i of op.imports) (i.from === RUNTIME ? runtimeTypes : schemaTypes).add(i.name);
  }
  return {
    name: inputs.name,
    description: `A ${inputs.gateway ? "JSON gateway" : "server"} for ${services.map((s) => s.name).join(", ")}, scaffolded by wsdl-tsgen from ${inputs.source}`,
    mock: inputs.mock,
    gateway: inputs.gateway === true,
    source: inputs.source,
    wsdl: inputs.wsdl,
    generated: inputs.generated,
    templates: inputs.templates,
    operations: inputs.operations ?? [],
    versions: inputs.versions,
    services,
    paths: [...new Set(services.flatMap((s) => s.ports.map((p) => p.path)))],
    sdkTypes: [...sdkTypes].sort(),
    schemaTypes: [...schemaTypes].sort(),
    runtimeTypes: [...runtimeTypes].sort(),
    descriptorImports: inputs.mock ? services.map((s) => s.descriptor).sort() : [],
  };
}

/** One service's context; `servedBy` is which service came first at each path, so far. */
function serviceContext(
  inputs: ContextInputs,
  s: Service,
  servedBy: Map<string, string>,
): ServiceContext {
  const names = inputs.plan.names.service(s);
  const methodOf = (op: Operation) => inputs.plan.names.method(s, op.name);
  return {
    name: s.name,
    object: `${names.serviceInterface.charAt(0).toLowerCase()}${names.serviceInterface.slice(1)}`,
    serviceType: names.serviceInterface,
    partialType: names.partialService,
    contextType: names.context,
    handlerFactory: names.handlerFactory,
    client: names.client,
    descriptor: names.descriptor,
    operations: s.operations.map((op) =>
      operationContext(inputs, op, methodOf(op), names.context, names.descriptor),
    ),
    ports: s.ports.map((p) => {
      const path = portPath(p.address);
      const first = servedBy.get(servedKey(path)) ?? s.name;
      servedBy.set(servedKey(path), first);
      return {
        name: p.name,
        binding: BINDING_LABEL[p.binding.protocol],
        path,
        shadowedBy: first === s.name ? "" : first,
        operations: portOperations(p, s.operations, methodOf),
      };
    }),
  };
}

/**
 * The operations a port carries, in the service's order, each with the one it is answered as: the
 * first in the binding's order with the same request (as the model's WSDL_AMBIGUOUS_OPERATIONS).
 */
function portOperations(
  port: Port,
  operations: readonly Operation[],
  methodOf: (op: Operation) => string,
): PortOperation[] {
  const first = new Map<string, string>();
  const answeredAs = new Map<Operation, string>();
  for (const bop of port.binding.operations) {
    const key = requestKey(bop);
    answeredAs.set(bop.operation, first.get(key) ?? "");
    if (!first.has(key)) first.set(key, bop.operation.name);
  }
  return operations.flatMap((op) => {
    const answered = answeredAs.get(op);
    return answered === undefined
      ? []
      : [{ name: op.name, method: methodOf(op), answeredAs: answered }];
  });
}

/**
 * The path a port is served at, as the runtime's handler computes it. An address that is no URL
 * (`http://[bad`) is the root here; the handler refuses it at start, and no diagnostic says so yet.
 */
/** Paths one handler answers alike: with and without a trailing slash, in any case. */
const servedKey = (path: string): string => path.replace(/\/+$/, "").toLowerCase();

function portPath(address: string | undefined): string {
  try {
    return addressPath(address ?? "");
  } catch {
    return "/";
  }
}

/**
 * A located warning for each port served at the path of an earlier service's port: the earlier
 * service's handler answers every request there, so the later one's operations are out of reach.
 */
export function sharedPathWarnings(model: WsdlModel): Diagnostic[] {
  const first = new Map<string, string>();
  const out: Diagnostic[] = [];
  for (const s of model.services)
    for (const p of s.ports) {
      const path = portPath(p.address);
      const earlier = first.get(servedKey(path)) ?? s.name;
      first.set(servedKey(path), earlier);
      if (earlier === s.name) continue;
      const message = `port ${p.name} of service ${s.name} is served at ${path}, as service ${earlier} is, whose handler then answers every request there; expected each service at a path of its own (give one handler another with its \`path\` option in src/main.ts)`;
      out.push(diagnostic("SCAFFOLD_SHARED_PATH", message, p.loc, "warning"));
    }
  return out;
}

function operationContext(
  inputs: ContextInputs,
  op: Operation,
  method: string,
  contextType: string,
  descriptor: string,
): OperationContext {
  // The types are printed by the SDK's own type printer, into a file that imports from the index.
  const file = new GeneratedFile("service.ts");
  const ctx: EmitContext = {
    plan: inputs.plan,
    file,
    runtime: RUNTIME,
    typesModule: SDK_TYPES,
    docs: inputs.docs,
  };
  const inputType = printType(typeExpr(ctx, op.input, "output"));
  const outputType = printType(resultType(ctx, op.result, "input"));
  return {
    name: op.name,
    method,
    descriptor,
    doc: inputs.docs && op.doc ? docComment(op.doc.trim(), "  ") : "",
    inputType,
    outputType,
    contextType,
    imports: file.importedNames(),
  };
}

const printType = (code: Parameters<typeof printStatement>[0]["code"]): string =>
  printStatement({ code }).replace(/;?\n*$/, "");
