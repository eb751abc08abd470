/** client.ts: one client class per service, one async method per operation. */
import type { Operation, Service } from "../../model/model.js";
import { sourceDoc } from "../docs.js";
import { symbol } from "../generated-file.js";
import {
  block,
  call,
  cat,
  params,
  typeArgs,
  union,
  type Code,
  type Member,
  type Statement,
} from "../code.js";
import { headerTypes, resultType, typeExpr, type EmitContext } from "../type-expressions.js";

/** The statements of client.ts. */
export function clientStatements(
  ctx: EmitContext,
  services: readonly Service[],
  descriptorsModule: string,
): Statement[] {
  return services.flatMap((s) => serviceClient(ctx, s, descriptorsModule));
}

function serviceClient(ctx: EmitContext, s: Service, descriptorsModule: string): Statement[] {
  const rt = (name: string, typeOnly = false) => ctx.file.use(symbol(name, ctx.runtime, typeOnly));
  const names = ctx.plan.serviceNames.get(s)!;
  const defaultPort = s.ports.find((p) => p.binding.protocol === "soap11") ?? s.ports[0];
  // With declared SOAP headers: the request's entries in input form, the response's (onSoapHeaders)
  // as decoded.
  const callOptions: Code = s.soapHeaders
    ? typeArgs(rt("CallOptions", true), headerTypes(ctx, s.soapHeaders, "input", "output"))
    : rt("CallOptions", true);
  // With declared SOAP headers, options carry them typed: `soapHeaders` on the client and per call.
  const optionsArgs = [
    names.portName,
    ...(s.soapHeaders ? [typeExpr(ctx, s.soapHeaders, "input")] : []),
  ];
  const portUnion = s.ports.length ? union(s.ports.map((p) => JSON.stringify(p.name))) : "never";
  const client = rt("ServiceClient");
  const descriptor = ctx.file.use(symbol(names.descriptor, descriptorsModule));
  const members: Member[] = [
    { code: `readonly #client: ${client};` },
    {
      gap: true,
      doc: `Uses the port \`options.port\`, by default the first SOAP 1.1 port (${defaultPort?.name ?? "none"}).`,
      code: block(`constructor(options: ${names.clientOptions} = {})`, [
        { code: cat("this.#client = new ", call(client, descriptor, "options"), ";") },
      ]),
    },
    {
      gap: true,
      doc: "The port this client sends to.",
      code: block(`get port(): ${names.portName}`, [
        { code: `return this.#client.port.name as ${names.portName};` },
      ]),
    },
    ...s.operations.map((op) => method(ctx, op, names.methods.get(op.name)!, callOptions)),
  ];
  return [
    {
      doc: `The ports of service ${s.name}: the client talks to the service over the one you choose.`,
      code: cat(`export type ${names.portName} = `, portUnion, ";"),
    },
    {
      code: cat(
        `export type ${names.clientOptions} = `,
        typeArgs(rt("ClientOptions", true), optionsArgs),
        ";",
      ),
    },
    {
      doc: sourceDoc(ctx, s.doc) ?? `A client of service ${s.name}.`,
      code: block(`export class ${names.client}`, members),
    },
  ];
}

function method(ctx: EmitContext, op: Operation, name: string, callOptions: Code): Member {
  const result = resultType(ctx, op.result, "output");
  const sent = call("this.#client.call", JSON.stringify(op.name), "input", "options");
  const signature = cat(
    `async ${name}`,
    params([cat("input: ", typeExpr(ctx, op.input, "input")), cat("options?: ", callOptions)]),
    ": Promise<",
    result,
    ">",
  );
  const body =
    result === "void"
      ? cat("await ", sent, ";")
      : cat("return (await ", sent, ") as ", result, ";");
  return { gap: true, doc: sourceDoc(ctx, op.doc), code: block(signature, [{ code: body }]) };
}
