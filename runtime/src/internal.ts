/**
 * `@wsdl-tsgen/runtime/internal`: what the generator shares with the runtime (one XML tokenizer,
 * one set of scalar rules, the HTTP binding's location patterns). Not for applications: it may
 * change in any release; generated code never imports it.
 */
export { tokenizeXml, XmlDtdError, XmlSyntaxError } from "./xml/tokenizer.js";
export type { XmlAttribute, XmlTag } from "./xml/tokens.js";
export { positionOf } from "./support/text-position.js";
export { isXmlSpace } from "./support/xml-space.js";
export { fetchFailure } from "./errors.js";
export { escapeRegExp, locationParameters } from "./http/binding.js";
export { BodyTooLargeError, readBody } from "./http/body.js";
export { isInheritedName } from "./support/own-props.js";
export { DECIMAL, NUMBER_RANGES, parseScalar } from "./scalars/scalars.js";
export { BASE64, NON_FINITE } from "./json/json-scalars.js";
export type { ScalarKind } from "./scalars/scalars.js";
export { takeUserinfo, withAuthorization } from "./http/userinfo.js";
export { EMBEDDED_DOCUMENT } from "./descriptors/embedded-wsdl.js";
export type { EmbeddedWsdl } from "./descriptors/embedded-wsdl.js";
export { CONTRACT_VERSION } from "./descriptors/contract.js";
export { scalarText, always0 } from "./descriptors/scalar-sample.js";
export type { Facets, ScalarDesc } from "./descriptors/types.js";
// The machinery under the public API: tests, benchmarks and tools use it, generated code does not.
export { formatScalar } from "./scalars/scalars.js";
export { isTemporalLexical } from "./scalars/temporal.js";
export type { TemporalKind } from "./scalars/temporal.js";
export { ServiceClient } from "./client/client.js";
export { decodeDocument, decodeXml } from "./xml/reader.js";
export { XmlDecodeError } from "./xml/decode-options.js";
export { nodeText, childNode } from "./support/xml-node.js";
export type { DecodeOptions } from "./xml/decode-options.js";
export { escapeAttr, escapeText } from "./xml/escape.js";
export { writeElement, writeField } from "./xml/writer.js";
export { writeNode } from "./xml/write-tree.js";
export { XSD_NS, XSI_NS } from "./xml/namespaces.js";
export {
  bodyEnvelope,
  decodeEnvelope,
  envelope,
  faultEnvelope,
  faultCode,
  SOAP11_ENV,
  SOAP12_ENV,
} from "./soap/envelope.js";
export { decodeHttpParams, encodeHttpParams, HttpParamError } from "./http/binding.js";
export { parseContentType } from "./http/content-type.js";
export { parseAsmxDateTime } from "./scalars/asmx-dates.js";
export { addressPath } from "./server/table.js";
export { clientFetch } from "./transport/select.js";
export type { FetchLike } from "./transport/transport.js";
export { OPERATION_FAILURES } from "./gateway/problems.js";
