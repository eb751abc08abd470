/**
 * The seams through which a client and a server secure their SOAP messages
 * (`ClientOptions.security`, `HandlerOptions.security`): typed interfaces only, so that the client
 * and server never load an implementation. `@wsdl-tsgen/runtime/wss` gives one that signs with
 * X.509 certificates.
 */
import type { X509Certificate } from "node:crypto";
import type { SoapVersion } from "../errors.js";
import type { MessagePart, MessageParts } from "../support/message-parts.js";

export type { MessagePart, MessageParts };

/** Secures a client's requests and checks its responses. */
export interface ClientMessageSecurity {
  /**
   * The request envelope as it is to be sent (signed, say), with the attachment parts it is sent
   * beside, if any; a promise of it when the parts are read first (Blobs hashed as read).
   */
  secureRequest(
    envelope: string,
    version: SoapVersion,
    attachments?: readonly MessagePart[],
  ): string | Promise<string>;
  /**
   * Checks a response envelope (and a package's attachment parts) before its result or fault is
   * given to the caller; throws or rejects (a `SecurityRefusal`) when it is not acceptable.
   */
  checkResponse?(
    envelope: string,
    version: SoapVersion,
    attachments?: MessageParts,
  ): void | Promise<void>;
  /**
   * Whether `secureRequest` covers the attachment parts it is given. Without it, a request with
   * attachments is refused before it is sent: its signature would not cover them.
   */
  readonly securesAttachments?: boolean;
  /**
   * Checks a fault envelope: the certificate that signed it, or none when it is unsigned (a fault
   * is given either way, marked `verified` or not); throws a `SecurityRefusal` when it is signed
   * and its signature does not verify.
   */
  checkFault?(
    envelope: string,
    version: SoapVersion,
    attachments?: MessageParts,
  ): CheckedFault | Promise<CheckedFault>;
  /** See ServerMessageSecurity.checksSpooledParts. */
  readonly checksSpooledParts?: boolean;
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
  /**
   * Throws or rejects with a `SecurityRefusal` for a request that is not acceptable, its attachment
   * parts (a package's) included.
   */
  checkRequest(
    envelope: string | Uint8Array,
    version: SoapVersion,
    attachments?: MessageParts,
  ): CheckedRequest | Promise<CheckedRequest>;
  /**
   * The response envelope as it is to be sent (signed, say), beside its attachment parts; a promise
   * of it when the parts are read first. A fault's envelope (no parts) is secured synchronously.
   */
  secureResponse?(
    envelope: string,
    version: SoapVersion,
    attachments?: readonly MessagePart[],
  ): string | Promise<string>;
  /**
   * Whether `checkRequest` checks the attachment parts it is given and `secureResponse` covers
   * them. Without it, a request with attachments is refused, and a response with attachments is
   * not sent.
   */
  readonly securesAttachments?: boolean;
  /**
   * Whether the checks take received parts spooled to files (Blobs, above
   * `attachmentSpoolBytes`). Without it, a message whose parts are checked keeps them in memory.
   */
  readonly checksSpooledParts?: boolean;
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

const unsecured = (xml: string): string => xml;

/**
 * An envelope's securing beside its attachment parts: `secure` itself, or an Error for parts that a
 * security not covering attachments would leave unsigned (a signed envelope beside unsigned parts
 * would pass them off as signed).
 */
export function securing(
  security: ClientMessageSecurity | ServerMessageSecurity | undefined,
  secure:
    | ((
        xml: string,
        version: SoapVersion,
        parts?: readonly MessagePart[],
      ) => string | Promise<string>)
    | undefined,
  version: SoapVersion,
): (xml: string, parts?: readonly MessagePart[]) => string | Promise<string> {
  // Without security (the common case) nothing is made per message.
  if (!secure) return unsecured;
  return (xml, parts = []) => {
    if (parts.length > 0 && security?.securesAttachments !== true)
      throw new Error(
        "the message's security does not sign attachment parts, and a signed envelope would vouch for parts it does not cover; expected security that signs them (x509Security), or no attachments",
      );
    return secure.call(security, xml, version, parts.length > 0 ? parts : undefined);
  };
}
