/**
 * How a signature names its key (the KeyInfo's `wsse:SecurityTokenReference`), written and read
 * in the forms of the X.509 Token Profile 1.1: a Reference to a BinarySecurityToken that carries
 * the certificate (zeep's and this runtime's default), or, with no token in the message, the
 * certificate's issuer and serial number (`ds:X509IssuerSerial`, WCF's and WSS4J's default), its
 * subject key identifier or its SHA-1 thumbprint (`wsse:KeyIdentifier`). A certificate named
 * without a token is looked up among those the verifier trusts or was given.
 */
import { X509Certificate } from "node:crypto";
import { SecurityRefusal } from "../soap/message-security.js";
import { WSSE_NS, WSU_NS } from "../soap/ws-security.js";
import { escapeText } from "../xml/escape.js";
import { BASE64_BINARY, DS_NS, X509V3 } from "./algorithms.js";
import { childrenNamed } from "./parts.js";
import { attrValue, childElement, elementsOf, textOf, type SigElement } from "./tree.js";
import { certificateIds, issuerKeyOf, type CertificateIds } from "./x509-names.js";

/** How a signature names its certificate (`SignOptions.keyReference`). */
export type KeyReference = "binarySecurityToken" | "issuerSerial" | "keyIdentifier" | "thumbprint";

const PROFILE = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0";
export const SKI_TYPE = `${PROFILE}#X509SubjectKeyIdentifier`;
export const THUMBPRINT_TYPE =
  "http://docs.oasis-open.org/wss/oasis-wss-soap-message-security-1.1#ThumbprintSHA1";

/** The BinarySecurityToken carrying `der`, for the BinarySecurityToken form only. */
export function tokenXml(ref: KeyReference, der: Buffer, id: string): string {
  if (ref !== "binarySecurityToken") return "";
  return (
    `<wsse:BinarySecurityToken EncodingType="${BASE64_BINARY}" ValueType="${X509V3}" wsu:Id="${id}">` +
    `${der.toString("base64")}</wsse:BinarySecurityToken>`
  );
}

/** The KeyInfo naming the certificate with `ids` (token `tokenId`), as `ref` says. */
export function keyInfoXml(ref: KeyReference, ids: CertificateIds, tokenId: string): string {
  let inner: string;
  if (ref === "binarySecurityToken")
    inner = `<wsse:Reference URI="#${tokenId}" ValueType="${X509V3}"></wsse:Reference>`;
  else if (ref === "issuerSerial")
    inner =
      `<ds:X509Data><ds:X509IssuerSerial><ds:X509IssuerName>${escapeText(ids.issuerName)}</ds:X509IssuerName>` +
      `<ds:X509SerialNumber>${ids.serial}</ds:X509SerialNumber></ds:X509IssuerSerial></ds:X509Data>`;
  else {
    const [type, value] =
      ref === "keyIdentifier" ? [SKI_TYPE, ids.ski] : [THUMBPRINT_TYPE, ids.thumbprint];
    inner = `<wsse:KeyIdentifier EncodingType="${BASE64_BINARY}" ValueType="${type}">${value.toString("base64")}</wsse:KeyIdentifier>`;
  }
  return `<ds:KeyInfo><wsse:SecurityTokenReference>${inner}</wsse:SecurityTokenReference></ds:KeyInfo>`;
}

/** The certificates a verifier knows, by the ids a message may name them with. */
export class KnownCertificates {
  private readonly byIssuerSerial = new Map<string, X509Certificate>();
  private readonly byKeyId = new Map<string, X509Certificate>();

  constructor(certs: readonly X509Certificate[]) {
    for (const cert of certs) {
      const ids = certificateIds(cert);
      this.byIssuerSerial.set(`${ids.serial}|${ids.issuerKey}`, cert);
      this.byKeyId.set(`${SKI_TYPE}|${ids.ski.toString("base64")}`, cert);
      this.byKeyId.set(`${THUMBPRINT_TYPE}|${ids.thumbprint.toString("base64")}`, cert);
    }
  }

  issuerSerial(issuerKey: string, serial: bigint): X509Certificate | undefined {
    return this.byIssuerSerial.get(`${serial}|${issuerKey}`);
  }

  keyIdentifier(type: string, value: Buffer): X509Certificate | undefined {
    return this.byKeyId.get(`${type}|${value.toString("base64")}`);
  }
}

const refuse = (message: string, reason: string | undefined = "malformed"): never => {
  throw new SecurityRefusal(message, reason ?? "malformed");
};

const NOT_KNOWN = "the signature names a certificate that is not among those trusted or given";

