/**
 * Verifies a signed SOAP envelope as WSS4J and the WS-I Basic Security Profile 1.1 require, and
 * refuses the forgeries the OWASP and WS-Attacker catalogues describe: a missing signature, a
 * changed part, an untrusted or expired certificate, a stale or future Timestamp, a Body other than
 * the signed one (signature wrapping), duplicate Ids, references outside the envelope, algorithms
 * not allowed, and replays. Each refusal is a SecurityRefusal naming what failed, in words that
 * reveal nothing about keys or about how far a comparison got. What precedes the signature value's
 * check is open to anyone (the trusted certificate is public), so SignedInfo is read strictly and
 * within fixed limits first (signed-info.ts); replays are known by the SignedInfo signed, and an
 * ECDSA value only in its low-S form (ecdsa.ts).
 */
import { verify as verifySignature, X509Certificate, type KeyObject } from "node:crypto";
import { Certificates, type ReadCertificate } from "./certificates.js";
import type { SoapVersion } from "../errors.js";
import { SecurityRefusal, type MessageParts } from "../soap/message-security.js";
import { WSSE_NS, WSU_NS } from "../soap/ws-security.js";
import {
  allowedName,
  DEFAULT_DIGESTS,
  DEFAULT_SIGNATURES,
  DIGESTS,
  DS_NS,
  EXC_C14N,
  SIGNATURES,
  signatureHash,
  type DigestName,
  type SignatureName,
} from "./algorithms.js";
import { AttachmentCheck } from "./attachments.js";
import { excC14n } from "./c14n.js";
import { ALL_CHECKS, type VerifyChecks, type VerifyOptions } from "./checks.js";
import { digestOf, sameDigest } from "./digest.js";
import { checkPartDigestsStreamed, elementDigestStreamed } from "./part-digests.js";
import { curveOrder, isHighS } from "./ecdsa.js";
import { childrenNamed, envelopeParts, idsOf, type EnvelopeParts } from "./parts.js";
import { referencedCertificate } from "./key-info.js";
import { ReplayCache } from "./replay.js";
import {
  MAX_SIGNED_INFO_ELEMENTS,
  readSignedInfo,
  type ReferenceRead,
  type SignedInfoRead,
} from "./signed-info.js";
import { checkTimestamp } from "./timestamp.js";
import {
  childElement,
  DEFAULT_LIMITS,
  elementsOf,
  readTree,
  textOf,
  TreeLimitError,
  type SigElement,
} from "./tree.js";

/** What a verified message was signed with. */
export interface VerifiedMessage {
  readonly version: SoapVersion;
  /** The signing certificate; undefined only when the signature check is off and none came. */
  readonly signer: X509Certificate | undefined;
}

/** A signed message whose signature value is checked, its digests not yet. */
interface Begun {
  readonly now: Date;
  readonly parts: EnvelopeParts;
  readonly security: SigElement;
  readonly attached: AttachmentCheck;
  readonly references: readonly Resolved[];
  readonly cert: ReadCertificate;
  /** The canonical SignedInfo (the replay cache's key). */
  readonly signed: Buffer;
}

/** A reference of SignedInfo, resolved. */
interface Resolved {
  readonly element: SigElement;
  readonly digest: DigestName;
  readonly value: string;
  readonly prefixes: ReadonlySet<string>;
}

const refuse = (message: string, reason: string): never => {
  throw new SecurityRefusal(message, reason);
};

const ALL_DIGESTS = Object.keys(DIGESTS) as DigestName[];
const ALL_SIGNATURES = Object.keys(SIGNATURES) as SignatureName[];

export class Verifier {
  private readonly certificates: Certificates;
  private readonly checks: VerifyChecks;
  private readonly replays: ReplayCache;

  constructor(private readonly o: VerifyOptions) {
    this.certificates = new Certificates(o);
    this.checks = { ...ALL_CHECKS, ...o.checks };
    this.replays = new ReplayCache(o.replayCacheSize ?? 100_000);
  }

