/**
 * What a client is configured with (`ClientOptions`) and each call may change (`CallOptions`), and
 * what it reports of an exchange: the types generated clients and the contract name, apart from
 * the client that reads them.
 */
import type { SoapVersion } from "../errors.js";
import type { UsernameTokenOptions } from "../soap/ws-security.js";
import type { ClientMessageSecurity } from "../soap/message-security.js";
import type { TransportOptions } from "../transport/options.js";

export interface ClientOptions<
  PortName extends string = string,
  SoapHeaders extends object = object,
> extends TransportOptions {
  /**
   * The service URL, e.g. `http://host/api.asmx`. Default: the chosen port's address in the WSDL.
   * `http://user:password@host/…` sends Basic authorization (unless `headers` has an
   * Authorization).
   */
  readonly endpoint?: string;
  /** Which `wsdl:port` to use. Default: the first SOAP 1.1 port. */
  readonly port?: PortName;
  /**
   * The fetch implementation. Default: the global `fetch`, or the Node transport when `auth`,
   * `proxy`, `tls`, `agent`, `keepAlive` or `connectTimeoutMs` is given or the environment names a
   * proxy for the endpoint (docs/transport.md).
   */
  readonly fetch?: typeof fetch;
  /**
   * Time-out per call in milliseconds. Default: 60 000. For a streamed call (`client.stream`), the
   * longest wait for the response's head and then for each next chunk, not for the whole result.
   */
  readonly timeoutMs?: number;
  /**
   * The largest response body accepted, in bytes: a larger one is not read further and the call
   * fails with a TransportError. Default: 256 MiB (`Infinity` for no limit). A streamed call
   * (`client.stream`) is bounded by `maxItemBytes` instead.
   */
  readonly maxResponseBytes?: number;
  /**
   * A streamed call (`client.stream`): the most bytes read without an item completing (one item,
   * or what comes before the first): past it, the iteration fails and the connection is closed.
   * Default: 16 MiB.
   */
  readonly maxItemBytes?: number;
  /**
   * The largest attachment of an MTOM response accepted, in bytes (each part; `maxResponseBytes`
   * bounds them all). Default: `maxResponseBytes`.
   */
  readonly maxAttachmentBytes?: number;
  /**
   * A response's attachment part (MTOM or SOAP with Attachments) of at least this many bytes is
   * written to a temporary file as it arrives and given as a Blob; smaller ones are Uint8Arrays.
   * The files live until `releaseAttachments(result)` or the process's exit, and are removed at
   * once when the call fails. A security that checks signatures gets the spooled parts when it
   * declares `checksSpooledParts` (`x509Security` does); otherwise they stay in memory. Default:
   * 1 MiB.
   */
  readonly attachmentSpoolBytes?: number;
  /**
   * Send SOAP requests as MTOM (XOP) packages: each base64Binary value of at least `threshold`
   * bytes (default 1024) goes as an attachment part rather than as base64 text. `true` is `{}`.
   * MTOM responses are read whatever this says. Default: the port's WSDL policy
   * (`wsoma:OptimizedMimeSerialization`), else false.
   */
  readonly mtom?: boolean | { readonly threshold?: number };
  /** Extra headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Reject responses that lack a required element or hold a value outside an enumeration. Default:
   * true.
   */
  readonly strict?: boolean;
  /**
   * A response element the schema does not describe where it stands, or an occurrence beyond
   * maxOccurs: "keep" it as raw XML, reachable with `undescribedOf(value)` on the object or array
   * it was found in, or "refuse" the response with a ResponseFormatError naming it. Default:
   * "keep"; one inside a simple value, or beside a result that is no object, is refused either way.
   */
  readonly undescribed?: "keep" | "refuse";
  /**
   * SOAP header entries sent with every call, by element name: each operation sends the ones its
   * binding declares (`soap:header`). Per-call `soapHeaders` replace entries of the same name.
   */
  readonly soapHeaders?: SoapHeaders;
  /**
   * A WS-Security UsernameToken sent in a `wsse:Security` header with every SOAP request, for
   * services that require one without declaring it (Workday, many CXF and Metro services).
   */
  readonly wsSecurity?: UsernameTokenOptions;
  /**
   * Secures each SOAP request once it is written and checks each response before its result is
   * given: `x509Security` of `@wsdl-tsgen/runtime/wss` signs with an X.509 certificate and
   * verifies signed responses (docs/ws-security.md). A response it refuses rejects the call with a
   * `SecurityRefusal` naming what failed; a fault is given as it came.
   */
  readonly security?: ClientMessageSecurity;
  /**
   * SOAP header entries the WSDL does not declare, as XML written into every SOAP request's Header
   * as given (after `wsSecurity`, before the declared ones): WS-Addressing for a WCF wsHttpBinding
   * service, a vendor's session header. A function is asked per request. The `soap` prefix is bound
   * to the envelope's namespace; the XML must be well-formed header entries.
   */
  readonly extraSoapHeaders?: string | ((request: SoapRequestInfo) => string);
  /**
   * Receives every HTTP exchange once its response has been read (or has failed): the request and
   * response as sent and received, for logging and debugging. An `Authorization` header and a
   * WS-Security password are given as `[redacted]` unless `traceCredentials` is true; other secrets
   * the request carries (a password parameter of the operation itself) are given as sent. An error
   * it throws rejects the call.
   */
  readonly trace?: (exchange: Exchange) => void;
  /**
   * `xsi:type` on values of types that others extend: "derived", only where a value's type is a
   * derived one; "always", on every such value (services that, like Salesforce's, expect it).
   * Default: "derived".
   */
  readonly xsiType?: "derived" | "always";
  /** Give `trace` the Authorization header and WS-Security password as sent. Default: false. */
  readonly traceCredentials?: boolean;
}

/** What `ClientOptions.extraSoapHeaders` is told about the request it writes headers for. */
export interface SoapRequestInfo {
  readonly operation: string;
  /** The SOAPAction (SOAP 1.1) or action parameter (SOAP 1.2), if the binding gives one. */
  readonly action: string | undefined;
  readonly endpoint: string;
  readonly soapVersion: SoapVersion;
}

/** One HTTP exchange of a call, as `ClientOptions.trace` receives it. */
export interface Exchange {
  readonly port: string;
  readonly operation: string;
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** The request body ("" for GET). */
  readonly requestBody: string;
  /**
   * The response: its status, headers (names in lower case) and body as text. Absent when none
   * came.
   */
  readonly response?: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string;
  };
  /** Why no response came (a time-out, a refused connection, a body over `maxResponseBytes`). */
  readonly error?: unknown;
  /** From sending the request to the end of the response body, in milliseconds. */
  readonly durationMs: number;
}

export interface CallOptions<
  SoapHeaders extends object = object,
  ResponseSoapHeaders extends object = SoapHeaders,
> {
  readonly signal?: AbortSignal;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /**
   * This call may be sent twice (it changes nothing, or the same each time): with the client's
   * `retry`, a 503 with Retry-After is retried. Default: the client's `retry.idempotent`.
   */
  readonly idempotent?: boolean;
  /** SOAP header entries for this call, over the client's `soapHeaders`. */
  readonly soapHeaders?: SoapHeaders;
  /**
   * Receives the SOAP header entries of the response that the service declares (a tracking id,
   * say), before the result resolves or a fault rejects; not called over HTTP GET/POST.
   */
  readonly onSoapHeaders?: (headers: ResponseSoapHeaders) => void;
}
