/**
 * Diagnostics are data: a code, a message, and where in which input file the problem is.
 * Every stage reports problems this way; only the CLI turns them into text.
 */
import type { ERRORS, LIMITATIONS, RECOVERIES, WARNINGS } from "./diagnostic-codes.js";

export type Severity = "error" | "warning";

/**
 * Every code a stage reports, derived from the tables that say what each means: a misspelt or
 * undocumented code is a compile error.
 */
export type DiagnosticCode =
  keyof typeof RECOVERIES | keyof typeof LIMITATIONS | keyof typeof ERRORS | keyof typeof WARNINGS;

export interface SourceLocation {
  /** The file path or URL of the document, as the user named it (or as resolved from an import). */
  readonly file: string;
  /** 1-based line, 0 when unknown. */
  readonly line: number;
  /** 1-based column, 0 when unknown. */
  readonly column: number;
}

export interface Diagnostic extends SourceLocation {
  /** A stable identifier, e.g. `WSDL_MISSING_ATTRIBUTE`. */
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  /** What was found and what was expected, as one sentence. */
  readonly message: string;
}

/** Thrown by the stages when they cannot go on; carries one or more diagnostics. */
export class DiagnosticError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join("\n"));
    this.name = "DiagnosticError";
    this.diagnostics = diagnostics;
  }
}

export function diagnostic(
  code: DiagnosticCode,
  message: string,
  at: SourceLocation,
  severity: Severity = "error",
): Diagnostic {
  return { code, severity, message, file: at.file, line: at.line, column: at.column };
}

/** Throws a single error diagnostic. */
export function fail(code: DiagnosticCode, message: string, at: SourceLocation): never {
  throw new DiagnosticError([diagnostic(code, message, at)]);
}

/** `file:line:column: severity CODE: message`, the form editors and CI logs link. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line > 0 ? `${d.file}:${d.line}:${d.column}` : d.file;
  return `${where}: ${d.severity} ${d.code}: ${d.message}`;
}

/** Collects diagnostics across a stage; `throwIfErrors` stops at the end of the stage. */
export class DiagnosticBag {
  readonly items: Diagnostic[] = [];
  private readonly seen = new Set<string>();
  /**
   * Adds `d` unless the same diagnostic (code, place and message) is already here: a component
   * resolved from several places reports once.
   */
  add(d: Diagnostic): void {
    const key = `${d.severity}\u0000${d.code}\u0000${d.file}\u0000${d.line}\u0000${d.column}\u0000${d.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.items.push(d);
  }
  error(code: DiagnosticCode, message: string, at: SourceLocation): void {
    this.add(diagnostic(code, message, at, "error"));
  }
  warn(code: DiagnosticCode, message: string, at: SourceLocation): void {
    this.add(diagnostic(code, message, at, "warning"));
  }
  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === "error");
  }
  throwIfErrors(): void {
    if (this.hasErrors) throw new DiagnosticError(this.items.filter((d) => d.severity === "error"));
  }
}
