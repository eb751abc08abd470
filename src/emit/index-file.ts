/** index.ts: what a user imports, each name from the file that declares it. */
import type { EmitPlan, ServiceNames } from "../transform/plan.js";
import { INDEX_RUNTIME_TYPES, INDEX_RUNTIME_VALUES } from "../transform/names.js";
import { cat, names, type Statement } from "./code.js";
import { hasConstants } from "./types/declarations.js";

/** The export statements of index.ts; `declared` the type names types.ts and the others declare. */
export function indexStatements(
  plan: EmitPlan,
  runtimeImport: string,
  enumConstants: boolean,
  declared: readonly string[],
): Statement[] {
  const services = plan.model.services;
  const of = (pick: (n: ServiceNames) => string[]) =>
    services.flatMap((s) => pick(plan.names.service(s))).sort();
  const faults = [...plan.names.faults.values()].map((f) => f.className).sort();
  const exports = (type: boolean, from: string, list: readonly string[]): Statement[] =>
    list.length === 0
      ? []
      : [
          {
            code: cat(
              `export ${type ? "type " : ""}`,
              names(list),
              ` from ${JSON.stringify(from)};`,
            ),
          },
        ];
  // An enumeration with a const object is exported once, as a value (which carries its type too).
  const constants = enumConstants ? enumNames(plan) : [];
  const typeOnly = [...new Set(declared)].filter((n) => !constants.includes(n));
  const body = [
    ...exports(true, runtimeImport, INDEX_RUNTIME_TYPES),
    ...exports(true, "./types.js", typeOnly.sort()),
    ...exports(false, "./types.js", constants.sort()),
    ...exports(
      true,
      "./client.js",
      of((n) => [n.clientOptions]),
    ),
    ...exports(
      true,
      "./server.js",
      of((n) => [n.serviceInterface, n.partialService, n.context, n.handlerOptions]),
    ),
    ...exports(false, runtimeImport, INDEX_RUNTIME_VALUES),
    ...exports(
      false,
      "./client.js",
      of((n) => [n.client]),
    ),
    ...exports(
      false,
      "./server.js",
      of((n) => [n.handlerFactory]),
    ),
    ...exports(false, "./faults.js", faults),
  ];
  return body;
}

/** The names of the enumerations types.ts declares, each of which gets a const object. */
function enumNames(plan: EmitPlan): string[] {
  return plan.model.types.flatMap((t) =>
    t.kind === "simple" && hasConstants(t) ? [plan.names.type(t).type] : [],
  );
}
