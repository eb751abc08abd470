/**
 * `--operations`: the services cut down to the operations named, so that only the types those
 * reach are generated. A name no service has is an error that lists the names there are.
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics.js";
import type { Port, Service } from "./model.js";

/** `services` with only the operations named in `names` (WSDL operation names), on every port. */
export function selectOperations(
  services: readonly Service[],
  names: readonly string[],
  diagnostics: DiagnosticBag,
  at: SourceLocation,
): Service[] {
  const wanted = new Set(names);
  const known = new Set(services.flatMap((s) => s.operations.map((op) => op.name)));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    diagnostics.error(
      "OPTION_INVALID",
      `operations: found ${unknown.map((n) => JSON.stringify(n)).join(", ")}, which no service of this WSDL has; expected WSDL operation names among ${[...known].join(", ")}`,
      at,
    );
    return [...services];
  }
  const selected: Service[] = [];
  for (const s of services) {
    const operations = s.operations.filter((op) => wanted.has(op.name));
    if (operations.length === 0) continue;
    const ports = s.ports.map((p): Port => {
      const kept = p.binding.operations.filter((bop) => wanted.has(bop.operation.name));
      return { ...p, binding: { ...p.binding, operations: kept } };
    });
    selected.push({ ...s, operations, ports });
  }
  return selected;
}
