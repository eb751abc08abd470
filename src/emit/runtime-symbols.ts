/**
 * Every name generated code imports from the runtime, in one table (as protobuf-es's
 * codegenv2/symbols.ts): emitters name runtime symbols only through it, so a misspelt or removed
 * name is a compile error here rather than a broken import in generated code.
 */
import type * as Runtime from "@wsdl-tsgen/runtime";
import type { INDEX_RUNTIME_TYPES, INDEX_RUNTIME_VALUES } from "../transform/names.js";

/**
 * What the runtime exports under a name: `type` (an interface or type alias, imported with
 * `import type`), `value` (a function or constant) or `class` (both: a type and a value).
 */
export type RuntimeKind = "type" | "value" | "class";

export const RUNTIME_SYMBOLS = {
  // Descriptors (descriptors.ts).
  array: "value",
  attribute: "value",
  complex: "value",
  fault: "value",
  field: "value",
  fieldsIn: "value",
  generatedFor: "value",
  httpOperations: "value",
  param: "value",
  scalar: "value",
  soapOperations: "value",
  xs: "value",
  OPTIONAL: "value",
  OPTIONAL_NILLABLE: "value",
  REPEATED: "value",
  REPEATED_NILLABLE: "value",
  REQUIRED: "value",
  UNBOUNDED: "value",
  ArrayDesc: "type",
  ComplexDesc: "type",
  FaultDesc: "type",
  ScalarDesc: "type",
  ServiceDesc: "type",
  SoapHeaderForms: "type",
  // Values of built-in types (types.ts).
  XmlNode: "type",
  XsdDate: "class",
  XsdDateInput: "type",
  XsdDateTime: "class",
  XsdDateTimeInput: "type",
  XsdTime: "class",
  XsdTimeInput: "type",
  ReceivedBinary: "type",
  SentBinary: "type",
  // Client (client.ts).
  CallOptions: "type",
  ClientOptions: "type",
  clientClass: "value",
  // Server (server.ts).
  createServiceHandler: "value",
  HandlerOptions: "type",
  RequestContext: "type",
  RequestListener: "type",
  // Faults and errors (faults.ts, index.ts).
  HttpBindingError: "class",
  OperationUnavailableError: "class",
  ResponseFormatError: "class",
  SoapFault: "class",
  SoapFaultInit: "type",
  StreamedResultError: "class",
  TransportError: "class",
  undescribedOf: "value",
} as const satisfies Record<string, RuntimeKind>;

export type RuntimeSymbol = keyof typeof RUNTIME_SYMBOLS;
type OfKind<K extends RuntimeKind> = {
  [N in RuntimeSymbol]: (typeof RUNTIME_SYMBOLS)[N] extends K ? N : never;
}[RuntimeSymbol];
/** A name usable in a value position: a function, a constant or a class. */
export type RuntimeValue = OfKind<"value" | "class">;
/** A name usable in a type position: an interface, a type alias or a class. */
export type RuntimeType = OfKind<"type" | "class">;
/** The runtime's named field options (`OPTIONAL` and the others), which descriptors.ts imports. */
export type RuntimeFieldOptions = Extract<
  RuntimeValue,
  "OPTIONAL" | "OPTIONAL_NILLABLE" | "REPEATED" | "REPEATED_NILLABLE"
>;

// Compile-time checks, types only: every value and class the table names is one the runtime
// exports, and the names index.ts re-exports (listed by transform/names.ts) are in the table.
type Holds<T extends true> = T;
export type RuntimeChecks = [
  Holds<[Exclude<RuntimeValue, keyof typeof Runtime>] extends [never] ? true : false>,
  Holds<(typeof INDEX_RUNTIME_TYPES)[number] extends RuntimeType ? true : false>,
  Holds<(typeof INDEX_RUNTIME_VALUES)[number] extends RuntimeValue ? true : false>,
];
