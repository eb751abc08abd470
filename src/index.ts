/** `wsdl-tsgen`: the programmatic API. Generated code imports `@wsdl-tsgen/runtime` instead. */
export { generate, generateFiles, loadWsdl, sourceLabel } from "./generate.js";
export type { GenerateOptions, GenerateResult, LoadResult } from "./generate.js";
export { DiagnosticError, formatDiagnostic } from "./diagnostics.js";
export type { Diagnostic, Severity, SourceLocation } from "./diagnostics.js";
export type * from "./model/model.js";
export type {
  OperationContext,
  PortContext,
  ScaffoldContext,
  ScaffoldVersions,
  ServiceContext,
  TypeImport,
} from "./scaffold/context.js";
// The network options as the CLI reads them: a scaffolded mock's `npm run record` uses them too.
export { PASSWORD_ENV, transportOf } from "./config/network.js";
export type { NetworkFlags } from "./config/network.js";