  /**
   * Verifies `xml`, and the attachment parts of its package if it came as one; throws a
   * SecurityRefusal naming what failed. The parts must be in memory (see verifyStreamed).
   */
  verify(xml: string | Uint8Array, attachments?: MessageParts): VerifiedMessage {
    const v = this.begin(xml, attachments);
    if (!("signed" in v)) return v;
    if (this.checks.digest) {
      for (const r of v.references) checkDigest(r, v.attached);
      v.attached.checkDigests();
    }
    return this.end(v);
  }

  /**
   * `verify`, with parts that may be Blobs (spooled to files): each is hashed as it is read, once
   * the signature value is checked, so that no part is held whole.
   */
  async verifyStreamed(
    xml: string | Uint8Array,
    attachments?: MessageParts,
  ): Promise<VerifiedMessage> {
    const v = this.begin(xml, attachments);
    if (!("signed" in v)) return v;
    if (this.checks.digest) {
      for (const r of v.references) {
        const parts = v.attached.parts;
        const value = await elementDigestStreamed(r.digest, r.element, r.prefixes, parts, false);
        if (!sameDigest(value, r.value))
          refuse("a signed part does not match its digest", "digest");
      }
      await checkPartDigestsStreamed(v.attached);
    }
    return this.end(v);
  }

  /**
   * Everything before the digests: the message read, SignedInfo read and its signature value
   * checked; or, for an unsigned message the checks let through, the verified message.
   */
  private begin(xml: string | Uint8Array, attachments?: MessageParts): Begun | VerifiedMessage {
    const now = this.o.now?.() ?? new Date();
    const parts = envelopeParts(parse(xml));
    const ids = this.idTable(parts.envelope);
    const security = securityHeader(parts);
    const signature = security && onlyChild(security, DS_NS, "Signature", "signature");
    if (!security || !signature) {
      if (this.checks.signature) refuse("the message is not signed", "missing-signature");
      return { version: parts.version, signer: undefined };
    }
    // Everything before the signature value's check is bounded by SignedInfo's schema and limits
    // (signed-info.ts): anyone can copy a trusted certificate, so none of it may cost much.
    const signedInfo = signedInfoOf(signature);
    const info = readSignedInfo(signedInfo);
    const method = this.signatureMethod(info);
    const attached = new AttachmentCheck(attachments, this.checks.algorithms);
    const references = this.references(info, ids, attached);
    const cert = this.certificate(signature, security, now);
    const signed = this.checkSignatureValue(signature, signedInfo, info, method, cert.publicKey);
    return { now, parts, security, attached, references, cert, signed };
  }

  /** Everything after the digests: what was signed, the parts covered, the Timestamp, replays. */
  private end(v: Begun): VerifiedMessage {
    const { now, parts, security, references } = v;
    if (this.checks.wrapping) this.checkSigned(parts, security, references);
    if (this.checks.attachments) v.attached.checkCovered(references.map((r) => r.element));
    const skew = (this.o.skewSeconds ?? 60) * 1000;
    const ts = childrenNamed(security, WSU_NS, "Timestamp");
    if (ts.length > 1) refuse("the Security header has more than one Timestamp", "malformed");
    const expires = checkTimestamp(ts[0], now, skew, this.o.timestampSeconds ?? 300, this.checks);
    if (this.checks.replay) {
      // Keyed on what was signed, not on the signature value: an ECDSA signature has a second
      // valid value, and base64 spellings of one value differ in unused bits.
      if (!this.replays.add(v.signed, expires + skew, now.getTime()))
        refuse("the message was replayed", "replay");
    }
    return { version: parts.version, signer: v.cert.cert };
  }

  /** The elements by Id; duplicate Ids refused (or the first kept, with the check off). */
  private idTable(root: SigElement): Map<string, SigElement> {
    const ids = new Map<string, SigElement>();
    const walk = (el: SigElement): void => {
      for (const id of idsOf(el)) {
        if (!ids.has(id)) ids.set(id, el);
        else if (this.checks.uniqueIds) refuse("the message has duplicate Ids", "duplicate-id");
      }
      for (const c of el.children) if (typeof c !== "string") walk(c);
    };
    walk(root);
    return ids;
  }

