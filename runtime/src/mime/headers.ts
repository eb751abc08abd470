/**
 * MIME header values as multipart/related and XOP use them (RFC 2045, RFC 2387): parameters whose
 * quoted values may hold `;` (a SOAP 1.2 `start-info` carries its own parameters), Content-IDs
 * with or without their angle brackets, and `cid:` URLs (RFC 2392).
 */

/** A media type and its parameters, names lower-cased, quoted values unquoted. */
export interface MediaType {
  readonly type: string;
  readonly params: Readonly<Record<string, string>>;
}

/** Parses `type/subtype; a=b; c="d; e=\"f\""`: quoted strings may hold `;` and escaped quotes. */
export function parseMediaType(value: string): MediaType {
  const params: Record<string, string> = {};
  const semi = value.indexOf(";");
  const type = (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
  let i = semi === -1 ? value.length : semi + 1;
  while (i < value.length) {
    const eq = value.indexOf("=", i);
    if (eq === -1) break;
    const name = value.slice(i, eq).trim().toLowerCase();
    let j = eq + 1;
    while (value[j] === " " || value[j] === "\t") j++;
    let v = "";
    if (value[j] === '"') {
      for (j++; j < value.length && value[j] !== '"'; j++)
        v += value[j] === "\\" ? value[++j] : value[j];
      j = value.indexOf(";", j);
    } else {
      const end = value.indexOf(";", j);
      v = value.slice(j, end === -1 ? value.length : end).trim();
      j = end;
    }
    // The first of a repeated parameter counts: a later one cannot change what was checked.
    if (name !== "" && !Object.hasOwn(params, name)) params[name] = v;
    if (j === -1) break;
    i = j + 1;
  }
  return { type, params };
}

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

/** A quoted-string parameter value (RFC 2045), quotes and backslashes escaped. */
export const quoted = (v: string): string => `"${v.replace(/["\\]/g, "\\$&")}"`;
