/**
 * WS-Security UsernameToken (OASIS Username Token Profile 1.0), which services such as Workday and
 * many Apache CXF or Metro ones require in a `wsse:Security` SOAP header their WSDLs do not
 * declare: written by the client (`ClientOptions.wsSecurity`), read and checked by a server
 * implementation (`usernameToken`, `passwordMatches`) once its handler `understands` the header.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { childNode, nodeText, type XmlNode } from "../support/xml-node.js";
import { escapeText } from "../xml/escape.js";

export const WSSE_NS =
  "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
export const WSU_NS =
  "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
const PROFILE =
  "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0";
const PASSWORD_TEXT = `${PROFILE}#PasswordText`;
const PASSWORD_DIGEST = `${PROFILE}#PasswordDigest`;
const BASE64_BINARY =
  "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary";

/** The credentials the client sends in a `wsse:Security` header with every SOAP request. */
export interface UsernameTokenOptions {
  readonly username: string;
  readonly password: string;
  /**
   * `text` (PasswordText, the default: the password as it is, so only over https) or `digest`
   * (PasswordDigest: Base64(SHA-1(nonce + created + password)), with a fresh nonce and time).
   */
  readonly passwordType?: "text" | "digest";
  /** Adds a `wsu:Timestamp` valid for this many seconds from now, for services that require one. */
  readonly timestampSeconds?: number;
}

/** The `wsse:Security` header entry for one request (a new nonce and time for each). */
export function securityHeaderXml(o: UsernameTokenOptions, now: Date = new Date()): string {
  const created = now.toISOString();
  let token = `<wsse:Username>${escapeText(o.username)}</wsse:Username>`;
  if (o.passwordType === "digest") {
    const nonce = randomBytes(16);
    token +=
      `<wsse:Password Type="${PASSWORD_DIGEST}">${digest(nonce, created, o.password)}</wsse:Password>` +
      `<wsse:Nonce EncodingType="${BASE64_BINARY}">${nonce.toString("base64")}</wsse:Nonce><wsu:Created>${created}</wsu:Created>`;
  } else {
    token += `<wsse:Password Type="${PASSWORD_TEXT}">${escapeText(o.password)}</wsse:Password>`;
  }
  const timestamp =
    o.timestampSeconds === undefined ? "" : timestampXml("TS-1", now, o.timestampSeconds);
  return `<wsse:Security xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}" soap:mustUnderstand="1">${timestamp}<wsse:UsernameToken wsu:Id="UsernameToken-1">${token}</wsse:UsernameToken></wsse:Security>`;
}

/**
 * A `wsu:Timestamp` from `now` for `seconds`, with UTC times in milliseconds as WSS4J writes them.
 */
export function timestampXml(id: string, now: Date, seconds: number): string {
  const expires = new Date(now.getTime() + seconds * 1000);
  return (
    `<wsu:Timestamp wsu:Id="${id}"><wsu:Created>${now.toISOString()}</wsu:Created>` +
    `<wsu:Expires>${expires.toISOString()}</wsu:Expires></wsu:Timestamp>`
  );
}

function digest(nonce: Uint8Array, created: string, password: string): string {
  return createHash("sha1")
    .update(nonce)
    .update(created, "utf8")
    .update(password, "utf8")
    .digest("base64");
}

/** A UsernameToken as received. */
export interface ReceivedUsernameToken {
  readonly username: string;
  /** The password as sent: the password itself (`text`), or its digest (`digest`). */
  readonly password: string;
  readonly passwordType: "text" | "digest";
  /** The nonce's bytes and the creation time, as sent (a digest is computed over both). */
  readonly nonce: Uint8Array | undefined;
  readonly created: string | undefined;
}

/**
 * The UsernameToken of a request's `wsse:Security` header, among the header entries the service
 * does not declare (`RequestContext.soapHeaderElements`); undefined when there is none.
 */
export function usernameToken(
  headerElements: readonly XmlNode[],
): ReceivedUsernameToken | undefined {
  const security = headerElements.find((e) => e.ns === WSSE_NS && e.local === "Security");
  const token = security && childNode(security, "UsernameToken", WSSE_NS);
  const username = token && childNode(token, "Username", WSSE_NS);
  if (!token || !username) return undefined;
  const password = childNode(token, "Password", WSSE_NS);
  const nonce = childNode(token, "Nonce", WSSE_NS);
  const created = childNode(token, "Created", WSU_NS);
  return {
    username: nodeText(username).trim(),
    password: password ? nodeText(password).trim() : "",
    passwordType: password?.attrs["Type"] === PASSWORD_DIGEST ? "digest" : "text",
    nonce: nonce ? Buffer.from(nodeText(nonce).trim(), "base64") : undefined,
    created: created ? nodeText(created).trim() : undefined,
  };
}

/**
 * Whether a received token carries `password` (its digest, for PasswordDigest), compared in
 * constant time. A replayed nonce or an old `created` is not refused here: keep the nonces seen, if
 * needed.
 */
export function passwordMatches(token: ReceivedUsernameToken, password: string): boolean {
  const expected =
    token.passwordType === "digest"
      ? digest(token.nonce ?? new Uint8Array(0), token.created ?? "", password)
      : password;
  const a = createHash("sha256").update(token.password, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

/** `body` with the text of every `wsse:Password` this module wrote replaced by `replacement`. */
export function withoutPasswords(body: string, replacement: string): string {
  const open = "<wsse:Password ";
  const close = "</wsse:Password>";
  let out = "";
  let from = 0;
  for (let i = body.indexOf(open); i !== -1; i = body.indexOf(open, from)) {
    const start = body.indexOf(">", i) + 1;
    const end = body.indexOf(close, start);
    // Cut short (never as written here): nothing after the tag is shown.
    if (start === 0 || end === -1) return out + body.slice(from, i) + replacement;
    out += body.slice(from, start) + replacement;
    from = end;
  }
  return out + body.slice(from);
}
