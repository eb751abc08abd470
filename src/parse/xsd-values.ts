/**
 * The located values of XML Schema attributes that every reader of a schema document reads:
 * booleans, forms, QNames and occurrences, each refused or recovered with a located diagnostic.
 */
import { diagnostic, fail, type Diagnostic, type SourceLocation } from "../diagnostics.js";
import { recovery } from "../recovery.js";
import type { XmlElement } from "./dom.js";
import { oneOf, xsdBoolean, type ValueContext } from "./enumerated.js";
import { resolveQNameValue, type QName } from "./qname.js";
import { attr, locOf } from "./xml.js";
import type { Form } from "./xsd-raw.js";

const FORMS: readonly Form[] = ["qualified", "unqualified"];

function occurs(el: XmlElement, name: "minOccurs" | "maxOccurs", file: string): number {
  const v = attr(el, name);
  if (v === undefined) return 1;
  if (name === "maxOccurs" && v.trim() === "unbounded") return Infinity;
  const n = Number(v.trim());
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n)) {
    fail(
      "XSD_BAD_OCCURS",
      `${name}="${v}" is not a non-negative integer${name === "maxOccurs" ? ' or "unbounded"' : ""}`,
      locOf(file, el),
    );
  }
  return n;
}

/** A reader of one schema document's values, each located in `file`. */
export class LocatedValues {
  protected readonly values: ValueContext;

  constructor(
    protected readonly file: string,
    protected readonly warnings: Diagnostic[],
  ) {
    this.values = { file, warnings, area: "XSD" };
  }

  protected bool(e: XmlElement, name: string): boolean {
    return xsdBoolean(this.values, e, name);
  }

  protected form(e: XmlElement, name: string): Form | undefined {
    return oneOf(this.values, e, name, FORMS, undefined);
  }

  protected q(e: XmlElement, a: string): QName | undefined {
    const v = attr(e, a);
    return v === undefined ? undefined : resolveQNameValue(e, v);
  }

  protected loc(e: XmlElement): SourceLocation {
    return locOf(this.file, e);
  }

  /** Says that `found` (an element, or what `e` holds) is left out, and what was expected. */
  protected leftOut(e: XmlElement, found: string, expected: string): void {
    this.warnings.push(
      recovery("XSD_LEFT_OUT", `found ${found}; expected ${expected}; it is left out`, this.loc(e)),
    );
  }

  /** Says that redefinitions (xs:redefine, xs:override) are not applied. */
  protected redefinitionsLeftOut(e: XmlElement): void {
    this.warnings.push(
      diagnostic(
        "XSD_REDEFINE",
        `<${e.tagName}> redefines components of ${attr(e, "schemaLocation") ?? "a schema"}; redefinitions are not supported, so the document is read as it is and they are left out`,
        this.loc(e),
        "warning",
      ),
    );
  }

  protected occurs(e: XmlElement, name: "minOccurs" | "maxOccurs"): number {
    return occurs(e, name, this.file);
  }
}
