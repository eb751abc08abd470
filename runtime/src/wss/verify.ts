/**
 * Verifies a signed SOAP envelope as WSS4J and the WS-I Basic Security Profile 1.1 require, and
 * refuses the forgeries the OWASP and WS-Attacker catalogues describe: a missing signature, a
 * changed part, an untrusted or expired certificate, a stale or future Timestamp, a Body other than
 * the signed one (signature wrapping), duplicate Ids, references outside the envelope, algorithms
 * not allowed, and replays. Each refusal is a SecurityRefusal naming what failed, in words that
 * reveal nothing about keys or about how far a comparison got.
 */
import {
  timingSafeEqual,
  verify as verifySignature,
  X509Certificate,
  type KeyObject,
} from "node:crypto";
import { Certificates, type ReadCertificate } from "./certificates.js";
import type { SoapVersion } from "../errors.js";
import { SecurityRefusal } from "../soap/message-security.js";
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
import { excC14n } from "./c14n.js";
import { ALL_CHECKS, type VerifyChecks, type VerifyOptions } from "./checks.js";
import { digestOf } from "./digest.js";
import { childrenNamed, envelopeParts, idsOf, type EnvelopeParts } from "./parts.js";
import { referencedCertificate } from "./key-info.js";
import { ReplayCache } from "./replay.js";
import { checkTimestamp } from "./timestamp.js";
import {
  attrValue,
  childElement,
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

/** A reference of SignedInfo, resolved. */
interface Resolved {
  readonly element: SigElement;
  readonly digest: DigestName;
  readonly value: string;
  readonly prefixes: readonly string[];
}

/** The most references a signature may have: each is a canonicalization of a subtree. */
const MAX_REFERENCES = 32;

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

  /** Verifies `xml`; throws a SecurityRefusal naming what failed. */
  verify(xml: string | Uint8Array): VerifiedMessage {
    const now = this.o.now?.() ?? new Date();
    const parts = envelopeParts(parse(xml));
    const ids = this.idTable(parts.envelope);
    const security = securityHeader(parts);
    const signature = security && onlyChild(security, DS_NS, "Signature", "signature");
    if (!security || !signature) {
      if (this.checks.signature) refuse("the message is not signed", "missing-signature");
      return { version: parts.version, signer: undefined };
    }
    const signedInfo = required(signature, DS_NS, "SignedInfo");
    const method = this.signatureMethod(signedInfo);
    const references = this.references(signedInfo, ids);
    const cert = this.certificate(signature, security, now);
    const value = this.checkSignatureValue(signature, signedInfo, method, cert.publicKey);
    if (this.checks.digest) for (const r of references) checkDigest(r);
    if (this.checks.wrapping) this.checkSigned(parts, security, references);
    const skew = (this.o.skewSeconds ?? 60) * 1000;
    const ts = childrenNamed(security, WSU_NS, "Timestamp");
    if (ts.length > 1) refuse("the Security header has more than one Timestamp", "malformed");
    const expires = checkTimestamp(ts[0], now, skew, this.o.timestampSeconds ?? 300, this.checks);
    if (this.checks.replay) {
      // The bytes, not the text: base64 spellings of the same value differ in unused bits.
      if (!this.replays.add(value, expires + skew, now.getTime()))
        refuse("the message was replayed", "replay");
    }
    return { version: parts.version, signer: cert.cert };
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

  private signatureMethod(signedInfo: SigElement): SignatureName {
    const c14n = attrValue(required(signedInfo, DS_NS, "CanonicalizationMethod"), "", "Algorithm");
    if (c14n !== EXC_C14N) refuse("the canonicalization is not exclusive C14N", "algorithm");
    const uri = attrValue(required(signedInfo, DS_NS, "SignatureMethod"), "", "Algorithm");
    const allowed = this.checks.algorithms
      ? (this.o.signatures ?? DEFAULT_SIGNATURES)
      : ALL_SIGNATURES;
    return (
      allowedName(SIGNATURES, allowed, uri) ??
      refuse("a signature algorithm not allowed", "algorithm")
    );
  }

  private references(signedInfo: SigElement, ids: ReadonlyMap<string, SigElement>): Resolved[] {
    const refs = childrenNamed(signedInfo, DS_NS, "Reference");
    if (refs.length === 0) refuse("the signature has no references", "malformed");
    if (refs.length > MAX_REFERENCES) refuse("the signature has too many references", "malformed");
    const allowed = this.checks.algorithms ? (this.o.digests ?? DEFAULT_DIGESTS) : ALL_DIGESTS;
    const resolved: Resolved[] = [];
    for (const ref of refs) {
      const prefixes = this.transforms(ref);
      const uri = attrValue(ref, "", "URI") ?? "";
      const digestUri = attrValue(required(ref, DS_NS, "DigestMethod"), "", "Algorithm");
      const digest =
        allowedName(DIGESTS, allowed, digestUri) ??
        refuse("a digest algorithm not allowed", "algorithm");
      // Only a shorthand reference to an element of this envelope (BSP R5204): no external URI,
      // no XPointer, no whole document.
      const element = uri.startsWith("#") ? ids.get(uri.slice(1)) : undefined;
      if (!element) {
        if (!this.checks.referencesInEnvelope) continue;
        refuse("a signature reference points outside the envelope", "reference-outside");
      }
      const value = textOf(required(ref, DS_NS, "DigestValue")).replace(/\s+/g, "");
      resolved.push({ element: element!, digest, value, prefixes });
    }
    return resolved;
  }

  /** A reference's one exclusive C14N transform (BSP R5416, R5423), and its PrefixList. */
  private transforms(ref: SigElement): readonly string[] {
    const transforms = childElement(ref, DS_NS, "Transforms");
    const list = transforms ? childrenNamed(transforms, DS_NS, "Transform") : [];
    const exc = list.length === 1 && attrValue(list[0]!, "", "Algorithm") === EXC_C14N;
    if (!exc && this.checks.algorithms) refuse("a transform not allowed", "algorithm");
    return exc ? prefixList(list[0]!) : [];
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

  private checkSignatureValue(
    signature: SigElement,
    signedInfo: SigElement,
    method: SignatureName,
    publicKey: KeyObject,
  ): Buffer {
    const c14n = required(signedInfo, DS_NS, "CanonicalizationMethod");
    const canonical = excC14n(signedInfo, prefixList(c14n));
    const value = Buffer.from(textOf(required(signature, DS_NS, "SignatureValue")), "base64");
    const { hash, ecdsa } = signatureHash(method);
    // crypto.verify picks RSA or ECDSA by the key: the algorithm named must be the key's own.
    if (publicKey.asymmetricKeyType !== (ecdsa ? "ec" : "rsa"))
      refuse("the signature algorithm does not fit the certificate's key", "algorithm");
    let ok = false;
    try {
      const key = { key: publicKey, dsaEncoding: ecdsa ? "ieee-p1363" : "der" } as const;
      ok = verifySignature(hash, Buffer.from(canonical, "utf8"), key, value);
    } catch {
      // A value crypto cannot read (malformed DER) is a signature that does not match.
    }
    if (!ok) refuse("the signature value does not match", "signature");
    return value;
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
    return readTree(xml);
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

/** The InclusiveNamespaces PrefixList of a C14N method or transform. */
function prefixList(el: SigElement): readonly string[] {
  const inc = childElement(el, EXC_C14N, "InclusiveNamespaces");
  const list = inc && attrValue(inc, "", "PrefixList");
  return list ? list.split(/\s+/).filter((p) => p !== "") : [];
}

function checkDigest(r: Resolved): void {
  const expected = Buffer.from(digestOf(r.digest, excC14n(r.element, r.prefixes)), "base64");
  const got = Buffer.from(r.value, "base64");
  if (got.length !== expected.length || !timingSafeEqual(got, expected))
    refuse("a signed part does not match its digest", "digest");
}
