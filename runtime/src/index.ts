/**
 * `@wsdl-tsgen/runtime`: what generated code imports. Descriptors say what the XML looks like; the
 * runtime encodes, decodes and transports. It never reads a WSDL.
 */
export { XsdDate, XsdDateTime, XsdTime, isTemporalLexical } from "./temporal.js";
export type { XsdDateInput, XsdDateTimeInput, XsdTimeInput, TemporalKind } from "./temporal.js";
export { formatScalar, parseScalar, ValueFormatError } from "./scalars.js";
export type { ScalarKind } from "./scalars.js";
export {
  array,
  attribute,
  complex,
  field,
  OPTIONAL,
  OPTIONAL_NILLABLE,
  REPEATED,
  REPEATED_NILLABLE,
  scalar,
  UNBOUNDED,
  xs,
} from "./descriptors.js";
export type {
  ArrayDesc,
  EncodedArray,
  AttrDesc,
  BodyDesc,
  ComplexDesc,
  FamilyDesc,
  FamilyOptions,
  FieldDesc,
  ScalarDesc,
  TypeDesc,
} from "./descriptors.js";
export type {
  FaultDesc,
  HttpOperationDesc,
  HttpParamDesc,
  OperationDesc,
  PortDesc,
  Protocol,
  ServiceDesc,
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
export { ServiceClient } from "./client.js";
export { undescribedOf } from "./undescribed.js";
export type { CallOptions, ClientOptions, Exchange, SoapRequestInfo } from "./client.js";
export { decodeDocument, decodeXml, XmlDecodeError, nodeText, childNode } from "./xml-reader.js";
export type { DecodeLimits, DecodeOptions, XmlNode } from "./xml-reader.js";
export {
  escapeAttr,
  escapeText,
  writeElement,
  writeField,
  writeNode,
  XSD_NS,
  XSI_NS,
} from "./xml-writer.js";
export {
  bodyEnvelope,
  decodeEnvelope,
  envelope,
  faultEnvelope,
  faultCode,
  SOAP11_ENV,
  SOAP12_ENV,
} from "./soap.js";
export { decodeHttpParams, encodeHttpParams, HttpParamError } from "./http-binding.js";
export { createServiceHandler, requestContext } from "./server.js";
export { parseContentType } from "./content-type.js";
export type {
  HandlerOptions,
  OperationHandler,
  RequestContext,
  RequestListener,
} from "./server.js";
export type { EmbeddedWsdl } from "./embedded-wsdl.js";
export { parseAsmxDateTime } from "./asmx-dates.js";
export { passwordMatches, usernameToken, WSSE_NS, WSU_NS } from "./ws-security.js";
export type { ReceivedUsernameToken, UsernameTokenOptions } from "./ws-security.js";
