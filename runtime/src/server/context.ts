/**
 * The request context an implementation method receives, apart from the server that makes it, so
 * that the contract's types (contract.ts) and the server's modules can both import it.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Protocol } from "../descriptors/operations.js";
import type { XmlNode } from "../support/xml-node.js";
import type { X509Certificate } from "node:crypto";

/** What an implementation method receives besides its typed input. */
export interface RequestContext<
  SoapHeaders extends object = Readonly<Record<string, unknown>>,
  ResponseSoapHeaders extends object = SoapHeaders,
> {
  /** The HTTP request headers. */
  readonly headers: IncomingHttpHeaders;
  /**
   * The SOAP header entries the service declares (`soap:header`) that the request carried, by
   * element name; empty over HTTP GET/POST and when none came.
   */
  readonly soapHeaders: SoapHeaders;
  /**
   * The SOAP header entries the service does not declare, as element trees: a `wsse:Security`
   * header (read it with `usernameToken`), WS-Addressing, and the like. Empty over HTTP GET/POST.
   */
  readonly soapHeaderElements: readonly XmlNode[];
  /**
   * Sets the SOAP header entries of the response (merged over earlier calls): the operation's
   * binding declares which ones it carries (`soap:header` in its output); they are sent with faults
   * too.
   */
  setResponseSoapHeaders(headers: ResponseSoapHeaders): void;
  readonly remoteAddress: string | undefined;
  /** The binding the request came over. */
  readonly binding: Protocol;
  /** The `wsdl:port` whose binding matched. */
  readonly port: string;
  readonly operation: string;
  /**
   * The certificate that signed the request, when the handler's `security` verified a signature
   * (`x509Security` of `@wsdl-tsgen/runtime/wss`).
   */
  readonly signer?: X509Certificate;
}

/**
 * A context for calling an implementation directly, as a unit test does: no request headers, no
 * SOAP headers, over SOAP 1.1, unless `overrides` says otherwise. What the implementation sets with
 * `setResponseSoapHeaders` is collected in `responseSoapHeaders`.
 */
export function requestContext<
  SoapHeaders extends object = Readonly<Record<string, unknown>>,
  ResponseSoapHeaders extends object = SoapHeaders,
>(
  overrides: Partial<
    Omit<RequestContext<SoapHeaders, ResponseSoapHeaders>, "setResponseSoapHeaders">
  > = {},
): RequestContext<SoapHeaders, ResponseSoapHeaders> & {
  readonly responseSoapHeaders: Partial<ResponseSoapHeaders>;
} {
  const responseSoapHeaders: Partial<ResponseSoapHeaders> = {};
  return {
    headers: {},
    soapHeaders: {} as SoapHeaders,
    soapHeaderElements: [],
    remoteAddress: undefined,
    binding: "soap11",
    port: "",
    operation: "",
    ...overrides,
    setResponseSoapHeaders: (h) => void Object.assign(responseSoapHeaders, h),
    responseSoapHeaders,
  };
}
