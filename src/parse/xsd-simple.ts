/**
 * XML Schema's simple types (restriction, list, union) and the documentation of any component:
 * the part of reading a schema that the readers of its other components build on.
 */
import type { XmlElement } from "./dom.js";
import { NS } from "./namespaces.js";
import { resolveQNameValue } from "./qname.js";
import { LocatedValues } from "./xsd-values.js";
import { attr, nameAttr } from "./xml.js";
import type { RawSimpleType } from "./xsd-raw.js";
import { put, opt, type Building } from "./building.js";
import type { Facets } from "@wsdl-tsgen/runtime/internal";

export const isXsd = (el: XmlElement, local: string): boolean =>
  el.namespaceURI === NS.xsd && el.localName === local;

export const mayDocument = (c: XmlElement): boolean =>
  c.localName === "annotation" || c.localName === "documentation";

/** The text of `xs:annotation/xs:documentation` (or of `wsdl:documentation`), trimmed. */
export function documentation(el: XmlElement): string | undefined {
  // Most elements have none: look before allocating.
  if (!el.elements.some(mayDocument)) return undefined;
  const texts: string[] = [];
  for (const c of el.elements) {
    if (isXsd(c, "annotation")) {
      for (const d of c.elements) if (isXsd(d, "documentation")) texts.push(d.textContent);
    } else if (c.localName === "documentation" && c.namespaceURI === NS.wsdl) {
      texts.push(c.textContent);
    }
  }
  const text = texts.join("\n").trim();
  return text === "" ? undefined : text;
}

const COUNTS = ["length", "minLength", "maxLength", "totalDigits", "fractionDigits"] as const;
const BOUNDS = ["minInclusive", "maxInclusive", "minExclusive", "maxExclusive"] as const;

/** A restriction's facets other than enumeration; undefined when it has none. */
function facetsOf(c: XmlElement): Facets | undefined {
  const f: { -readonly [K in keyof Facets]: Facets[K] } = {};
  const patterns: string[] = [];
  for (const x of c.elements) {
    const value = attr(x, "value");
    if (x.namespaceURI !== NS.xsd || value === undefined) continue;
    const name = x.localName;
    if (name === "pattern") patterns.push(value);
    else if ((COUNTS as readonly string[]).includes(name)) {
      const n = Number(value.trim());
      if (Number.isInteger(n) && n >= 0) f[name as (typeof COUNTS)[number]] = n;
    } else if ((BOUNDS as readonly string[]).includes(name))
      f[name as (typeof BOUNDS)[number]] = value.trim();
  }
  // The patterns of one step: a value matches one of them.
  if (patterns.length > 0)
    f.pattern = [patterns.length === 1 ? patterns[0]! : patterns.map((p) => `(${p})`).join("|")];
  return Object.keys(f).length > 0 ? f : undefined;
}

/** Reads simple types; SchemaReader reads the rest. */
export class SimpleTypeReader extends LocatedValues {
  protected simpleType(e: XmlElement): RawSimpleType {
    const r: Building<RawSimpleType> = { kind: "simpleType" };
    put(r, "name", nameAttr(e));
    for (const c of e.elements) {
      if (isXsd(c, "restriction")) put(r, "restriction", this.simpleRestriction(c));
      else if (isXsd(c, "list")) put(r, "list", this.simpleList(c));
      else if (isXsd(c, "union")) put(r, "union", this.simpleUnion(c));
    }
    put(r, "doc", documentation(e));
    r.loc = this.loc(e);
    return r as RawSimpleType;
  }

  private simpleRestriction(c: XmlElement): RawSimpleType["restriction"] {
    const inline = c.elements.find((x) => isXsd(x, "simpleType"));
    return {
      ...opt("base", this.q(c, "base")),
      ...opt("inlineBase", inline && this.simpleType(inline)),
      enumeration: c.elements
        .filter((x) => isXsd(x, "enumeration"))
        .map((x) => attr(x, "value") ?? ""),
      ...opt("facets", facetsOf(c)),
    };
  }

  private simpleList(c: XmlElement): RawSimpleType["list"] {
    const inline = c.elements.find((x) => isXsd(x, "simpleType"));
    return {
      ...opt("itemType", this.q(c, "itemType")),
      ...opt("inline", inline && this.simpleType(inline)),
    };
  }

  private simpleUnion(c: XmlElement): RawSimpleType["union"] {
    const members = (attr(c, "memberTypes") ?? "").split(/\s+/).filter(Boolean);
    return {
      memberTypes: members.map((m) => resolveQNameValue(c, m)),
      inline: c.elements.filter((x) => isXsd(x, "simpleType")).map((x) => this.simpleType(x)),
    };
  }
}
