/** The errors a generated client rejects with, and that a server implementation may throw. */
import type { X509Certificate } from "node:crypto";
import type { XmlNode } from "./support/xml-node.js";

// The transport's own errors live beside it, which imports nothing above it.
export { AuthenticationError, TransportError } from "./transport/errors.js";

export type SoapVersion = "1.1" | "1.2";

export interface SoapFaultInit {
  /**
   * The fault code. A server implementation may give `Client`/`Sender` or `Server`/`Receiver`
   * (mapped to the SOAP version of the request); a client receives it as sent, e.g. `soap:Client`.
   */
  readonly code: string;
  readonly message: string;
  /**
   * The fault detail: a tree when received; when thrown by a server, XML text to place inside it.
   */
  readonly detail?: XmlNode | string;
  /**
   * The HTTP status: as received; when thrown by a server, the status to answer with (4xx or 5xx;
   * by default 500, as ASMX answers; another is logged and answered 500).
   */
  readonly httpStatus?: number;
  /**
   * When thrown by a server: sent as `Retry-After` (with a 503 or 429, say: "try again in so
   * long"); a value that is no whole number from 0 is logged and not sent.
   */
  readonly retryAfterSeconds?: number;
  readonly soapVersion?: SoapVersion;
  /**
   * Set by a client when the detail holds a declared fault's element that did not decode: why the
   * fault is given untyped.
   */
  readonly detailError?: Error;
  /** Set by a client whose `security` verified the fault: the certificate that signed it. */
  readonly signer?: X509Certificate;
}

/** A SOAP fault: received by a client, or thrown by a server implementation to send one. */
export class SoapFault extends Error {
  readonly code: string;
  readonly detail: XmlNode | string | undefined;
  readonly httpStatus: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly soapVersion: SoapVersion | undefined;
  /** The certificate that signed the fault, when it was verified. */
  readonly signer: X509Certificate | undefined;
  /**
   * Received by a client: why a detail that holds a declared fault's element did not decode into
   * that fault's class (the fault is then this untyped SoapFault, its detail the tree received).
   */
  readonly detailError: Error | undefined;
  constructor(init: SoapFaultInit) {
    super(init.message);
    this.name = "SoapFault";
    this.code = init.code;
    this.detail = init.detail;
    this.httpStatus = init.httpStatus;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.soapVersion = init.soapVersion;
    this.signer = init.signer;
    this.detailError = init.detailError;
  }
  /**
   * Received by a client: whether the fault was signed and its signature verified by the client's
   * `security` (a fault unsigned, or received with no verifying security, is given all the same,
   * unverified). False for a fault thrown by a server.
   */
  get verified(): boolean {
    return this.signer !== undefined;
  }
  /** `Client` or `Server`, whatever the SOAP version and prefix: who is to blame. */
  get side(): "Client" | "Server" {
    const local = this.code.slice(this.code.indexOf(":") + 1);
    return local === "Server" || local === "Receiver" ? "Server" : "Client";
  }
}

/** An HTTP GET/POST binding (or a SOAP endpoint) answered with an HTTP error and no SOAP fault. */
export class HttpBindingError extends Error {
  readonly status: number;
  readonly body: string;
  constructor(status: number, body: string, message?: string) {
    super(
      message ??
        `HTTP ${status}${body.trim() ? `: ${body.trim().split("\n")[0]!.slice(0, 200)}` : ""}`,
    );
    this.name = "HttpBindingError";
    this.status = status;
    this.body = body;
  }
}

/** A call of an operation the client's port does not have (it is on another binding, or none). */
export class OperationUnavailableError extends Error {
  constructor(
    readonly operation: string,
    readonly port: string,
  ) {
    super(`operation ${operation} is not available on port ${port}; choose a port that has it`);
    this.name = "OperationUnavailableError";
  }
}

/** A response arrived but is not what the service's WSDL promises. */
export class ResponseFormatError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "ResponseFormatError";
  }
}

/**
 * A streamed result (`client.stream.op(…)`) that failed after it had yielded items: a fault, XML
 * that is malformed or not what the WSDL promises, a connection lost, a limit passed. What went
 * wrong is its `cause`; the items yielded before it stand.
 */
export class StreamedResultError extends Error {
  constructor(
    /** How many items the iteration yielded before the failure. */
    readonly itemsYielded: number,
    cause: unknown,
  ) {
    super(
      `the streamed result failed after ${itemsYielded} item${itemsYielded === 1 ? "" : "s"}: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
      { cause },
    );
    this.name = "StreamedResultError";
  }
}

const NETWORK_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host lookup failed",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  // TLS: what the server's alert or our check means, and the option that answers it.
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED:
    "the server requires a client certificate (tls: { cert, key } or { pfx })",
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: "the server does not trust the client certificate's CA",
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: "the server refused the client certificate",
  SELF_SIGNED_CERT_IN_CHAIN:
    "the server's certificate is signed by a CA not trusted here (tls: { ca })",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    "the server's certificate is signed by a CA not trusted here (tls: { ca })",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's certificate is self-signed and not trusted here",
  CERT_HAS_EXPIRED: "the server's certificate has expired",
};

/** What a fetch of `url` (a URL fetch accepted) on a port it never connects to says. */
function badPort(url: string): string {
  const port = new URL(url).port;
  const which = port ? `port ${port}` : "the port";
  return `${which} is one fetch refuses to connect to (a 'bad port' of the Fetch standard)`;
}

/**
 * Why a fetch failed, in words: fetch itself says only "fetch failed", its cause says what happened
 * (`connection refused (ECONNREFUSED) to 127.0.0.1:8080`).
 */
export function fetchFailure(e: unknown, url: string): string {
  if (!(e instanceof Error)) return String(e);
  if (e.name === "TimeoutError") return "timed out";
  const cause = (e.cause ?? {}) as Partial<
    Record<"code" | "address" | "port" | "hostname" | "message", unknown>
  >;
  const detail = typeof cause.message === "string" ? cause.message : undefined;
  if (detail === "bad port") return badPort(url);
  if (typeof cause.code !== "string") return detail ? `${e.message}: ${detail}` : e.message;
  const port = cause.port !== undefined ? `:${String(cause.port)}` : "";
  const to =
    typeof cause.address === "string"
      ? ` to ${cause.address}${port}`
      : typeof cause.hostname === "string"
        ? `: ${cause.hostname}`
        : "";
  return `${NETWORK_CODES[cause.code] ?? detail ?? "failed"} (${cause.code})${to}`;
}
