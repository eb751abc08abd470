/**
 * What generating one source takes, from its entry in the config file (or the command line's
 * flags): every per-source option, each defaulting as the options table says. One reading for
 * `generate` and `scaffold --update`, so that neither drops a setting the other honours.
 */
import type { GenerateOptions } from "../generate.js";
import { transportOf } from "./network.js";
import { OPTIONS, type SourceOptions } from "./options.js";

export async function generateOptionsOf(
  source: SourceOptions,
): Promise<Omit<GenerateOptions, "check">> {
  return {
    out: source.out,
    runtimeImport: source.runtimeImport ?? OPTIONS.runtimeImport.default,
    ...(source.namespaceNames ? { namespaceNames: source.namespaceNames } : {}),
    ...(source.headers ? { headers: source.headers } : {}),
    transport: await transportOf(source),
    ...(source.operations ? { operations: source.operations } : {}),
    enumConstants: source.enumConstants ?? OPTIONS.enumConstants.default,
    embedWsdl: source.embedWsdl ?? OPTIONS.embedWsdl.default,
    docs: source.docs ?? OPTIONS.docs.default,
    strict: source.strict ?? OPTIONS.strict.default,
    format: source.format ?? OPTIONS.format.default,
  };
}
