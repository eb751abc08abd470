/**
 * XML white space, which the scalars, the tokenizer and both ends' empty-body checks read alike:
 * here rather than in xml/, so that scalars/, which xml/ stands on, need not import xml/.
 */
/** Whether a character code is XML white space (space, tab, LF, CR): not NBSP or other spaces. */
export const isXmlSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

/**
 * Whether a body, as text or as UTF-8 bytes, holds nothing but XML white space (after a byte order
 * mark, if any): what client and server call an empty body.
 */
export function onlyWhiteSpace(body: string | Uint8Array): boolean {
  const text = typeof body === "string";
  const from = text
    ? body.charCodeAt(0) === 0xfeff
      ? 1
      : 0
    : body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf
      ? 3
      : 0;
  for (let i = from; i < body.length; i++) {
    const c = text ? body.charCodeAt(i) : body[i];
    if (!isXmlSpace(c!)) return false;
  }
  return true;
}
