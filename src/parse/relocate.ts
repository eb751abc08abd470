/**
 * The documents of a WSDL with their import and include locations pointing elsewhere: at local
 * copies (`download`), or at the URLs a generated server serves them at (`?xsd=1`, embedded for
 * `?WSDL`). A reference is rewritten where its importing document names it (`schemaLocation=` or
 * `location=` with that exact value), so the rest of the text stays as written.
 */
import { escapeRegExp } from "@wsdl-tsgen/runtime/internal";
import type { LoadedDocuments } from "./loader.js";

/**
 * Each document's text, by location, with the references `relocate` gives a new location rewritten.
 */
export function relocatedTexts(
  docs: Pick<LoadedDocuments, "texts" | "references">,
  relocate: (target: string) => string | undefined,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const [loc, text] of docs.texts) {
    let rewritten = text;
    for (const ref of docs.references) {
      if (ref.from !== loc) continue;
      const to = relocate(ref.target);
      if (to === undefined) continue;
      rewritten = rewritten.replace(
        new RegExp(
          `((?:schemaLocation|location)\\s*=\\s*)(["'])${escapeRegExp(ref.value)}\\2`,
          "g",
        ),
        (_m, attr: string, quote: string) => `${attr}${quote}${to}${quote}`,
      );
    }
    out.set(loc, rewritten);
  }
  return out;
}
