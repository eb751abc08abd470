/** The view of client.ts: one client class per service, one async method per operation. */
import type { Service } from "../../model/model.js";
import { jsDoc, sourceDoc } from "../docs.js";
import { symbol } from "../generated-file.js";
import { resultType, typeExpr, type EmitContext } from "../type-expressions.js";

export function clientView(ctx: EmitContext, services: readonly Service[], descriptorsModule: string): object {
  const rt = (name: string, typeOnly = false) => ctx.file.use(symbol(name, ctx.runtime, typeOnly));
  return {
    CallOptions: services.length > 0 ? rt("CallOptions", true) : "",
    clients: services.map((s) => {
      const names = ctx.plan.serviceNames.get(s)!;
      const defaultPort = s.ports.find((p) => p.binding.protocol === "soap11") ?? s.ports[0];
      return {
        serviceName: s.name,
        portName: names.portName,
        portUnion: s.ports.length ? s.ports.map((p) => JSON.stringify(p.name)).join(" | ") : "never",
        optionsName: names.clientOptions,
        // With declared SOAP headers, options carry them typed: `soapHeaders` on the client and per call.
        headersInput: s.soapHeaders ? `, ${typeExpr(ctx, s.soapHeaders, "input")}` : "",
        callOptions: s.soapHeaders ? `${rt("CallOptions", true)}<${typeExpr(ctx, s.soapHeaders, "input")}>` : rt("CallOptions", true),
        ClientOptions: rt("ClientOptions", true),
        ServiceClient: rt("ServiceClient"),
        className: names.client,
        doc: jsDoc(sourceDoc(ctx, s.doc) ?? `A client of service ${s.name}.`),
        defaultPort: defaultPort?.name ?? "none",
        descriptor: ctx.file.use(symbol(names.descriptor, descriptorsModule)),
        methods: s.operations.map((op) => {
          const result = resultType(ctx, op.result, "output");
          const opDoc = sourceDoc(ctx, op.doc);
          return {
            doc: jsDoc(opDoc, "  ").trimStart().replace(/\n(?!$)/g, "\n") + (opDoc ? "  " : ""),
            name: names.methods.get(op.name)!,
            opName: JSON.stringify(op.name),
            inputType: typeExpr(ctx, op.input, "input"),
            resultType: result,
            isVoid: result === "void",
          };
        }),
      };
    }),
  };
}
