/**
 * Signs a SOAP envelope as the WS-Security X.509 Token Profile does (and WSS4J, zeep and WCF
 * read): a `wsse:Security` header entry with a `wsu:Timestamp`, the certificate as a
 * `wsse:BinarySecurityToken` and an XML Signature over the Body, the Timestamp and any header
 * entries asked for, by `wsu:Id`, canonicalized by exclusive C14N.
 */
import { randomUUID, sign, type KeyObject } from "node:crypto";
import { timestampXml, WSSE_NS, WSU_NS } from "../soap/ws-security.js";
import type { MessagePart } from "../soap/message-security.js";
import { escapeAttr } from "../xml/escape.js";
import * as alg from "./algorithms.js";
import type { DigestName, SignatureName } from "./algorithms.js";
import { excC14n } from "./c14n.js";
import { digestInput, partDigest, partReferenceXml, referencedParts } from "./attachments.js";
import { loadCredentials, type SigningCredentials } from "./credentials.js";
import { keyInfoXml, tokenXml, type KeyReference } from "./key-info.js";
import { certificateIds, type CertificateIds } from "./x509-names.js";
import { digestOf } from "./digest.js";
import { elementDigestStreamed, partDigestStreamed } from "./part-digests.js";
import { curveOrder, toLowS } from "./ecdsa.js";
import { envelopeParts, startTagEnd, writtenName, wsuId } from "./parts.js";
import { allElements, readTree, type SigElement } from "./tree.js";

/** A header entry to sign, by its element's namespace and local name. */
export interface SignedPart {
  readonly ns: string;
  readonly local: string;
}

export type { SigningCredentials } from "./credentials.js";

export interface SignOptions {
  /** Default: `rsa-sha256` for an RSA key, `ecdsa-sha256` for an EC key. */
  readonly signature?: SignatureName;
  /** The digest of each reference. Default: `sha256`. */
  readonly digest?: DigestName;
  /** How long the Timestamp says the message is valid, in seconds. Default: 300. */
  readonly timestampSeconds?: number;
  /**
   * Header entries signed besides the Body and the Timestamp (WS-Addressing's `To`, `Action` and
   * `MessageID`, say). Those absent from a message are left out.
   */
  readonly signedHeaders?: readonly SignedPart[];
  /** The clock. Default: the system's. */
  readonly now?: () => Date;
  /**
   * Sign each SOAP with Attachments part with its MIME headers (the SwA Profile's
   * Attachment-Complete transform), not its content alone (Attachment-Content). Default: false.
   */
  readonly signAttachmentHeaders?: boolean;
  /**
   * How the signature names its certificate: `binarySecurityToken` (the default) sends it in the
   * message; `issuerSerial` (WCF's and WSS4J's default), `keyIdentifier` (its subject key
   * identifier) and `thumbprint` (SHA-1) name one the receiver already has.
   */
  readonly keyReference?: KeyReference;
}

/** The credentials read once: the key object, the certificate's DER and ids, the algorithm. */
export interface Signer {
  readonly key: KeyObject;
  readonly der: Buffer;
  readonly ids: CertificateIds;
  readonly signature: SignatureName;
  readonly keyReference: KeyReference;
}

/** Reads and checks the credentials (see credentials.ts): a mistake throws here, named. */
export function signer(c: SigningCredentials, o: SignOptions = {}): Signer {
  const { key, cert } = loadCredentials(c);
  const signature = o.signature ?? (key.asymmetricKeyType === "ec" ? "ecdsa-sha256" : "rsa-sha256");
  const keyReference = o.keyReference ?? "binarySecurityToken";
  return { key, der: cert.raw, ids: certificateIds(cert), signature, keyReference };
}

/** A text to add to the envelope at an offset. */
interface Insertion {
  readonly at: number;
  readonly text: string;
}

/**
 * Tests only: references added to SignedInfo as given, to sign what a forger would (an external
 * URI, say).
 */
export interface SignatureExtras {
  readonly references?: readonly string[];
}

/**
 * `xml`, a SOAP 1.1 or 1.2 envelope, signed, with the attachment parts it is sent beside: those its
 * signed elements include (MTOM) by their digests, the others by `cid:` references (SwA). The
 * parts must be in memory (see signEnvelopeStreamed).
 */
