/**
 * server.ts: one implementation type and one handler factory per service. The implementation's
 * type is mapped from the service descriptor's, and the runtime calls its methods by the names the
 * descriptor gives: no forwarding table.
 */
import type { Service } from "../../model/model.js";
import { symbol } from "../generated-file.js";
import { block, call, cat, object, params, typeArgs, type Code, type Statement } from "../code.js";
import type { EmitContext } from "../type-expressions.js";

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
  const rt = (name: string, typeOnly = false) => ctx.file.use(symbol(name, ctx.runtime, typeOnly));
  const names = ctx.plan.serviceNames.get(s)!;
  const descriptor = ctx.file.use(symbol(names.descriptor, descriptorsModule));
  const served = call(
    rt("createServiceHandler"),
    descriptor,
    wsdlArgument(ctx, wsdl),
    "impl",
    "options",
  );
  const protocols = [...new Set(s.ports.map((p) => PROTOCOL_LABEL[p.binding.protocol]))].join(", ");
  const wsdlNote = wsdl
    ? "`?WSDL`"
    : "`?WSDL` when `options.wsdl` holds the WSDL text (it was not embedded)";
  const factory = cat(
    `export function ${names.handlerFactory}`,
    params([`impl: ${names.serviceInterface}`, `options: ${names.handlerOptions} = {}`]),
    `: ${rt("RequestListener", true)}`,
  );
  const implementation = typeArgs(rt("Implementation", true), [`typeof ${descriptor}`]);
  return [
    {
      doc: `The implementation of service ${s.name}: one method per operation, with the same typed inputs and results as the client. Throw \`SoapFault\` with code "Client" or "Server" to answer with a fault.`,
      code: cat(`export type ${names.serviceInterface} = `, implementation, ";"),
    },
    { code: `export type ${names.handlerOptions} = ${rt("HandlerOptions", true)};` },
    {
      doc: `A Node request listener (also Express middleware) serving \`impl\` over every binding of\n${s.name}: ${protocols}, and ${wsdlNote}.`,
      code: block(factory, [{ code: cat("return ", served, ";") }]),
    },
  ];
}

/** The handler's WSDL argument: the embedded text, with its imported documents, or undefined. */
function wsdlArgument(ctx: EmitContext, wsdl: EmbeddedWsdlModule | undefined): Code {
  if (wsdl === undefined) return "undefined";
  const root = ctx.file.use(symbol("WSDL", wsdl.module));
  if (!wsdl.imports) return root;
  return object([
    ["root", root],
    ["imports", ctx.file.use(symbol("WSDL_IMPORTS", wsdl.module))],
  ]);
}
