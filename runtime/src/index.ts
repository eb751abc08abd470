/**
 * `@wsdl-tsgen/runtime`: what generated code imports, and what applications that use it need (its
 * errors, request contexts, WS-Security helpers, sample values for mocks and tests, and the types
 * these name). Descriptors say what the XML looks like; the runtime encodes, decodes and
 * transports. It never reads a WSDL. The machinery under them (the XML reader and writer,
 * envelopes, the untyped client) is in `@wsdl-tsgen/runtime/internal`.
 */
export { CONTRACT_VERSION, generatedFor } from "./contract.js";
export type {
  AnyServiceDesc,
  CallOptionsOf,
  Client,
  ClientClass,
  ClientOptionsOf,
  Implementation,
  MethodOf,
  OperationOf,
  PartialImplementation,
  RequestContextOf,
} from "./contract.js";
export { XsdDate, XsdDateTime, XsdTime } from "./temporal.js";
export type { XsdDateInput, XsdDateTimeInput, XsdTimeInput } from "./temporal.js";
export { ValueFormatError } from "./scalars.js";
export type { ScalarKind } from "./scalars.js";
export {
  array,
  attribute,
  complex,
  fault,
  field,
  fieldsIn,
  httpOperations,
  OPTIONAL,
  OPTIONAL_NILLABLE,
  REPEATED,
  REPEATED_NILLABLE,
  REQUIRED,
  scalar,
  soapOperations,
  UNBOUNDED,
  xs,
} from "./descriptors.js";
export type {
  ArrayDesc,
  EncodedArray,
  AttrDesc,
  BodyDesc,
  BodyInit,
  ComplexDesc,
  FamilyDesc,
  FamilyOptions,
  FaultClass,
  FieldDesc,
  FieldIn,
  HttpOperationInit,
  InputOf,
  ScalarDesc,
  SoapOperationInit,
  TypeDesc,
  ValueOf,
} from "./descriptors.js";
export type {
  FaultDesc,
  HttpOperationDesc,
  HttpParamDesc,
  OperationDesc,
  OperationTable,
  OperationTypes,
  PortDesc,
  Protocol,
  ServiceDesc,
  SoapHeaderForms,
  SoapOperationDesc,
} from "./operations.js";
export {
  HttpBindingError,
  OperationUnavailableError,
  ResponseFormatError,
  SoapFault,
  TransportError,
} from "./errors.js";
export type { SoapFaultInit, SoapVersion } from "./errors.js";
export { clientClass } from "./client-class.js";
export { undescribedOf } from "./undescribed.js";
export type { CallOptions, ClientOptions, Exchange, SoapRequestInfo } from "./client.js";
export type { DecodeLimits, XmlNode } from "./xml-reader.js";
export { createServiceHandler, requestContext } from "./server.js";
export { notImplemented } from "./server-call.js";
export { sampleInput, sampleOutput } from "./sample-values.js";
export type { HandlerOptions, RequestContext, RequestListener } from "./server.js";
export type { EmbeddedWsdl } from "./embedded-wsdl.js";
export { passwordMatches, usernameToken, WSSE_NS, WSU_NS } from "./ws-security.js";
export type { ReceivedUsernameToken, UsernameTokenOptions } from "./ws-security.js";
