/**
 * What a verifier is told to accept, and the checks it makes, each of which a test can switch off
 * to show that its forgery is refused by that check alone.
 */
import type { X509Certificate } from "node:crypto";
import type { DigestName, SignatureName } from "./algorithms.js";
import type { SignedPart } from "./sign.js";

/** The checks a verifier makes; all on unless switched off. */
export interface VerifyChecks {
  /** A message must be signed. */
  readonly signature: boolean;
  /** Each signed part must match its digest. */
  readonly digest: boolean;
  /** The signing certificate must be one trusted, or issued by one. */
  readonly trust: boolean;
  /** The signing certificate must be within its validity period. */
  readonly certificateDates: boolean;
  /** The Timestamp must be present, not expired and not created in the future. */
  readonly timestamp: boolean;
  /** The Body, the Timestamp and the required headers must be the elements signed. */
  readonly wrapping: boolean;
  /** No two elements may have one Id. */
  readonly uniqueIds: boolean;
  /** Every reference must name an element of the envelope by its Id. */
  readonly referencesInEnvelope: boolean;
  /** Only the algorithms allowed. */
  readonly algorithms: boolean;
  /** A signature seen before within its Timestamp's window is refused. */
  readonly replay: boolean;
  /**
   * An ECDSA signature value must be low-S (s ≤ n/2): of the two valid values (r, s) and (r, n − s)
   * only one is taken. Peers whose ECDSA (OpenSSL's, say) leaves s as it comes sign high-S about
   * half the time; switching this off for them is safe against replays, which are keyed on the
   * signed SignedInfo, not on the value (docs/ws-security.md).
   */
  readonly lowS: boolean;
  /** Every attachment part of a package must be covered by the signature. */
  readonly attachments: boolean;
}

export interface VerifyOptions {
  /**
   * The certificates trusted (PEM): a signer's own certificate, or a CA that issued it. Checked
   * against the certificate itself only; no revocation list is read.
   */
  readonly trust: readonly (string | Buffer | X509Certificate)[];
  /**
   * Certificates a message may name by issuer and serial number or key identifier rather than
   * carry (WCF's and WSS4J's default), when they are not in `trust` themselves (a CA there issued
   * them): PEM, DER or X509Certificate.
   */
  readonly certificates?: readonly (string | Buffer | X509Certificate)[];
  /** Digests accepted. Default: SHA-256, -384, -512 (SHA-1 only when named). */
  readonly digests?: readonly DigestName[];
  /** Signature algorithms accepted. Default: RSA and ECDSA with SHA-256, -384, -512. */
  readonly signatures?: readonly SignatureName[];
  /** The clock difference allowed between sender and receiver, in seconds. Default: 60. */
  readonly skewSeconds?: number;
  /**
   * How long a message is accepted after its Timestamp's Created, in seconds, whatever its Expires
   * says (WSS4J's time-to-live); also the lifetime of one without Expires. Default: 300.
   */
  readonly timestampSeconds?: number;
  /** Header entries that must be signed besides the Body and the Timestamp. */
  readonly signedHeaders?: readonly SignedPart[];
  /** How many signatures the replay check keeps, at most. Default: 100 000. */
  readonly replayCacheSize?: number;
  /** The clock. Default: the system's. */
  readonly now?: () => Date;
  /** For tests: checks switched off. */
  readonly checks?: Partial<VerifyChecks>;
}

export const ALL_CHECKS: VerifyChecks = {
  signature: true,
  digest: true,
  trust: true,
  certificateDates: true,
  timestamp: true,
  wrapping: true,
  uniqueIds: true,
  referencesInEnvelope: true,
  algorithms: true,
  replay: true,
  lowS: true,
  attachments: true,
};
