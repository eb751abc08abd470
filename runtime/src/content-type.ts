/** Content-Type headers, as the client and the server read them. */

/** Parses `type/subtype; a=b; c="d"` into its media type and parameters (names lower-cased). */
export function parseContentType(value: string | undefined): {
  type: string;
  params: Record<string, string>;
} {
  const parts = (value ?? "").split(";");
  const params: Record<string, string> = {};
  for (const p of parts.slice(1)) {
    const eq = p.indexOf("=");
    if (eq === -1) continue;
    let v = p.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
    params[p.slice(0, eq).trim().toLowerCase()] = v;
  }
  return { type: parts[0]!.trim().toLowerCase(), params };
}

/**
 * Whether a charset label (absent: the default) means UTF-8, whose bytes the XML decoders read as
 * they are.
 */
export function isUtf8Charset(charset: string | undefined): boolean {
  const label = (charset || "utf-8").toLowerCase();
  return label === "utf-8" || label === "utf8";
}
