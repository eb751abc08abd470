/**
 * MIME header values as multipart/related and XOP use them (RFC 2045, RFC 2387): parameters whose
 * quoted values may hold `;` (a SOAP 1.2 `start-info` carries its own parameters), Content-IDs
 * with or without their angle brackets, and `cid:` URLs (RFC 2392).
 */

/** Media types are read by the one Content-Type parser, which knows quoted parameters. */
export {
  type ContentType as MediaType,
  parseContentType as parseMediaType,
} from "../http/content-type.js";

/** A Content-ID without its angle brackets (`<a@b>` → `a@b`; a bare `a@b` as it is). */
export function bareContentId(value: string): string {
  const v = value.trim();
  return v.startsWith("<") && v.endsWith(">") ? v.slice(1, -1).trim() : v;
}

/**
 * The Content-ID a `cid:` URL names (RFC 2392: the URL is the Content-ID, URL-encoded), or
 * undefined when the URL is no cid URL or does not decode.
 */
export function cidOf(href: string): string | undefined {
  const h = href.trim();
  if (h.length < 4 || h.slice(0, 4).toLowerCase() !== "cid:") return undefined;
  try {
    return decodeURIComponent(h.slice(4));
  } catch {
    return undefined;
  }
}

/** The `cid:` URL of a Content-ID (RFC 2392), the inverse of `cidOf`. */
export const cidUrl = (id: string): string =>
  "cid:" + id.replace(/[^A-Za-z0-9\-._~!$&'*+,;=:@]/g, (c) => encodeURIComponent(c));

/** A quoted-string parameter value (RFC 2045), quotes and backslashes escaped. */
export const quoted = (v: string): string => `"${v.replace(/["\\]/g, "\\$&")}"`;
