/**
 * Text that may hold what a peer sent, quoted in an error, a fault or the log: kept short, writable
 * as XML, and without query strings, so that no message can be flooded or made to leak.
 */

/** The most characters of one piece of input that a fault or error message quotes. */
const QUOTE_LIMIT = 200;
/** The longest message sent; a backstop for quoted input with spaces in it. */
const MESSAGE_LIMIT = 1000;
// Characters XML 1.0 cannot carry: C0 controls but TAB, LF and CR, U+FFFE/U+FFFF, lone surrogates.
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const LONG_RUN = new RegExp(`\\S{${QUOTE_LIMIT + 1},}`, "g");

const escaped = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** `text` cut to QUOTE_LIMIT characters, with "…" where it was cut. */
export function clipped(text: string): string {
  return text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text;
}

/**
 * A message for a fault or a plain-text error: characters XML cannot carry written as `\uXXXX`,
 * every run of more than QUOTE_LIMIT characters without a space clipped (our own words are short,
 * so such a run is input), and the whole cut to MESSAGE_LIMIT.
 */
export function messageText(message: string): string {
  let m = message.replace(NOT_XML, escaped);
  if (m.length > QUOTE_LIMIT) m = m.replace(LONG_RUN, clipped);
  return m.length > MESSAGE_LIMIT ? `${m.slice(0, MESSAGE_LIMIT)}…` : m;
}

/** A request target for the log: its path only (a query may hold a password), clipped. */
export function loggedTarget(url: string | undefined): string {
  const target = url ?? "/";
  const q = target.indexOf("?");
  return messageText(clipped(q === -1 ? target : `${target.slice(0, q)}?…`));
}
