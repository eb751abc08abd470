/** The view of server.ts: one implementation interface and one handler factory per service. */
import type { Service } from "../../model/model.js";
import { jsDoc, sourceDoc } from "../docs.js";
import { symbol } from "../generated-file.js";
import { propertyKey } from "../identifiers.js";
import { resultType, typeExpr, type EmitContext } from "../type-expressions.js";

const PROTOCOL_LABEL = { soap11: "SOAP 1.1", soap12: "SOAP 1.2", httpGet: "HTTP GET", httpPost: "HTTP POST" } as const;

export function serverView(ctx: EmitContext, services: readonly Service[], descriptorsModule: string, wsdlModule: string | undefined): object {
  const rt = (name: string, typeOnly = false) => ctx.file.use(symbol(name, ctx.runtime, typeOnly));
  return {
    RequestContext: services.length > 0 ? rt("RequestContext", true) : "",
    servers: services.map((s) => {
      const names = ctx.plan.serviceNames.get(s)!;
      return {
        serviceName: s.name,
        interfaceName: names.serviceInterface,
        optionsName: names.handlerOptions,
        factoryName: names.handlerFactory,
        HandlerOptions: rt("HandlerOptions", true),
        RequestListener: rt("RequestListener", true),
        createServiceHandler: rt("createServiceHandler"),
        descriptor: ctx.file.use(symbol(names.descriptor, descriptorsModule)),
        wsdl: wsdlModule === undefined ? "undefined" : ctx.file.use(symbol("WSDL", wsdlModule)),
        wsdlNote: wsdlModule === undefined ? "`?WSDL` when `options.wsdl` holds the WSDL text (it was not embedded)" : "`?WSDL`",
        protocols: [...new Set(s.ports.map((p) => PROTOCOL_LABEL[p.binding.protocol]))].join(", "),
        // With declared SOAP headers, the context carries them typed.
        context: s.soapHeaders ? `${rt("RequestContext", true)}<${typeExpr(ctx, s.soapHeaders, "output")}>` : rt("RequestContext", true),
        contextCast: s.soapHeaders ? ` as ${rt("RequestContext", true)}<${typeExpr(ctx, s.soapHeaders, "output")}>` : "",
        doc: jsDoc(`The implementation of service ${s.name}: one method per operation, with the same typed inputs and results as the client. Throw \`SoapFault\` with code "Client" or "Server" to answer with a fault.`),
        methods: s.operations.map((op) => ({
          doc: sourceDoc(ctx, op.doc) ? jsDoc(op.doc, "  ").trimStart() + "  " : "",
          name: names.methods.get(op.name)!,
          opKey: propertyKey(op.name),
          inputType: typeExpr(ctx, op.input, "output"),
          resultType: resultType(ctx, op.result, "input"),
        })),
      };
    }),
  };
}
