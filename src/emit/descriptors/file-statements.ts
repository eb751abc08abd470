/** The statements of descriptors.ts that belong to no service: its contract version, its faults. */
import { CONTRACT_VERSION } from "@wsdl-tsgen/runtime/internal";
import { call, cat, type Statement } from "../code.js";
import { symbol } from "../generated-file.js";
import { rt, rtType, type EmitContext } from "../context.js";
import { elementDeclCall } from "./emit-descriptors.js";

/** One FaultDesc const per fault class: its name, the element its detail carries, its class. */
export function faultDescriptors(ctx: EmitContext, faultsModule: string): Statement[] {
  return [...ctx.plan.names.faults.entries()].map(([element, f]) => {
    const cls = ctx.file.use(symbol(f.className, faultsModule));
    const args = [JSON.stringify(f.faultName), elementDeclCall(ctx, element), cls];
    const made = call(rt(ctx, "fault"), ...args);
    return {
      code: cat(`export const ${f.descriptor}: `, rtType(ctx, "FaultDesc"), " = ", made, ";"),
    };
  });
}

/**
 * `generatedFor(N);`, first in descriptors.ts: importing the code with a runtime that reads
 * another contract version fails there, saying so.
 */
export function contractStatement(ctx: EmitContext): Statement {
  return {
    doc: "The version of the contract with @wsdl-tsgen/runtime this code was generated for: another runtime refuses it here.",
    code: cat(call(rt(ctx, "generatedFor"), String(CONTRACT_VERSION)), ";"),
  };
}