  private signatureMethod(info: SignedInfoRead): SignatureName {
    if (info.canonicalization.algorithm !== EXC_C14N)
      refuse("the canonicalization is not exclusive C14N", "algorithm");
    const uri = info.signatureMethod;
    const allowed = this.checks.algorithms
      ? (this.o.signatures ?? DEFAULT_SIGNATURES)
      : ALL_SIGNATURES;
    return (
      allowedName(SIGNATURES, allowed, uri) ??
      refuse("a signature algorithm not allowed", "algorithm")
    );
  }

  private references(
    info: SignedInfoRead,
    ids: ReadonlyMap<string, SigElement>,
    attached: AttachmentCheck,
  ): Resolved[] {
    const allowed = this.checks.algorithms ? (this.o.digests ?? DEFAULT_DIGESTS) : ALL_DIGESTS;
    const resolved: Resolved[] = [];
    for (const ref of info.references) {
      const uri = ref.uri ?? "";
      const digest =
        allowedName(DIGESTS, allowed, ref.digestMethod) ??
        refuse("a digest algorithm not allowed", "algorithm");
      // An attachment part (SwA Profile 1.1), with transforms of its own: see attachments.ts.
      if (AttachmentCheck.names(uri)) {
        attached.reference(ref, digest);
        continue;
      }
      const prefixes = this.transforms(ref);
      // Only a shorthand reference to an element of this envelope (BSP R5204): no external URI,
      // no XPointer, no whole document.
      const element = uri.startsWith("#") ? ids.get(uri.slice(1)) : undefined;
      if (!element) {
        if (!this.checks.referencesInEnvelope) continue;
        refuse("a signature reference points outside the envelope", "reference-outside");
      }
      resolved.push({ element: element!, digest, value: ref.digestValue, prefixes });
    }
    return resolved;
  }

  /** A reference's one exclusive C14N transform (BSP R5416, R5423), and its PrefixList. */
  private transforms(ref: ReferenceRead): ReadonlySet<string> {
    const list = ref.transforms;
    const exc = list.length === 1 && list[0]!.algorithm === EXC_C14N;
    if (!exc && this.checks.algorithms) refuse("a transform not allowed", "algorithm");
    return exc ? list[0]!.prefixes : NO_PREFIXES;
  }

  /** The certificate of the BinarySecurityToken the KeyInfo refers to, trusted and valid. */
  private certificate(signature: SigElement, security: SigElement, now: Date): ReadCertificate {
    const cert = this.tokenCertificate(signature, security);
    if (this.checks.trust && !cert.trusted)
      refuse("the signing certificate is not trusted", "untrusted-certificate");
    const t = now.getTime();
    const valid = cert.validFrom <= t && t <= cert.validTo;
    if (this.checks.certificateDates && !valid)
      refuse("the signing certificate is expired or not yet valid", "expired-certificate");
    return cert;
  }

  /** Checks the signature value; gives the canonical SignedInfo it signs. */
  private checkSignatureValue(
    signature: SigElement,
    signedInfo: SigElement,
    info: SignedInfoRead,
    method: SignatureName,
    publicKey: KeyObject,
  ): Buffer {
    const value = Buffer.from(textOf(required(signature, DS_NS, "SignatureValue")), "base64");
    const { hash, ecdsa } = signatureHash(method);
    // crypto.verify picks RSA or ECDSA by the key: the algorithm named must be the key's own.
    if (publicKey.asymmetricKeyType !== (ecdsa ? "ec" : "rsa"))
      refuse("the signature algorithm does not fit the certificate's key", "algorithm");
    if (ecdsa) this.checkLowS(value, publicKey);
    const canonical = Buffer.from(excC14n(signedInfo, info.canonicalization.prefixes), "utf8");
    let ok = false;
    try {
      const key = { key: publicKey, dsaEncoding: ecdsa ? "ieee-p1363" : "der" } as const;
      ok = verifySignature(hash, canonical, key, value);
    } catch {
      // A value crypto cannot read (malformed DER) is a signature that does not match.
    }
    if (!ok) refuse("the signature value does not match", "signature");
    return canonical;
  }

