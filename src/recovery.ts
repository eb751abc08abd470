/**
 * Recovery from defects of the input, decided in one place. A WSDL whose vendor shipped it with a
 * defect (a type declared nowhere, an import nobody can fetch, the pre-2001 XML Schema namespace)
 * still generates: each stage reads it the way written here and records a located warning with one
 * of these codes. With the `strict` option every such warning becomes an error, so a pipeline can
 * refuse defective input; the reading itself never depends on `strict`.
 */
import { LIMITATIONS, RECOVERIES } from "./diagnostic-codes.js";
import { diagnostic, type Diagnostic, type SourceLocation } from "./diagnostics.js";

// The tables live with the other codes' (diagnostic-codes.ts), which diagnostics.ts derives its
// code
// type from without importing the functions here, which import it: no cycle.
export { LIMITATIONS, RECOVERIES };

export type RecoveryCode = keyof typeof RECOVERIES;

/** The located warning a stage records when it recovers from a defect. */
export function recovery(code: RecoveryCode, message: string, at: SourceLocation): Diagnostic {
  return diagnostic(code, message, at, "warning");
}

/** A warning that says the input was defective and how it was read anyway. */
export const isRecovery = (d: Diagnostic): boolean =>
  d.severity === "warning" && Object.hasOwn(RECOVERIES, d.code);

/**
 * A warning `--strict` refuses: a recovery from a defect, or a limitation (both tables of
 * diagnostic-codes.ts).
 */
export const isRefusedByStrict = (d: Diagnostic): boolean =>
  d.severity === "warning" &&
  (Object.hasOwn(RECOVERIES, d.code) || Object.hasOwn(LIMITATIONS, d.code));

/** The diagnostics as `strict` reports them: every recovery and limitation an error. */
export function strictly(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) =>
    isRefusedByStrict(d)
      ? {
          ...d,
          severity: "error",
          message: `${d.message} (strict: ${isRecovery(d) ? "recoveries from defects" : "limitations"} are errors)`,
        }
      : d,
  );
}
