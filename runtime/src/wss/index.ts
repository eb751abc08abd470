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
import { andThen } from "../support/maybe-async.js";
import type { VerifyOptions } from "./checks.js";
import {
  signEnvelope,
  signEnvelopeStreamed,
  signer,
  type SignOptions,
  type SigningCredentials,
} from "./sign.js";
import { streamed } from "./attachments.js";
import { Verifier, type VerifiedMessage } from "./verify.js";

export { SecurityRefusal };
export type { DigestName, SignatureName } from "./algorithms.js";
export type { VerifyChecks, VerifyOptions } from "./checks.js";
export type { SignedPart, SignOptions, SigningCredentials } from "./sign.js";
export type { PemCredentials, Pkcs12Credentials } from "./credentials.js";
export type { KeyReference } from "./key-info.js";
export { signEnvelope, signer } from "./sign.js";
export { MAX_XML_PART_BYTES } from "./part-digests.js";
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
  // Parts in memory are signed synchronously, as before; Blobs hashed as they are read.
  const secure = (xml: string, _v: SoapVersion, parts?: readonly MessagePart[]) =>
    !s
      ? xml
      : streamed(parts)
        ? signEnvelopeStreamed(xml, s, o, parts)
        : signEnvelope(xml, s, o, {}, parts);
  // Parts in memory are checked synchronously, as before; spooled ones (Blobs) as they are read.
  const verify = (xml: string | Uint8Array, parts: MessageParts | undefined) =>
    streamed(parts?.values()) ? verifier!.verifyStreamed(xml, parts) : verifier!.verify(xml, parts);
  const signerOf = (v: VerifiedMessage): CheckedRequest => (v.signer ? { signer: v.signer } : {});
  return {
    secureRequest: secure,
    secureResponse: secure,
    // Only a verifier checks responses: a client that only signs reads them as any other (and
    // may stream them, or spool their attachments).
    ...(verifier
      ? {
          checkResponse: (xml: string, _v: SoapVersion, parts?: MessageParts) =>
            andThen(verify(xml, parts), () => undefined),
        }
      : {}),
    checkFault: (xml, _version, parts) => {
      // An unsigned fault is given as one, unverified; a signature that fails is refused.
      const unsigned = (e: unknown): CheckedFault => {
        if (e instanceof SecurityRefusal && e.reason === "missing-signature") return {};
        throw e;
      };
      if (!verifier) return {};
      try {
        const checked = andThen(verify(xml, parts), signerOf);
        return checked instanceof Promise ? checked.catch(unsigned) : checked;
      } catch (e) {
        return unsigned(e);
      }
    },
    checkRequest: (xml, _version, parts) => (verifier ? andThen(verify(xml, parts), signerOf) : {}),
    // Parts are signed (MTOM by the elements including them, SwA by cid:) and verified alike.
    securesAttachments: true,
    checksSpooledParts: true,
    // Only a verifier processes the header: without one, a mustUnderstand Security is not.
    understands: (ns, local) => verifier !== undefined && ns === WSSE_NS && local === "Security",
  };
}
export { readTree } from "./tree.js";
