/** Content-Type headers, as the client and the server read them. */

export interface ContentType {
  readonly type: string;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Headers parsed before: a client sends the same Content-Type with every request. Short ones only,
 * and a few: the table is emptied when full.
 */
const parsed = new Map<string, ContentType>();
const MAX_PARSED = 32;
const MAX_PARSED_LENGTH = 200;

/** Parses `type/subtype; a=b; c="d"` into its media type and parameters (names lower-cased). */
export function parseContentType(value: string | undefined): ContentType {
  if (value === undefined || value.length > MAX_PARSED_LENGTH) return parse(value ?? "");
  let ct = parsed.get(value);
  if (ct === undefined) {
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(value, (ct = parse(value)));
  }
  return ct;
}

function parse(value: string): ContentType {
  const parts = value.split(";");
  const params: Record<string, string> = {};
  for (const p of parts.slice(1)) {
    const eq = p.indexOf("=");
    if (eq === -1) continue;
    let v = p.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
    params[p.slice(0, eq).trim().toLowerCase()] = v;
  }
  // Frozen, since a parsed header is shared by every request that sends it.
  return Object.freeze({ type: parts[0]!.trim().toLowerCase(), params: Object.freeze(params) });
}

/**
 * Whether a charset label (absent: the default) means UTF-8, whose bytes the XML decoders read as
 * they are.
 */
export function isUtf8Charset(charset: string | undefined): boolean {
  const label = (charset || "utf-8").toLowerCase();
  return label === "utf-8" || label === "utf8";
}
