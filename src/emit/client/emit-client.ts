/** The view of client.ts: one client class per service, one async method per operation. */
import type { Service } from "../../model/model.js";
import { jsDoc, sourceDoc } from "../docs.js";
import type { SettledStatements } from "../format.js";
import { symbol } from "../generated-file.js";
import { settleMember } from "../settle-members.js";
import { headerTypes, resultType, typeExpr, type EmitContext } from "../type-expressions.js";

/** The view; each method is one member (`settled` holds those whose layout is final). */
export function clientView(
  ctx: EmitContext,
  services: readonly Service[],
  descriptorsModule: string,
  settled: SettledStatements,
): object {
  const rt = (name: string, typeOnly = false) => ctx.file.use(symbol(name, ctx.runtime, typeOnly));
  return {
    clients: services.map((s) => {
      const names = ctx.plan.serviceNames.get(s)!;
      const defaultPort = s.ports.find((p) => p.binding.protocol === "soap11") ?? s.ports[0];
      // With declared SOAP headers: the request's entries in input form, the response's (onSoapHeaders) as decoded.
      const callOptions = s.soapHeaders
        ? `${rt("CallOptions", true)}<${headerTypes(ctx, s.soapHeaders, "input", "output")}>`
        : rt("CallOptions", true);
      return {
        serviceName: s.name,
        portName: names.portName,
        portUnion: s.ports.length
          ? s.ports.map((p) => JSON.stringify(p.name)).join(" | ")
          : "never",
        optionsName: names.clientOptions,
        // With declared SOAP headers, options carry them typed: `soapHeaders` on the client and per call.
        headersInput: s.soapHeaders ? `, ${typeExpr(ctx, s.soapHeaders, "input")}` : "",
        ClientOptions: rt("ClientOptions", true),
        ServiceClient: rt("ServiceClient"),
        className: names.client,
        doc: jsDoc(sourceDoc(ctx, s.doc) ?? `A client of service ${s.name}.`),
        defaultPort: defaultPort?.name ?? "none",
        descriptor: ctx.file.use(symbol(names.descriptor, descriptorsModule)),
        methods: s.operations.map((op) => {
          const result = resultType(ctx, op.result, "output");
          const call = `this.#client.call(${JSON.stringify(op.name)}, input, options)`;
          const member = [
            `${jsDoc(sourceDoc(ctx, op.doc), "  ")}  async ${names.methods.get(op.name)!}(input: ${typeExpr(ctx, op.input, "input")}, options?: ${callOptions}): Promise<${result}> {`,
            result === "void" ? `    await ${call};` : `    return (await ${call}) as ${result};`,
            "  }",
          ].join("\n");
          return settled.add(member, settleMember(member));
        }),
      };
    }),
  };
}
