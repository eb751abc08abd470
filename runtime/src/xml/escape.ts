/** Escaping of element text and attribute values, and refusal of characters XML cannot hold. */
import { ValueFormatError } from "../scalars/scalars.js";

/** Characters that element text (`TEXT_SPECIAL`) or an attribute value must escape or refuse. */
export const TEXT_SPECIAL =
  /[&<>\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/g;
const ATTR_SPECIAL = /[&<>"\r\n\t\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/g;

/**
 * Escapes text for XML, jumping from one special character to the next. Element text escapes `&`,
 * `<`, `>` and CR (quotes and non-ASCII stay literal, as ASMX writes them); attribute values also
 * escape `"`, LF and TAB. Characters XML 1.0 cannot carry at all are refused.
 */
export function escape(s: string, re: RegExp): string {
  // `test` rather than `exec`: each special character is one code unit, found at lastIndex - 1,
  // and no match array is made for it (about a fifth of the time on text full of markup
  // characters).
  re.lastIndex = 0;
  if (!re.test(s)) return s;
  let out = "";
  let last = 0;
  do {
    const i = re.lastIndex - 1;
    const c = s.charCodeAt(i);
    let rep: string;
    if (c === 38) rep = "&amp;";
    else if (c === 60) rep = "&lt;";
    else if (c === 62) rep = "&gt;";
    else if (c === 13) rep = "&#xD;";
    else if (c === 34) rep = "&quot;";
    else if (c === 10) rep = "&#xA;";
    else if (c === 9) rep = "&#x9;";
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff))
        throw new ValueFormatError("the text contains an unpaired surrogate");
      re.lastIndex = i + 2;
      continue;
    } else
      throw new ValueFormatError("the text contains a character that XML 1.0 cannot represent");
    out += s.slice(last, i) + rep;
    last = i + 1;
  } while (re.test(s));
  return out + s.slice(last);
}

/** Escapes element text minimally (`&`, `<`, `>`, CR), keeping quotes and non-ASCII literal. */
export function escapeText(s: string): string {
  return escape(s, TEXT_SPECIAL);
}

export function escapeAttr(s: string): string {
  return escape(s, ATTR_SPECIAL);
}

// ---- errors with lazily built paths ----
