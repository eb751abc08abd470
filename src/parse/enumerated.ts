/**
 * Attributes whose value is one of a few words (`use`, `style`, `form`, the XSD booleans). A value
 * written in another case is read as the word meant, and any other as the attribute's default, each
 * with a located recovery: a typo must not change what goes on the wire without a word.
 */
import type { Diagnostic } from "../diagnostics.js";
import { recovery } from "../recovery.js";
import type { XmlElement } from "./dom.js";
import { attr, locOf } from "./xml.js";

/** Where a reader records what it recovers from. */
export interface ValueContext {
  readonly file: string;
  readonly warnings: Diagnostic[];
  readonly area: "XSD" | "WSDL";
}

/**
 * `name`'s value on `el` when it is one of `allowed`; undefined when absent. Any other value is
 * recovered as said above, `fallback` standing for the default (undefined: as if absent).
 */
export function oneOf<T extends string>(
  cx: ValueContext,
  el: XmlElement,
  name: string,
  allowed: readonly T[],
  fallback: T | undefined,
): T | undefined {
  const written = attr(el, name);
  if (written === undefined) return undefined;
  const v = written.trim();
  const exact = allowed.find((a) => a === v);
  if (exact !== undefined) return exact;
  const meant = allowed.find((a) => a.toLowerCase() === v.toLowerCase());
  const reading = meant ?? fallback;
  const words = allowed.map((a) => `"${a}"`).join(", ");
  const readAs = reading === undefined ? "if it were absent" : `"${reading}"`;
  cx.warnings.push(
    recovery(
      cx.area === "XSD" ? "XSD_INVALID_VALUE" : "WSDL_INVALID_VALUE",
      `found ${name}="${written}" on ${el.tagName}; expected one of ${words}; reading it as ${readAs}`,
      locOf(cx.file, el),
    ),
  );
  return reading;
}

/** An XSD boolean (`true`, `false`, `1`, `0`); absent or unreadable: false. */
export const xsdBoolean = (cx: ValueContext, el: XmlElement, name: string): boolean => {
  const v = oneOf(cx, el, name, ["true", "false", "1", "0"], "false");
  return v === "true" || v === "1";
};