export function signEnvelope(
  xml: string,
  s: Signer,
  o: SignOptions = {},
  extras: SignatureExtras = {},
  attachments?: readonly MessagePart[],
): string {
  const d = draft(xml, s, o, attachments);
  const references = d.elements.map((el, i) =>
    referenceXml(d.ids[i]!, d.digest, digestOf(d.digest, digestInput(el, [], d.byPartId))),
  );
  for (const p of d.referencedParts)
    references.push(
      partReferenceXml(p, d.digest, d.complete, partDigest(d.digest, p, d.complete, true)),
    );
  return signed(d, s, references, extras);
}

/**
 * `signEnvelope`, with parts that may be Blobs: each is hashed as it is read, so that none is held
 * whole (a ReadableStream is an Error: it is read once, and a signed part is read twice).
 */
export async function signEnvelopeStreamed(
  xml: string,
  s: Signer,
  o: SignOptions = {},
  attachments?: readonly MessagePart[],
): Promise<string> {
  const d = draft(xml, s, o, attachments);
  const references: string[] = [];
  for (const [i, el] of d.elements.entries()) {
    const value = await elementDigestStreamed(d.digest, el, [], d.byPartId, true);
    references.push(referenceXml(d.ids[i]!, d.digest, value));
  }
  for (const p of d.referencedParts) {
    const value = await partDigestStreamed(d.digest, p, d.complete, true);
    references.push(partReferenceXml(p, d.digest, d.complete, value));
  }
  return signed(d, s, references, {});
}

/** An envelope with its Security header but no signature yet, and what the signature covers. */
interface Draft {
  /** The envelope with the Security header (and wsu:Ids) in. */
  readonly xml: string;
  /** Where the signature goes in `xml`. */
  readonly at: number;
  /** The elements signed by Id, and their Ids. */
  readonly elements: readonly SigElement[];
  readonly ids: readonly string[];
  readonly digest: DigestName;
  readonly byPartId: ReadonlyMap<string, MessagePart> | undefined;
  /** The parts no signed element includes, referenced by `cid:`. */
  readonly referencedParts: readonly MessagePart[];
  readonly complete: boolean;
  readonly bstId: string;
}

function draft(
  xml: string,
  s: Signer,
  o: SignOptions,
  attachments: readonly MessagePart[] | undefined,
): Draft {
  const parts = envelopeParts(readTree(xml));
  const targets = [parts.body, ...headerTargets(parts.header, o.signedHeaders ?? [])];
  const insertions: Insertion[] = [];
  const refIds = targets.map((t) => idFor(t, insertions));
  const tsId = newId("TS");
  const bstId = newId("X509");
  const security = securityXml(parts.envelope, tsId, tokenXml(s.keyReference, s.der, bstId), o);
  const { at: headerAt, text: headerText } = headerInsertion(xml, parts, security);
  insertions.push({ at: headerAt, text: headerText });
  const signed = splice(xml, insertions);
  // The signature goes last in the Security header, after the token it refers to.
  const at = shifted(headerAt, insertions) + headerText.indexOf("</wsse:Security>");
  const tree = readTree(signed);
  const byId = new Map<string, SigElement>();
  for (const e of allElements(tree)) {
    const id = wsuId(e);
    if (id !== undefined && !byId.has(id)) byId.set(id, e);
  }
  const ids = [...refIds, tsId];
  const elements = ids.map((id) => byId.get(id)!);
  return {
    xml: signed,
    at,
    elements,
    ids,
    digest: o.digest ?? "sha256",
    byPartId: attachments && new Map(attachments.map((p) => [p.id, p])),
    referencedParts: attachments ? referencedParts(tree, elements, attachments) : [],
    complete: !!o.signAttachmentHeaders,
    bstId,
  };
}

/** The draft with its signature over `references` in place. */
function signed(d: Draft, s: Signer, references: string[], extras: SignatureExtras): string {
  const sig = signatureXml(s, references.concat(extras.references ?? []), d.bstId);
  return d.xml.slice(0, d.at) + sig + d.xml.slice(d.at);
}

/** The header entries among `wanted`. */
function headerTargets(
  header: SigElement | undefined,
  wanted: readonly SignedPart[],
): SigElement[] {
  if (!header || wanted.length === 0) return [];
  return header.children.filter(
    (c): c is SigElement =>
      typeof c !== "string" && wanted.some((w) => w.ns === c.ns && w.local === c.local),
  );
}

