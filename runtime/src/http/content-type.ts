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

/**
 * RFC 2045's grammar: a quoted value may hold `;` and escaped quotes (a SOAP 1.2 `start-info`
 * carries its own parameters). The first of a repeated parameter counts.
 */
function parse(value: string): ContentType {
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
    if (name !== "" && !Object.hasOwn(params, name)) params[name] = v;
    if (j === -1) break;
    i = j + 1;
  }
  // Frozen, since a parsed header is shared by every request that sends it.
  return Object.freeze({ type, params: Object.freeze(params) });
}

/**
 * Whether a charset label (absent: the default) means UTF-8, whose bytes the XML decoders read as
 * they are.
 */
export function isUtf8Charset(charset: string | undefined): boolean {
  const label = (charset || "utf-8").toLowerCase();
  return label === "utf-8" || label === "utf8";
}
