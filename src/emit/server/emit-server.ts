/**
 * server.ts: per service, the implementation's type, its partial form and its context's type, and
 * one handler factory. The implementation's type is written out with the types of types.ts (a
 * user's tsc reads it as it is; the generator's tests check it against the descriptor), and the
 * runtime calls its methods by the names the descriptor gives: no forwarding table.
 */
import type { Service } from "../../model/model.js";
import { symbol } from "../generated-file.js";
import {
  block,
  call,
  cat,
  functionType,
  object,
  params,
  typeArgs,
  union,
  type Code,
  type Member,
  type Statement,
} from "../code.js";
import { rt, rtType, sourceDoc, type EmitContext } from "../context.js";
import { headerTypes, unionMembers } from "../type-expressions.js";
import { propertyKey } from "../../names/identifiers.js";
import { operationForm, streamedItem } from "../types/service-types.js";

const PROTOCOL_LABEL = {
  soap11: "SOAP 1.1",
  soap12: "SOAP 1.2",
  httpGet: "HTTP GET",
  httpPost: "HTTP POST",
} as const;

/**
 * Where the WSDL served at `?WSDL` is embedded, and whether it has imported documents
 * (WSDL_IMPORTS).
 */
export interface EmbeddedWsdlModule {
  readonly module: string;
  readonly imports: boolean;
}

/** The statements of server.ts; `wsdl` is undefined when the WSDL is not embedded. */
export function serverStatements(
  ctx: EmitContext,
  services: readonly Service[],
  descriptorsModule: string,
  wsdl: EmbeddedWsdlModule | undefined,
): Statement[] {
  return services.flatMap((s) => serviceServer(ctx, s, descriptorsModule, wsdl));
}

function serviceServer(
  ctx: EmitContext,
  s: Service,
  descriptorsModule: string,
  wsdl: EmbeddedWsdlModule | undefined,
): Statement[] {
  const names = ctx.plan.names.service(s);
  const descriptor = ctx.file.use(symbol(names.descriptor, descriptorsModule));
  const embedded = wsdlArgument(ctx, wsdl);
  const init = object([
    ["service", descriptor],
    ...(embedded ? [["embeddedWsdl", embedded] as [string, Code]] : []),
    ["impl", "impl"],
    ["options", "options"],
  ]);
  const handler = typeArgs(rt(ctx, "createServiceHandler"), [
    `typeof ${descriptor}`,
    names.partialService,
  ]);
  const served = call(handler, init);
  const protocols = [...new Set(s.ports.map((p) => PROTOCOL_LABEL[p.binding.protocol]))].join(", ");
  const wsdlNote = wsdl
    ? "`?WSDL`"
    : "`?WSDL` when `options.wsdl` holds the WSDL text (it was not embedded)";
  // The partial type: a full implementation is one too, and a value declared `: ApiService` is
  // still checked in full where it is declared (a union with the full type would add nothing).
  const factory = cat(
    `export function ${names.handlerFactory}`,
    params([`impl: ${names.partialService}`, `options: ${names.handlerOptions} = {}`]),
    `: ${rtType(ctx, "RequestListener")}`,
  );
  return [
    {
      doc: `The implementation of service ${s.name}: one method per operation, with the same typed inputs and results as the client. Throw \`SoapFault\` with code "Client" or "Server" to answer with a fault.`,
      code: block(`export interface ${names.serviceInterface}`, serviceMembers(ctx, s)),
    },
    {
      doc: `An implementation of only some operations of service ${s.name}: each operation left out answers a Server fault on every binding${notImplementedExample(s)}, as \`notImplemented\` from the runtime builds it.`,
      code: cat(
        `export type ${names.partialService} = `,
        typeArgs("Partial", [names.serviceInterface]),
        ";",
      ),
    },
    {
      doc: `What a method of ${names.serviceInterface} receives besides its input: the request's headers, typed SOAP headers, binding, port and operation, and \`setResponseSoapHeaders\`.`,
      code: cat(`export type ${names.context} = `, contextType(ctx, s), ";"),
    },
    { code: `export type ${names.handlerOptions} = ${rtType(ctx, "HandlerOptions")};` },
    {
      doc: `A Node request listener (also Express middleware) serving \`impl\` over every binding of\n${s.name}: ${protocols}, and ${wsdlNote}.`,
      code: block(factory, [{ code: cat("return ", served, ";") }]),
    },
  ];
}

/** One method per operation: its input and context, its result or a promise of it. */
function serviceMembers(ctx: EmitContext, s: Service): Member[] {
  const names = ctx.plan.names.service(s);
  return s.operations.map((op) => {
    const input = operationForm(ctx, op, "serverInput");
    const output = operationForm(ctx, op, "serverOutput");
    const item = streamedItem(ctx, op, "input");
    const streamed = item ? [typeArgs("Iterable", [item]), typeArgs("AsyncIterable", [item])] : [];
    const one = union([...unionMembers(output), ...streamed]);
    const result = union([...unionMembers(one), typeArgs("Promise", [one])]);
    return {
      doc: sourceDoc(ctx, op.doc),
      code: cat(
        `readonly ${propertyKey(ctx.plan.names.method(s, op.name))}: `,
        functionType([cat("input: ", input), `context: ${names.context}`], result),
        ";",
      ),
    };
  });
}

/** The request context, with the service's SOAP headers typed as received and sent. */
function contextType(ctx: EmitContext, s: Service): Code {
  const context = rtType(ctx, "RequestContext");
  return s.soapHeaders
    ? typeArgs(context, headerTypes(ctx, s.soapHeaders, "output", "input"))
    : context;
}

/** The not-implemented fault's message for the service's first operation, as an example. */
function notImplementedExample(s: Service): string {
  const name = s.operations[0]?.name;
  return name === undefined ? "" : ` ("The operation ${name} is not implemented." for ${name})`;
}

/** The handler's embedded WSDL: the text, with its imported documents; none when not embedded. */
function wsdlArgument(ctx: EmitContext, wsdl: EmbeddedWsdlModule | undefined): Code | undefined {
  if (wsdl === undefined) return undefined;
  const root = ctx.file.use(symbol("WSDL", wsdl.module));
  if (!wsdl.imports) return root;
  return object([
    ["root", root],
    ["imports", ctx.file.use(symbol("WSDL_IMPORTS", wsdl.module))],
  ]);
}
