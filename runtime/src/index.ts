/**
 * `@wsdl-tsgen/runtime`: what generated code imports, and what applications that use it need (its
 * errors, request contexts, WS-Security helpers, sample values for mocks and tests, and the types
 * these name). Descriptors say what the XML looks like; the runtime encodes, decodes and
 * transports. It never reads a WSDL. The machinery under them (the XML reader and writer,
 * envelopes, the untyped client) is in `@wsdl-tsgen/runtime/internal`.
 */
export { CONTRACT_VERSION, generatedFor } from "./descriptors/contract.js";
export type { AnyServiceDesc, MethodOf, OperationOf } from "./descriptors/contract.js";
export type { CallOptionsOf, Client, ClientClass, ClientOptionsOf } from "./client/contract.js";
export type { Implementation, PartialImplementation, RequestContextOf } from "./server/contract.js";
export { XsdDate, XsdDateTime, XsdTime } from "./scalars/temporal.js";
export type { XsdDateInput, XsdDateTimeInput, XsdTimeInput } from "./scalars/temporal.js";
export { ValueFormatError } from "./scalars/scalars.js";
export { jsonReplacer } from "./support/json.js";
export type { ScalarKind } from "./scalars/scalars.js";
export {
  array,
  attribute,
  complex,
  field,
  fieldsIn,
  OPTIONAL,
  OPTIONAL_NILLABLE,
  REPEATED,
  REPEATED_NILLABLE,
  REQUIRED,
  scalar,
  UNBOUNDED,
  xs,
} from "./descriptors/builders.js";
export { fault, httpOperations, param, soapOperations } from "./descriptors/operations.js";
export type {
  ArrayDesc,
  EncodedArray,
  AttrDesc,
  BodyDesc,
  ComplexDesc,
  FamilyDesc,
  FamilyOptions,
  FieldDesc,
  InputOf,
  ScalarDesc,
  Facets,
  TypeDesc,
  ValueOf,
} from "./descriptors/types.js";
export type {
  BodyInit,
  FaultClass,
  HttpOperationInit,
  SoapOperationInit,
} from "./descriptors/operations.js";
export type { FieldIn } from "./descriptors/builders.js";
export type {
  FaultDesc,
  HttpOperationDesc,
  HttpParamDesc,
  OperationDesc,
  OperationTable,
  OperationTypes,
  ParamOptions,
  PortDesc,
  Protocol,
  ServiceDesc,
  SoapHeaderForms,
  SoapOperationDesc,
  AttachmentDesc,
} from "./descriptors/operations.js";
export {
  AuthenticationError,
  HttpBindingError,
  OperationUnavailableError,
  ResponseFormatError,
  SoapFault,
  StreamedResultError,
  TransportError,
} from "./errors.js";
export type { SoapFaultInit, SoapVersion } from "./errors.js";
export { clientClass } from "./client/client-class.js";
export { ntlm } from "./transport/ntlm.js";
export type { NtlmOptions } from "./transport/ntlm.js";
export { basic } from "./transport/auth.js";
export type { AuthHandshake, Credentials, HttpAuthentication } from "./transport/auth.js";
export type { RetryOptions, TlsOptions, TransportOptions } from "./transport/options.js";
export { undescribedOf } from "./xml/undescribed.js";
export type { CallOptions, ClientOptions, Exchange, SoapRequestInfo } from "./client/options.js";
export { releaseAttachments, DEFAULT_SPOOL_BYTES } from "./mime/spool.js";
export type { PartContent, ReceivedBinary, SentBinary } from "./support/message-parts.js";
export type { DecodeLimits } from "./xml/decode-options.js";
export type { XmlNode } from "./support/xml-node.js";
export { createServiceHandler } from "./server/handler.js";
export { createServer, harden, SERVER_DEFAULTS } from "./server/listen.js";
export { plainAddress } from "./server/connection-limit.js";
export type { ServedHandler, ServerHardening } from "./server/listen.js";
export { requestContext } from "./server/context.js";
export { notImplemented } from "./server/call.js";
export { sampleInput, sampleOutput } from "./descriptors/sample-values.js";
export type { SampleOptions } from "./descriptors/sample-values.js";
export { createMocks, Mocks } from "./server/mock/mocks.js";
export type { MocksOptions } from "./server/mock/mocks.js";
export { MockFileError, REDACTED } from "./server/mock/types.js";
export type {
  DispatchStyle,
  MockConfig,
  MockFault,
  MockProblem,
  MockResponse,
} from "./server/mock/types.js";
export type { HandlerOptions, RequestListener, ServiceHandlerInit } from "./server/handler.js";
export type { RequestContext } from "./server/context.js";
export type { EmbeddedWsdl } from "./descriptors/embedded-wsdl.js";
export { passwordMatches, usernameToken, WSSE_NS, WSU_NS } from "./soap/ws-security.js";
export type { ReceivedUsernameToken, UsernameTokenOptions } from "./soap/ws-security.js";
export { SecurityRefusal } from "./soap/message-security.js";
export type {
  CheckedFault,
  CheckedRequest,
  ClientMessageSecurity,
  MessagePart,
  MessageParts,
  ServerMessageSecurity,
} from "./soap/message-security.js";
export { JsonValueError } from "./json/json-scalars.js";
export { fieldFromJson, fieldToJson, fromJsonValue, toJsonValue } from "./json/json-values.js";
export {
  operationInputFromJson,
  operationInputToJson,
  operationResultFromJson,
  operationResultToJson,
} from "./json/json-operations.js";
export { createGateway, failureLine, invokeOperation } from "./gateway/gateway.js";
export type { GatewayClient, GatewayOptions, PassedCredentials } from "./gateway/gateway.js";
export { failureProblem, faultProblem } from "./gateway/problems.js";
export type { Problem } from "./gateway/problems.js";
