/**
 * The algorithms of XML Signature that signatures here use and accept, by URI: exclusive C14N
 * only (WS-I BSP 1.1 R5404, R5423), SHA-256 (or SHA-1 when asked) digests, RSA or ECDSA
 * signatures.
 */
export const DS_NS = "http://www.w3.org/2000/09/xmldsig#";
export const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
export const X509V3 =
  "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3";
export const BASE64_BINARY =
  "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary";

export const DIGESTS = {
  sha1: "http://www.w3.org/2000/09/xmldsig#sha1",
  sha256: "http://www.w3.org/2001/04/xmlenc#sha256",
  sha384: "http://www.w3.org/2001/04/xmldsig-more#sha384",
  sha512: "http://www.w3.org/2001/04/xmlenc#sha512",
} as const;
export type DigestName = keyof typeof DIGESTS;

const MORE = "http://www.w3.org/2001/04/xmldsig-more#";
export const SIGNATURES = {
  "rsa-sha1": "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
  "rsa-sha256": `${MORE}rsa-sha256`,
  "rsa-sha384": `${MORE}rsa-sha384`,
  "rsa-sha512": `${MORE}rsa-sha512`,
  "ecdsa-sha256": `${MORE}ecdsa-sha256`,
  "ecdsa-sha384": `${MORE}ecdsa-sha384`,
  "ecdsa-sha512": `${MORE}ecdsa-sha512`,
} as const;
export type SignatureName = keyof typeof SIGNATURES;

/** Accepted unless the verifier says otherwise: SHA-1 is not (it is asked for by name). */
export const DEFAULT_DIGESTS: readonly DigestName[] = ["sha256", "sha384", "sha512"];
export const DEFAULT_SIGNATURES: readonly SignatureName[] = [
  "rsa-sha256",
  "rsa-sha384",
  "rsa-sha512",
  "ecdsa-sha256",
  "ecdsa-sha384",
  "ecdsa-sha512",
];

/** The name of the algorithm with `uri` among `allowed`, or undefined. */
export function allowedName<N extends string>(
  table: Readonly<Record<N, string>>,
  allowed: readonly N[],
  uri: string | undefined,
): N | undefined {
  return allowed.find((n) => table[n] === uri);
}

/** node:crypto's hash name of a signature algorithm, and whether it is ECDSA. */
export function signatureHash(name: SignatureName): { hash: string; ecdsa: boolean } {
  const [kind, hash] = name.split("-") as [string, string];
  return { hash, ecdsa: kind === "ecdsa" };
}
