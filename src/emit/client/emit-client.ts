/**
 * client.ts: one client class per service, made by the runtime from the service descriptor, and its
 * interface written out, one async method per operation with the types of types.ts. Written out
 * rather than mapped from the descriptor's type, so that a user's tsc reads it as it is; the
 * generator's tests check that the two agree (test/types/descriptor-agreement.test.ts).
 */
import type { Service } from "../../model/model.js";
import { rt, rtType, sourceDoc, type EmitContext } from "../context.js";
import { symbol } from "../generated-file.js";
import { block, call, cat, functionType, typeArgs, type Code, type Statement } from "../code.js";
import { headerTypes, typeExpr } from "../type-expressions.js";
import { propertyKey } from "../../names/identifiers.js";
import { operationForm, streamedItem } from "../types/service-types.js";

/** The statements of client.ts. */
export function clientStatements(
  ctx: EmitContext,
  services: readonly Service[],
  descriptorsModule: string,
): Statement[] {
  return services.flatMap((s) => serviceClient(ctx, s, descriptorsModule));
}

function serviceClient(ctx: EmitContext, s: Service, descriptorsModule: string): Statement[] {
  const names = ctx.plan.names.service(s);
  const portName = ctx.file.use(symbol(names.portName, "./types.js", true));
  // With declared SOAP headers, options carry them typed: `soapHeaders` on the client and per call.
  const optionsArgs = [portName, ...(s.soapHeaders ? [typeExpr(ctx, s.soapHeaders, "input")] : [])];
  const descriptor = ctx.file.use(symbol(names.descriptor, descriptorsModule));
  const doc = sourceDoc(ctx, s.doc) ?? `A client of service ${s.name}.`;
  const defaultPort = s.ports.find((p) => p.binding.protocol === "soap11") ?? s.ports[0];
  const made = typeArgs(rt(ctx, "clientClass"), [
    `typeof ${descriptor}`,
    names.client,
    names.clientOptions,
  ]);
  return [
    {
      code: cat(
        `export type ${names.clientOptions} = `,
        typeArgs(rtType(ctx, "ClientOptions"), optionsArgs),
        ";",
      ),
    },
    { doc, code: block(`export interface ${names.client}`, clientMembers(ctx, s, portName)) },
    {
      doc: `${doc}\n\nOne async method per operation, sent over the port \`options.port\`, by default the first SOAP 1.1 port (${defaultPort?.name ?? "none"}).`,
      code: cat(`export const ${names.client} = `, call(made, descriptor), ";"),
    },
  ];
}

/** The client's port, then one method per operation: its input, call options and result. */
function clientMembers(ctx: EmitContext, s: Service, portName: string): Statement[] {
  const callOptions: Code = s.soapHeaders
    ? typeArgs(rtType(ctx, "CallOptions"), headerTypes(ctx, s.soapHeaders, "input", "output"))
    : rtType(ctx, "CallOptions");
  const methods = s.operations.map((op) => {
    const input = operationForm(ctx, op, "input");
    const signature = functionType(
      [cat("input: ", input), cat("options?: ", callOptions)],
      typeArgs("Promise", [operationForm(ctx, op, "output")]),
    );
    return {
      doc: sourceDoc(ctx, op.doc),
      code: cat(`readonly ${propertyKey(ctx.plan.names.method(s, op.name))}: `, signature, ";"),
    };
  });
  return [
    { doc: "The port this client sends to.", code: `readonly port: ${portName};` },
    ...methods,
    ...streamMember(ctx, s, callOptions),
  ];
}

/**
 * `stream`: one method per operation whose result may be streamed, iterating its items as they
 * arrive (the runtime's client/stream.ts); none when no result may be.
 */
function streamMember(ctx: EmitContext, s: Service, callOptions: Code): Statement[] {
  const methods = s.operations.flatMap((op) => {
    const item = streamedItem(ctx, op, "output");
    if (!item) return [];
    const signature = functionType(
      [cat("input: ", operationForm(ctx, op, "input")), cat("options?: ", callOptions)],
      typeArgs("AsyncIterable", [item]),
    );
    return [
      {
        doc: sourceDoc(ctx, op.doc),
        code: cat(`readonly ${propertyKey(ctx.plan.names.method(s, op.name))}: `, signature, ";"),
      },
    ];
  });
  if (methods.length === 0) return [];
  return [
    {
      doc: "The results that may be streamed: each method iterates its result's items as they arrive, in bounded memory (a `break` closes the connection).",
      code: block("readonly stream:", methods, "};"),
    },
  ];
}
