/**
 * client.ts: one client class per service, made by the runtime from the service descriptor, whose
 * type gives its methods (one async method per operation): no cast, no method written out.
 */
import type { Service } from "../../model/model.js";
import { rt, rtType, sourceDoc, type EmitContext } from "../context.js";
import { symbol } from "../generated-file.js";
import { call, cat, typeArgs, type Statement } from "../code.js";
import { typeExpr } from "../type-expressions.js";

/** The statements of client.ts. */
export function clientStatements(
  ctx: EmitContext,
  services: readonly Service[],
  descriptorsModule: string,
): Statement[] {
  return services.flatMap((s) => serviceClient(ctx, s, descriptorsModule));
}

function serviceClient(ctx: EmitContext, s: Service, descriptorsModule: string): Statement[] {
  const names = ctx.plan.serviceNames.get(s)!;
  // With declared SOAP headers, options carry them typed: `soapHeaders` on the client and per call.
  const optionsArgs = [
    ctx.file.use(symbol(names.portName, "./types.js", true)),
    ...(s.soapHeaders ? [typeExpr(ctx, s.soapHeaders, "input")] : []),
  ];
  const descriptor = ctx.file.use(symbol(names.descriptor, descriptorsModule));
  const doc = sourceDoc(ctx, s.doc) ?? `A client of service ${s.name}.`;
  const defaultPort = s.ports.find((p) => p.binding.protocol === "soap11") ?? s.ports[0];
  return [
    {
      code: cat(
        `export type ${names.clientOptions} = `,
        typeArgs(rtType(ctx, "ClientOptions"), optionsArgs),
        ";",
      ),
    },
    {
      doc: `${doc}\n\nOne async method per operation, sent over the port \`options.port\`, by default the first SOAP 1.1 port (${defaultPort?.name ?? "none"}).`,
      code: cat(`export const ${names.client} = `, call(rt(ctx, "clientClass"), descriptor), ";"),
    },
    {
      doc,
      code: cat(
        `export type ${names.client} = `,
        typeArgs(rtType(ctx, "Client"), [`typeof ${descriptor}`]),
        ";",
      ),
    },
  ];
}
