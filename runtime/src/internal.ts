/**
 * `@wsdl-tsgen/runtime/internal`: what the generator shares with the runtime (one XML tokenizer,
 * one set of scalar rules, the HTTP binding's location patterns). Not for applications: it may
 * change in any release; generated code never imports it.
 */
export { tokenizeXml, XmlDtdError, XmlSyntaxError } from "./xml-tokenizer.js";
export type { XmlAttribute, XmlTag } from "./xml-tokenizer.js";
export { positionOf } from "./text-position.js";
export { fetchFailure } from "./errors.js";
export { escapeRegExp, locationParameters } from "./http-binding.js";
export { BodyTooLargeError, readBody } from "./http-body.js";
export { isInheritedName } from "./own-props.js";
export { parseScalar } from "./scalars.js";
export type { ScalarKind } from "./scalars.js";
export { takeUserinfo, withAuthorization } from "./userinfo.js";
export { EMBEDDED_DOCUMENT } from "./embedded-wsdl.js";
export type { EmbeddedWsdl } from "./embedded-wsdl.js";
