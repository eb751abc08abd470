/**
 * The seams through which a client and a server secure their SOAP messages (`ClientOptions.security`,
 * `HandlerOptions.security`): typed interfaces only, so that the client and server never load an
 * implementation. `@wsdl-tsgen/runtime/wss` gives one that signs with X.509 certificates.
 */
import type { X509Certificate } from "node:crypto";
import type { SoapVersion } from "../errors.js";

/** Secures a client's requests and checks its responses. */
export interface ClientMessageSecurity {
  /** The request envelope as it is to be sent (signed, say). */
  secureRequest(envelope: string, version: SoapVersion): string;
  /**
   * Checks a response envelope before its result or fault is given to the caller; throws (a
   * `SecurityRefusal`) when it is not acceptable.
   */
  checkResponse?(envelope: string, version: SoapVersion): void;
  /**
   * Checks a fault envelope: the certificate that signed it, or none when it is unsigned (a fault
   * is given either way, marked `verified` or not); throws a `SecurityRefusal` when it is signed
   * and its signature does not verify.
   */
  checkFault?(envelope: string, version: SoapVersion): CheckedFault;
}

/** What a client's check of a fault found (`SoapFault.verified`, `SoapFault.signer`). */
export interface CheckedFault {
  /** The certificate whose signature of the fault was verified. */
  readonly signer?: X509Certificate;
}

/** What a server's check of a request found, for the implementation (`RequestContext.signer`). */
export interface CheckedRequest {
  /** The certificate that signed the request, when it was signed. */
  readonly signer?: X509Certificate;
}

/** Checks a server's requests before the implementation sees them, and secures its responses. */
export interface ServerMessageSecurity {
  /** Throws a `SecurityRefusal` for a request that is not acceptable. */
  checkRequest(envelope: string | Uint8Array, version: SoapVersion): CheckedRequest;
  /** The response envelope as it is to be sent (signed, say). */
  secureResponse?(envelope: string, version: SoapVersion): string;
  /** The header entries marked mustUnderstand that the check processes (`wsse:Security`). */
  understands(ns: string, local: string): boolean;
}

/**
 * A message refused for its security. `message` names what failed in words fit to send back (a
 * server puts it in a Client/Sender fault): nothing in it depends on secrets or on how far the
 * check got into a value.
 */
export class SecurityRefusal extends Error {
  constructor(
    message: string,
    /** What failed, for code to test. */
    readonly reason: string,
    /** `cause`: for a fault whose signature failed, the fault (unverified). */
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "SecurityRefusal";
  }
}
