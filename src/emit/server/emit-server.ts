/** The view of server.ts: one implementation interface and one handler factory per service. */
import type { Service } from "../../model/model.js";
import { jsDoc, sourceDoc } from "../docs.js";
import type { SettledStatements } from "../format.js";
import { symbol } from "../generated-file.js";
import { objectKey } from "../identifiers.js";
import { settleMember, settleProperty } from "../settle-members.js";
import { headerTypes, resultType, typeExpr, type EmitContext } from "../type-expressions.js";

const PROTOCOL_LABEL = {
  soap11: "SOAP 1.1",
  soap12: "SOAP 1.2",
  httpGet: "HTTP GET",
  httpPost: "HTTP POST",
} as const;

/** The view; interface methods and handler entries are members (`settled` holds those whose layout is final). */
/** `wsdl`: the module holding the embedded WSDL, and whether it has imported documents (WSDL_IMPORTS); undefined when not embedded. */
export function serverView(
  ctx: EmitContext,
  services: readonly Service[],
  descriptorsModule: string,
  wsdl: { readonly module: string; readonly imports: boolean } | undefined,
  settled: SettledStatements,
): object {
  const wsdlModule = wsdl?.module;
  const rt = (name: string, typeOnly = false) => ctx.file.use(symbol(name, ctx.runtime, typeOnly));
  return {
    servers: services.map((s) => {
      const names = ctx.plan.serviceNames.get(s)!;
      // With declared SOAP headers, the context carries them typed.
      const context = s.soapHeaders
        ? `${rt("RequestContext", true)}<${headerTypes(ctx, s.soapHeaders, "output", "input")}>`
        : rt("RequestContext", true);
      return {
        serviceName: s.name,
        interfaceName: names.serviceInterface,
        optionsName: names.handlerOptions,
        factoryName: names.handlerFactory,
        HandlerOptions: rt("HandlerOptions", true),
        RequestListener: rt("RequestListener", true),
        // Typed SOAP headers: the handler is told the context type once, for every entry.
        createServiceHandler: s.soapHeaders
          ? `${rt("createServiceHandler")}<${context}>`
          : rt("createServiceHandler"),
        descriptor: ctx.file.use(symbol(names.descriptor, descriptorsModule)),
        wsdl:
          wsdlModule === undefined
            ? "undefined"
            : wsdl!.imports
              ? `{ root: ${ctx.file.use(symbol("WSDL", wsdlModule))}, imports: ${ctx.file.use(symbol("WSDL_IMPORTS", wsdlModule))} }`
              : ctx.file.use(symbol("WSDL", wsdlModule)),
        wsdlNote:
          wsdlModule === undefined
            ? "`?WSDL` when `options.wsdl` holds the WSDL text (it was not embedded)"
            : "`?WSDL`",
        protocols: [...new Set(s.ports.map((p) => PROTOCOL_LABEL[p.binding.protocol]))].join(", "),
        doc: jsDoc(
          `The implementation of service ${s.name}: one method per operation, with the same typed inputs and results as the client. Throw \`SoapFault\` with code "Client" or "Server" to answer with a fault.`,
        ),
        methods: s.operations.map((op) => {
          const result = resultType(ctx, op.result, "input");
          const member = `${jsDoc(sourceDoc(ctx, op.doc), "  ")}  ${names.methods.get(op.name)!}(input: ${typeExpr(ctx, op.input, "output")}, context: ${context}): ${result} | Promise<${result}>;`;
          return settled.add(member, settleMember(member));
        }),
        handlers: s.operations.map((op) => {
          const entry = `      ${objectKey(op.name)}: (input: ${typeExpr(ctx, op.input, "output")}, context) => impl.${names.methods.get(op.name)!}(input, context),`;
          return settled.addProperty(entry, settleProperty(entry));
        }),
      };
    }),
  };
}