  /** (r, n − s) is a second valid signature: only the low-S one of the two is taken. */
  private checkLowS(value: Uint8Array, publicKey: KeyObject): void {
    if (!this.checks.lowS) return;
    const n = curveOrder(publicKey);
    if (n === undefined)
      refuse("the certificate's curve is not P-256, P-384 or P-521", "algorithm");
    if (isHighS(value, n!)) refuse("the ECDSA signature value is not low-S", "signature");
  }

  /** The certificate the signature's SecurityTokenReference names (see key-info.ts). */
  private tokenCertificate(signature: SigElement, security: SigElement): ReadCertificate {
    const keyInfo = required(signature, DS_NS, "KeyInfo");
    const text = referencedCertificate(keyInfo, security, this.certificates.known);
    try {
      return this.certificates.read(text);
    } catch {
      return refuse("the signing certificate cannot be read", "malformed");
    }
  }

  /** The Body, the Timestamp and the required header entries must be the elements signed. */
  private checkSigned(parts: EnvelopeParts, security: SigElement, refs: readonly Resolved[]): void {
    const signed = new Set(refs.map((r) => r.element));
    if (!signed.has(parts.body)) refuse("the SOAP Body is not the signed one", "wrapping");
    for (const ts of childrenNamed(security, WSU_NS, "Timestamp"))
      if (!signed.has(ts)) refuse("the Timestamp is not the signed one", "wrapping");
    const wanted = this.o.signedHeaders ?? [];
    for (const h of parts.header?.children ?? [])
      if (typeof h !== "string" && wanted.some((w) => w.ns === h.ns && w.local === h.local))
        if (!signed.has(h)) refuse(`the header ${h.local} is not signed`, "wrapping");
  }
}

function parse(xml: string | Uint8Array): SigElement {
  try {
    return readTree(xml, LIMITS);
  } catch (e) {
    // A tree past its limits is well-formed but refused; say which, not "not well-formed".
    if (e instanceof TreeLimitError)
      return refuse(`the message is refused: ${e.message}`, "malformed");
    return refuse("the message is not well-formed XML", "malformed");
  }
}

/** The one wsse:Security header entry (BSP R3206: not two for one actor). */
function securityHeader(parts: EnvelopeParts): SigElement | undefined {
  const all = parts.header ? childrenNamed(parts.header, WSSE_NS, "Security") : [];
  if (all.length > 1) refuse("the message has more than one Security header", "malformed");
  return all[0];
}

function onlyChild(
  el: SigElement,
  ns: string,
  local: string,
  what: string,
): SigElement | undefined {
  const all = childrenNamed(el, ns, local);
  if (all.length > 1) refuse(`the Security header has more than one ${what}`, "malformed");
  return all[0];
}

function required(el: SigElement, ns: string, local: string): SigElement {
  return childElement(el, ns, local) ?? refuse(`the signature has no ${local}`, "malformed");
}

/** The signature's one SignedInfo, its first child element (XML Signature 4.1). */
function signedInfoOf(signature: SigElement): SigElement {
  const all = childrenNamed(signature, DS_NS, "SignedInfo");
  if (all.length === 0) refuse("the signature has no SignedInfo", "malformed");
  if (all.length > 1 || elementsOf(signature)[0] !== all[0])
    refuse("the signature does not begin with its one SignedInfo", "malformed");
  return all[0]!;
}

const LIMITS = { ...DEFAULT_LIMITS, maxSignedInfoElements: MAX_SIGNED_INFO_ELEMENTS };

const NO_PREFIXES: ReadonlySet<string> = new Set();

/** An element's digest, of its XOP infoset in a package (each xop:Include its part's base64). */
function checkDigest(r: Resolved, attached: AttachmentCheck): void {
  const canonical = attached.canonical(r.element, r.prefixes);
  if (!sameDigest(digestOf(r.digest, canonical), r.value))
    refuse("a signed part does not match its digest", "digest");
}