/**
 * The certificate, base64 DER, that the signature's KeyInfo names: by a Reference to a
 * BinarySecurityToken of `security` (which must have a wsu:Id: a `#undefined` names nothing), a
 * KeyIdentifier or an X509IssuerSerial.
 */
export function referencedCertificate(
  keyInfo: SigElement,
  security: SigElement,
  known: KnownCertificates,
): string {
  const str = childElement(keyInfo, WSSE_NS, "SecurityTokenReference");
  const forms = str ? elementsOf(str) : [];
  // BSP R3061: one reference in a SecurityTokenReference.
  if (forms.length !== 1) return refuse("the signature's KeyInfo names no single X.509 token");
  const form = forms[0]!;
  if (form.ns === WSSE_NS && form.local === "Reference") return tokenCertificate(form, security);
  if (form.ns === WSSE_NS && form.local === "KeyIdentifier") return identified(form, known);
  if (form.ns === DS_NS && form.local === "X509Data") return x509Data(form, known);
  return refuse("the signature's KeyInfo names its key in a form not supported");
}

function tokenCertificate(ref: SigElement, security: SigElement): string {
  const uri = attrValue(ref, "", "URI");
  const token = childrenNamed(security, WSSE_NS, "BinarySecurityToken").find((t) => {
    const id = attrValue(t, WSU_NS, "Id");
    return id !== undefined && uri === `#${id}`;
  });
  if (!token || attrValue(token, "", "ValueType") !== X509V3)
    return refuse("the signature names no X.509 token of the Security header");
  return textOf(token);
}

function identified(keyIdentifier: SigElement, known: KnownCertificates): string {
  const type = attrValue(keyIdentifier, "", "ValueType") ?? "";
  const encoding = attrValue(keyIdentifier, "", "EncodingType");
  // BSP R3070, R3071: Base64Binary, of a type this profile defines.
  if (
    (encoding !== undefined && encoding !== BASE64_BINARY) ||
    (type !== SKI_TYPE && type !== THUMBPRINT_TYPE)
  )
    return refuse("the signature's KeyIdentifier is of a type not supported");
  const cert = known.keyIdentifier(type, Buffer.from(textOf(keyIdentifier).trim(), "base64"));
  return cert ? cert.raw.toString("base64") : refuse(NOT_KNOWN, "untrusted-certificate");
}

/**
 * An X509Data's X509IssuerSerial, looked up; or the certificate the same X509Data carries (zeep's
 * `Signature` sends one, beside an X509IssuerSerial that xmlsec leaves empty), when it is the one
 * named or none is.
 */
function x509Data(data: SigElement, known: KnownCertificates): string {
  const named = issuerSerialOf(data);
  const cert = named && known.issuerSerial(named.issuerKey, named.serial);
  if (cert) return cert.raw.toString("base64");
  const carried = childElement(data, DS_NS, "X509Certificate");
  if (carried) {
    const text = textOf(carried);
    const ids = idsOf(certificateOf(text));
    if (!named || (ids.serial === named.serial && ids.issuerKey === named.issuerKey)) return text;
  }
  return refuse(
    named ? NOT_KNOWN : "the signature's X509Data names no certificate",
    named && "untrusted-certificate",
  );
}

/** The longest X509IssuerName read, in characters (RFC 5280 names are far shorter). */
const MAX_ISSUER_NAME = 2048;

/** The issuer and serial number an X509Data names; undefined when it has none (or it is empty). */
function issuerSerialOf(data: SigElement): { issuerKey: string; serial: bigint } | undefined {
  const is = childElement(data, DS_NS, "X509IssuerSerial");
  if (!is || elementsOf(is).length === 0) return undefined;
  const name = childElement(is, DS_NS, "X509IssuerName");
  const number = childElement(is, DS_NS, "X509SerialNumber");
  const serial = number && textOf(number).trim();
  // Read before the signature is checked, by anyone: a name longer than any CA writes is refused.
  const text = name && textOf(name).trim();
  const issuerKey = text && text.length <= MAX_ISSUER_NAME ? issuerKeyOf(text) : undefined;
  if (!issuerKey || !serial || !/^\d{1,200}$/.test(serial))
    return refuse("the signature's X509IssuerSerial cannot be read");
  return { issuerKey, serial: BigInt(serial) };
}

function idsOf(cert: X509Certificate): CertificateIds {
  try {
    return certificateIds(cert);
  } catch {
    return refuse("the signing certificate cannot be read");
  }
}

function certificateOf(text: string): X509Certificate {
  try {
    return new X509Certificate(Buffer.from(text.replace(/\s+/g, ""), "base64"));
  } catch {
    return refuse("the signing certificate cannot be read");
  }
}