/** The wsu:Id of `el`, given one (declaring wsu there) when it has none. */
function idFor(el: SigElement, insertions: Insertion[]): string {
  const had = wsuId(el);
  if (had !== undefined) return had;
  const id = newId(el.local);
  const decl = el.scope["wsu"] === WSU_NS ? "" : ` xmlns:wsu="${WSU_NS}"`;
  insertions.push({ at: el.offset + 1 + writtenName(el).length, text: `${decl} wsu:Id="${id}"` });
  return id;
}

const newId = (what: string): string => `${what.replace(/[^A-Za-z0-9]/g, "")}-${randomUUID()}`;

/** The Security header entry without its signature: the Timestamp and the token, if one goes. */
function securityXml(envelope: SigElement, tsId: string, token: string, o: SignOptions): string {
  // The envelope's prefix for mustUnderstand; one of our own where the envelope has none.
  const p = envelope.prefix || "soapenv";
  const declared = envelope.prefix ? "" : ` xmlns:soapenv="${envelope.ns}"`;
  return (
    `<wsse:Security xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}"${declared} ${p}:mustUnderstand="1">` +
    timestampXml(tsId, o.now?.() ?? new Date(), o.timestampSeconds ?? 300) +
    `${token}</wsse:Security>`
  );
}

/** Where the Security header entry goes (first in the Header, which is made when absent). */
function headerInsertion(
  xml: string,
  parts: ReturnType<typeof envelopeParts>,
  security: string,
): Insertion {
  const { header, body, envelope } = parts;
  if (!header) {
    const name = envelope.prefix ? `${envelope.prefix}:Header` : "Header";
    return { at: body.offset, text: `<${name}>${security}</${name}>` };
  }
  const end = startTagEnd(xml, header.offset);
  if (xml.charCodeAt(end - 1) !== 47) return { at: end + 1, text: security };
  // <soap:Header/>: its "/>" becomes ">" + the entry + its end tag.
  return { at: end - 1, text: `>${security}</${writtenName(header)}` };
}

function splice(xml: string, insertions: readonly Insertion[]): string {
  const sorted = [...insertions].sort((a, b) => b.at - a.at);
  let out = xml;
  for (const i of sorted) out = out.slice(0, i.at) + i.text + out.slice(i.at);
  return out;
}

/** Where `at` of the original text is once the insertions before it are made. */
function shifted(at: number, insertions: readonly Insertion[]): number {
  let by = 0;
  for (const i of insertions) if (i.at < at) by += i.text.length;
  return at + by;
}

function referenceXml(id: string, digest: DigestName, value: string): string {
  return (
    `<ds:Reference URI="#${escapeAttr(id)}"><ds:Transforms><ds:Transform Algorithm="${alg.EXC_C14N}"></ds:Transform></ds:Transforms>` +
    `<ds:DigestMethod Algorithm="${alg.DIGESTS[digest]}"></ds:DigestMethod><ds:DigestValue>${value}</ds:DigestValue></ds:Reference>`
  );
}

/**
 * The ds:Signature over `references`. SignedInfo is written in canonical form, and canonicalized
 * again as the verifier will (by itself, since exclusive C14N renders only the `ds` namespace it
 * uses), so what is signed is what is checked.
 */
function signatureXml(s: Signer, references: readonly string[], bstId: string): string {
  const inner =
    `<ds:CanonicalizationMethod Algorithm="${alg.EXC_C14N}"></ds:CanonicalizationMethod>` +
    `<ds:SignatureMethod Algorithm="${alg.SIGNATURES[s.signature]}"></ds:SignatureMethod>` +
    references.join("");
  const canonical = excC14n(
    readTree(`<ds:SignedInfo xmlns:ds="${alg.DS_NS}">${inner}</ds:SignedInfo>`),
  );
  const { hash, ecdsa } = alg.signatureHash(s.signature);
  const raw = sign(hash, Buffer.from(canonical, "utf8"), {
    key: s.key,
    dsaEncoding: ecdsa ? "ieee-p1363" : "der",
  });
  // Verifiers (ours among them) take only the low-S one of an ECDSA value's two forms.
  const n = ecdsa ? curveOrder(s.key) : undefined;
  const value = (n === undefined ? raw : toLowS(raw, n)).toString("base64");
  return (
    `<ds:Signature xmlns:ds="${alg.DS_NS}" Id="${newId("SIG")}"><ds:SignedInfo>${inner}</ds:SignedInfo>` +
    `<ds:SignatureValue>${value}</ds:SignatureValue>${keyInfoXml(s.keyReference, s.ids, bstId)}</ds:Signature>`
  );
}
