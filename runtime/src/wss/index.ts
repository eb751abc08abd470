/**
 * `@wsdl-tsgen/runtime/wss`: WS-Security X.509 signatures (the X.509 Token Profile 1.1 with
 * exclusive C14N), for clients (`ClientOptions.security`) and servers (`HandlerOptions.security`).
 * A subpath of its own, so that an app that does not sign never loads it.
 */
import type { SoapVersion } from "../errors.js";
import {
  SecurityRefusal,
  type CheckedFault,
  type CheckedRequest,
  type ClientMessageSecurity,
  type MessagePart,
  type MessageParts,
  type ServerMessageSecurity,
} from "../soap/message-security.js";
import { WSSE_NS } from "../soap/ws-security.js";
import type { VerifyOptions } from "./checks.js";
import { signEnvelope, signer, type SignOptions, type SigningCredentials } from "./sign.js";
import { Verifier } from "./verify.js";

export { SecurityRefusal };
export type { DigestName, SignatureName } from "./algorithms.js";
export type { VerifyChecks, VerifyOptions } from "./checks.js";
export type { SignedPart, SignOptions, SigningCredentials } from "./sign.js";
export type { PemCredentials, Pkcs12Credentials } from "./credentials.js";
export type { KeyReference } from "./key-info.js";
export { signEnvelope, signer } from "./sign.js";
export { Verifier, type VerifiedMessage } from "./verify.js";
export { excC14n } from "./c14n.js";

export interface X509SecurityOptions extends SignOptions {
  /** The key and certificate messages are signed with; without them none is signed. */
  readonly sign?: SigningCredentials;
  /**
   * How received messages are verified (the certificates trusted, the algorithms and clock skew
   * allowed); without it none is verified.
   */
  readonly verify?: VerifyOptions;
}

/**
 * Signs outgoing and verifies incoming SOAP messages: as a client's `security`, its requests and
 * their responses; as a server's, its requests (before the implementation sees them) and its
 * responses.
 */
export function x509Security(
  o: X509SecurityOptions,
): ClientMessageSecurity & ServerMessageSecurity {
  const s = o.sign && signer(o.sign, o);
  const verifier = o.verify && new Verifier(o.verify);
  const secure = (xml: string, _version: SoapVersion, parts?: readonly MessagePart[]): string =>
    s ? signEnvelope(xml, s, o, {}, parts) : xml;
  return {
    secureRequest: secure,
    secureResponse: secure,
    // Only a verifier checks responses: a client that only signs reads them as any other (and
    // may stream them, or spool their attachments).
    ...(verifier
      ? {
          checkResponse: (xml: string, _v: SoapVersion, parts?: MessageParts) =>
            void verifier.verify(xml, parts),
        }
      : {}),
    checkFault: (xml, _version, parts): CheckedFault => {
      try {
        const signer = verifier?.verify(xml, parts).signer;
        return signer ? { signer } : {};
      } catch (e) {
        // An unsigned fault is given as one, unverified; a signature that fails is refused.
        if (e instanceof SecurityRefusal && e.reason === "missing-signature") return {};
        throw e;
      }
    },
    checkRequest: (xml, _version, parts): CheckedRequest => {
      const signer = verifier?.verify(xml, parts).signer;
      return signer ? { signer } : {};
    },
    // Parts are signed (MTOM by the elements including them, SwA by cid:) and verified alike.
    securesAttachments: true,
    // Only a verifier processes the header: without one, a mustUnderstand Security is not.
    understands: (ns, local) => verifier !== undefined && ns === WSSE_NS && local === "Security",
  };
}
export { readTree } from "./tree.js";
