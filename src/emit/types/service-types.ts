/**
 * The TypeScript side of each service in types.ts: its port names and its operations by method
 * name. The service descriptor's type carries them, and the client and implementation types are
 * mapped from it by the runtime.
 */
import type { Operation, Service } from "../../model/model.js";
import { block, cat, union, type Member, type Statement } from "../code.js";
import { sourceDoc, type EmitContext } from "../context.js";
import { propertyKey } from "../../names/identifiers.js";
import { resultType, typeExpr, type Mode } from "../type-expressions.js";
import { withAttachments } from "./attachment-types.js";

/** The port name union and the operations interface of every service. */
export function serviceTypes(ctx: EmitContext, services: readonly Service[]): Statement[] {
  return services.flatMap((s) => {
    const names = ctx.plan.serviceNames.get(s)!;
    const ports = s.ports.length ? union(s.ports.map((p) => JSON.stringify(p.name))) : "never";
    const members = s.operations.map((op) => operationTypes(ctx, op, names.methods.get(op.name)!));
    return [
      {
        doc: `The ports of service ${s.name}: the client talks to the service over the one you choose.`,
        code: cat(`export type ${names.portName} = `, ports, ";"),
      },
      {
        doc: `The operations of service ${s.name}, by method: what a client sends (\`input\`) and receives (\`output\`), what an implementation receives (\`serverInput\`) and returns (\`serverOutput\`).`,
        code: block(`export interface ${names.operations}`, members),
      },
    ];
  });
}

/** One operation's member: its documentation and the forms of its input and result. */
function operationTypes(ctx: EmitContext, op: Operation, method: string): Member {
  const input = (mode: Mode) =>
    withAttachments(typeExpr(ctx, op.input, mode), op.attachments?.input);
  const output = (mode: Mode) =>
    withAttachments(resultType(ctx, op.result, mode), op.attachments?.output);
  const forms: Member[] = [
    { code: cat("input: ", input("input"), ";") },
    { code: cat("output: ", output("output"), ";") },
    { code: cat("serverInput: ", input("output"), ";") },
    { code: cat("serverOutput: ", output("input"), ";") },
  ];
  return {
    doc: sourceDoc(ctx, op.doc),
    code: block(`${propertyKey(method)}:`, forms, "};"),
  };
}
