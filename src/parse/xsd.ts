/**
 * Stage one for XML Schema: a faithful, located object form of `xs:schema` elements.
 * Nothing is resolved here beyond QName prefixes; the model mapper links names to declarations.
 */
import type { XmlElement } from "./dom.js";
import { fail, type Diagnostic, type SourceLocation } from "../diagnostics.js";
import { recovery } from "../recovery.js";
import { NS } from "./namespaces.js";
import { resolveQNameValue, type QName } from "./qname.js";
import { attr, locOf, nameAttr } from "./xml.js";

export type Form = "qualified" | "unqualified";

export interface RawSchema {
  readonly kind: "schema";
  readonly file: string;
  readonly targetNamespace: string;
  readonly elementFormDefault: Form;
  readonly attributeFormDefault: Form;
  readonly elements: readonly RawElement[];
  readonly complexTypes: readonly RawComplexType[];
  readonly simpleTypes: readonly RawSimpleType[];
  readonly groups: readonly RawGroup[];
  readonly attributeGroups: readonly RawAttributeGroup[];
  readonly attributes: readonly RawAttribute[];
  readonly imports: readonly RawSchemaReference[];
  readonly includes: readonly (RawSchemaReference & { readonly schemaLocation: string })[];
  readonly loc: SourceLocation;
}

/** An `xs:import` or `xs:include`/`xs:redefine`. */
export interface RawSchemaReference {
  readonly namespace?: string;
  readonly schemaLocation?: string;
  /** Set when the location was written as `location=` (the attribute of `wsdl:import`), not `schemaLocation=`. */
  readonly misnamed?: true;
  readonly loc: SourceLocation;
}

export interface RawElement {
  readonly kind: "element";
  readonly name?: string;
  readonly ref?: QName;
  readonly type?: QName;
  readonly complexType?: RawComplexType;
  readonly simpleType?: RawSimpleType;
  readonly minOccurs: number;
  /** `Infinity` for unbounded. */
  readonly maxOccurs: number;
  readonly nillable: boolean;
  readonly abstract: boolean;
  readonly default?: string;
  readonly fixed?: string;
  readonly form?: Form;
  readonly substitutionGroup?: QName;
  readonly doc?: string;
  readonly loc: SourceLocation;
}

export interface RawAny {
  readonly kind: "any";
  readonly namespace?: string;
  readonly processContents?: string;
  readonly minOccurs: number;
  readonly maxOccurs: number;
  readonly loc: SourceLocation;
}

export interface RawGroupRef {
  readonly kind: "groupRef";
  readonly ref: QName;
  readonly minOccurs: number;
  readonly maxOccurs: number;
  readonly loc: SourceLocation;
}

export interface RawParticle {
  readonly kind: "sequence" | "choice" | "all";
  readonly minOccurs: number;
  readonly maxOccurs: number;
  readonly items: readonly (RawElement | RawParticle | RawAny | RawGroupRef)[];
  readonly loc: SourceLocation;
}

export interface RawAttribute {
  readonly kind: "attribute";
  readonly name?: string;
  readonly ref?: QName;
  readonly type?: QName;
  readonly simpleType?: RawSimpleType;
  readonly use: "optional" | "required" | "prohibited";
  readonly default?: string;
  readonly fixed?: string;
  readonly form?: Form;
  /**
   * `wsdl:arrayType` (on a `ref` to SOAP encoding's arrayType): an encoded array's item type and
   * the dimensions written after it (`[]`, or `[,]` and `[][]` for multi-dimensional arrays).
   */
  readonly arrayType?: { readonly item: QName; readonly dims: string; readonly text: string };
  readonly doc?: string;
  readonly loc: SourceLocation;
}

export interface RawAttributeGroupRef {
  readonly kind: "attributeGroupRef";
  readonly ref: QName;
  readonly loc: SourceLocation;
}

export interface RawAttributeGroup {
  readonly kind: "attributeGroup";
  readonly name: string;
  readonly attributes: readonly (RawAttribute | RawAttributeGroupRef)[];
  readonly loc: SourceLocation;
}

export interface RawGroup {
  readonly kind: "group";
  readonly name: string;
  readonly particle?: RawParticle;
  readonly loc: SourceLocation;
}

export interface RawDerivation {
  readonly derivation: "extension" | "restriction";
  readonly base: QName;
  readonly particle?: RawParticle | RawGroupRef;
  readonly attributes: readonly (RawAttribute | RawAttributeGroupRef)[];
  readonly anyAttribute: boolean;
  readonly loc: SourceLocation;
}

export interface RawComplexType {
  readonly kind: "complexType";
  readonly name?: string;
  readonly abstract: boolean;
  readonly mixed: boolean;
  readonly particle?: RawParticle | RawGroupRef;
  readonly attributes: readonly (RawAttribute | RawAttributeGroupRef)[];
  readonly anyAttribute: boolean;
  readonly complexContent?: RawDerivation;
  readonly simpleContent?: RawDerivation;
  readonly doc?: string;
  readonly loc: SourceLocation;
}

export interface RawSimpleType {
  readonly kind: "simpleType";
  readonly name?: string;
  readonly restriction?: {
    readonly base?: QName;
    readonly inlineBase?: RawSimpleType;
    readonly enumeration: readonly string[];
  };
  readonly list?: { readonly itemType?: QName; readonly inline?: RawSimpleType };
  readonly union?: {
    readonly memberTypes: readonly QName[];
    readonly inline: readonly RawSimpleType[];
  };
  readonly doc?: string;
  readonly loc: SourceLocation;
}

/** The elements an `xs:schema` may contain. */
const SCHEMA_CHILDREN = [
  "element",
  "complexType",
  "simpleType",
  "attribute",
  "group",
  "attributeGroup",
  "import",
  "include",
  "redefine",
  "override",
  "annotation",
  "notation",
  "defaultOpenContent",
] as const;

const KNOWN_CHILDREN: ReadonlySet<string> = new Set(SCHEMA_CHILDREN);

const isXsd = (el: XmlElement, local: string): boolean =>
  el.namespaceURI === NS.xsd && el.localName === local;

/** The first `xs:<local>` child of `el`, if any (a loop: no closure per call). */
function firstXsd(el: XmlElement, local: string): XmlElement | undefined {
  for (const c of el.elements) if (isXsd(c, local)) return c;
  return undefined;
}

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

function bool(el: XmlElement, name: string): boolean {
  const v = attr(el, name)?.trim();
  return v === "true" || v === "1";
}

function form(el: XmlElement, name: string): Form | undefined {
  const v = attr(el, name)?.trim();
  return v === "qualified" || v === "unqualified" ? v : undefined;
}

const mayDocument = (c: XmlElement): boolean =>
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

/** Reads one `xs:schema` element. */
export function readSchema(el: XmlElement, file: string, warnings: Diagnostic[] = []): RawSchema {
  const q = (e: XmlElement, a: string): QName | undefined => {
    const v = attr(e, a);
    return v === undefined ? undefined : resolveQNameValue(e, v);
  };
  const loc = (e: XmlElement) => locOf(file, e);

  const readAttributeList = (
    parent: XmlElement,
  ): { attributes: (RawAttribute | RawAttributeGroupRef)[]; anyAttribute: boolean } => {
    const attributes: (RawAttribute | RawAttributeGroupRef)[] = [];
    let anyAttribute = false;
    for (const c of parent.elements) {
      if (isXsd(c, "attribute")) attributes.push(readAttribute(c));
      else if (isXsd(c, "attributeGroup"))
        attributes.push({ kind: "attributeGroupRef", ref: q(c, "ref")!, loc: loc(c) });
      else if (isXsd(c, "anyAttribute")) anyAttribute = true;
    }
    return { attributes, anyAttribute };
  };

  const readAttribute = (e: XmlElement): RawAttribute => {
    const st = firstXsd(e, "simpleType");
    const use = attr(e, "use")?.trim();
    const a: Building<RawAttribute> = { kind: "attribute" };
    put(a, "name", nameAttr(e));
    put(a, "ref", q(e, "ref"));
    put(a, "type", q(e, "type"));
    put(a, "simpleType", st && readSimpleType(st));
    a.use = use === "required" || use === "prohibited" ? use : "optional";
    put(a, "default", attr(e, "default"));
    put(a, "fixed", attr(e, "fixed"));
    put(a, "form", form(e, "form"));
    put(a, "arrayType", arrayType(e));
    put(a, "doc", documentation(e));
    a.loc = loc(e);
    return a as RawAttribute;
  };

  const arrayType = (e: XmlElement): RawAttribute["arrayType"] => {
    const text = e.getAttributeNS(NS.wsdl, "arrayType")?.trim();
    const bracket = text?.indexOf("[") ?? -1;
    if (text === undefined || bracket < 1) return undefined;
    return { item: resolveQNameValue(e, text.slice(0, bracket)), dims: text.slice(bracket), text };
  };

  const readParticleChild = (c: XmlElement): RawParticle | RawGroupRef | undefined => {
    if (isXsd(c, "sequence") || isXsd(c, "choice") || isXsd(c, "all")) return readParticle(c);
    if (isXsd(c, "group")) {
      const ref = q(c, "ref");
      if (!ref) fail("XSD_GROUP_WITHOUT_REF", "a local xs:group needs a ref attribute", loc(c));
      return {
        kind: "groupRef",
        ref,
        minOccurs: occurs(c, "minOccurs", file),
        maxOccurs: occurs(c, "maxOccurs", file),
        loc: loc(c),
      };
    }
    return undefined;
  };

  const readParticle = (e: XmlElement): RawParticle => {
    const items: (RawElement | RawParticle | RawAny | RawGroupRef)[] = [];
    for (const c of e.elements) {
      if (isXsd(c, "element")) items.push(readElement(c));
      else if (isXsd(c, "any")) {
        items.push({
          kind: "any",
          ...opt("namespace", attr(c, "namespace")),
          ...opt("processContents", attr(c, "processContents")),
          minOccurs: occurs(c, "minOccurs", file),
          maxOccurs: occurs(c, "maxOccurs", file),
          loc: loc(c),
        });
      } else {
        const p = readParticleChild(c);
        if (p) items.push(p);
      }
    }
    return {
      kind: e.localName as RawParticle["kind"],
      minOccurs: occurs(e, "minOccurs", file),
      maxOccurs: occurs(e, "maxOccurs", file),
      items,
      loc: loc(e),
    };
  };

  const readDerivation = (e: XmlElement): RawDerivation => {
    const d = e.elements.find((c) => isXsd(c, "extension") || isXsd(c, "restriction"));
    if (!d)
      fail(
        "XSD_BAD_CONTENT",
        `xs:${e.localName} needs an xs:extension or xs:restriction child`,
        loc(e),
      );
    const base = q(d, "base");
    if (!base) fail("XSD_MISSING_ATTRIBUTE", `xs:${d.localName} needs a base attribute`, loc(d));
    let particle: RawParticle | RawGroupRef | undefined;
    for (const c of d.elements) particle ??= readParticleChild(c);
    return {
      derivation: d.localName as "extension" | "restriction",
      base,
      ...opt("particle", particle),
      ...readAttributeList(d),
      loc: loc(d),
    };
  };

  const readComplexType = (e: XmlElement): RawComplexType => {
    let particle: RawParticle | RawGroupRef | undefined;
    let complexContent: RawDerivation | undefined;
    let simpleContent: RawDerivation | undefined;
    for (const c of e.elements) {
      if (isXsd(c, "complexContent")) complexContent = readDerivation(c);
      else if (isXsd(c, "simpleContent")) simpleContent = readDerivation(c);
      else particle ??= readParticleChild(c);
    }
    const r: Building<RawComplexType> = { kind: "complexType" };
    put(r, "name", nameAttr(e));
    r.abstract = bool(e, "abstract");
    r.mixed = bool(e, "mixed");
    put(r, "particle", particle);
    const list = readAttributeList(e);
    r.attributes = list.attributes;
    r.anyAttribute = list.anyAttribute;
    put(r, "complexContent", complexContent);
    put(r, "simpleContent", simpleContent);
    put(r, "doc", documentation(e));
    r.loc = loc(e);
    return r as RawComplexType;
  };

  const readSimpleType = (e: XmlElement): RawSimpleType => {
    let restriction: RawSimpleType["restriction"];
    let list: RawSimpleType["list"];
    let union: RawSimpleType["union"];
    for (const c of e.elements) {
      if (isXsd(c, "restriction")) {
        const inline = c.elements.find((x) => isXsd(x, "simpleType"));
        restriction = {
          ...opt("base", q(c, "base")),
          ...opt("inlineBase", inline && readSimpleType(inline)),
          enumeration: c.elements
            .filter((x) => isXsd(x, "enumeration"))
            .map((x) => attr(x, "value") ?? ""),
        };
      } else if (isXsd(c, "list")) {
        const inline = c.elements.find((x) => isXsd(x, "simpleType"));
        list = {
          ...opt("itemType", q(c, "itemType")),
          ...opt("inline", inline && readSimpleType(inline)),
        };
      } else if (isXsd(c, "union")) {
        const members = (attr(c, "memberTypes") ?? "").split(/\s+/).filter(Boolean);
        union = {
          memberTypes: members.map((m) => resolveQNameValue(c, m)),
          inline: c.elements.filter((x) => isXsd(x, "simpleType")).map(readSimpleType),
        };
      }
    }
    const r: Building<RawSimpleType> = { kind: "simpleType" };
    put(r, "name", nameAttr(e));
    put(r, "restriction", restriction);
    put(r, "list", list);
    put(r, "union", union);
    put(r, "doc", documentation(e));
    r.loc = loc(e);
    return r as RawSimpleType;
  };

  const readElement = (e: XmlElement): RawElement => {
    let complexType: RawComplexType | undefined;
    let simpleType: RawSimpleType | undefined;
    for (const c of e.elements) {
      if (isXsd(c, "complexType")) complexType = readComplexType(c);
      else if (isXsd(c, "simpleType")) simpleType = readSimpleType(c);
    }
    const name = nameAttr(e);
    const ref = q(e, "ref");
    if (name === undefined && ref === undefined) {
      fail("XSD_MISSING_ATTRIBUTE", "xs:element needs a name or a ref attribute", loc(e));
    }
    const r: Building<RawElement> = { kind: "element" };
    put(r, "name", name);
    put(r, "ref", ref);
    put(r, "type", q(e, "type"));
    put(r, "complexType", complexType);
    put(r, "simpleType", simpleType);
    r.minOccurs = occurs(e, "minOccurs", file);
    r.maxOccurs = occurs(e, "maxOccurs", file);
    r.nillable = bool(e, "nillable");
    r.abstract = bool(e, "abstract");
    put(r, "default", attr(e, "default"));
    put(r, "fixed", attr(e, "fixed"));
    put(r, "form", form(e, "form"));
    put(r, "substitutionGroup", q(e, "substitutionGroup"));
    put(r, "doc", documentation(e));
    r.loc = loc(e);
    return r as RawElement;
  };

  const elements: RawElement[] = [];
  const complexTypes: RawComplexType[] = [];
  const simpleTypes: RawSimpleType[] = [];
  const groups: RawGroup[] = [];
  const attributeGroups: RawAttributeGroup[] = [];
  const attributes: RawAttribute[] = [];
  const imports: RawSchemaReference[] = [];
  const includes: (RawSchemaReference & { schemaLocation: string })[] = [];
  // `location=` is wsdl:import's attribute; written on xs:import or xs:include it still names the file.
  const where = (c: XmlElement) => {
    const sl = attr(c, "schemaLocation");
    const l = sl === undefined ? attr(c, "location") : undefined;
    return l !== undefined
      ? { schemaLocation: l, misnamed: true as const }
      : sl !== undefined
        ? { schemaLocation: sl }
        : {};
  };
  for (const c of el.elements) {
    if (c.namespaceURI !== NS.xsd) continue;
    switch (componentName(c, file, warnings)) {
      case "element":
        elements.push(readElement(c));
        break;
      case "complexType":
        complexTypes.push(readComplexType(c));
        break;
      case "simpleType":
        simpleTypes.push(readSimpleType(c));
        break;
      case "attribute":
        attributes.push(readAttribute(c));
        break;
      case "group": {
        const p = c.elements.find(
          (x) => isXsd(x, "sequence") || isXsd(x, "choice") || isXsd(x, "all"),
        );
        groups.push({
          kind: "group",
          name: nameAttr(c) ?? "",
          ...opt("particle", p && readParticle(p)),
          loc: loc(c),
        });
        break;
      }
      case "attributeGroup":
        attributeGroups.push({
          kind: "attributeGroup",
          name: nameAttr(c) ?? "",
          attributes: readAttributeList(c).attributes,
          loc: loc(c),
        });
        break;
      case "import":
        imports.push({ ...opt("namespace", attr(c, "namespace")), ...where(c), loc: loc(c) });
        break;
      case "include":
      case "redefine": {
        const w = where(c);
        if (w.schemaLocation)
          includes.push({ ...w, schemaLocation: w.schemaLocation, loc: loc(c) });
        break;
      }
      default:
        break;
    }
  }
  return {
    kind: "schema",
    file,
    targetNamespace: attr(el, "targetNamespace") ?? "",
    elementFormDefault: form(el, "elementFormDefault") ?? "unqualified",
    attributeFormDefault: form(el, "attributeFormDefault") ?? "unqualified",
    elements,
    complexTypes,
    simpleTypes,
    groups,
    attributeGroups,
    attributes,
    imports,
    includes,
    loc: loc(el),
  };
}

/**
 * The local name of a schema child, or, when it is a component name misspelt only in case
 * (`xs:simpletype`), the component meant, with a recovery warning: otherwise the component would
 * vanish and surface later as an unresolved reference far from its cause.
 */
function componentName(c: XmlElement, file: string, warnings: Diagnostic[]): string | null {
  if (KNOWN_CHILDREN.has(c.localName)) return c.localName;
  const meant = SCHEMA_CHILDREN.find((n) => n.toLowerCase() === c.localName?.toLowerCase());
  if (!meant || meant === c.localName) return c.localName;
  warnings.push(
    recovery(
      "XSD_UNKNOWN_ELEMENT",
      `<${c.tagName}> is not an XML Schema element (XML names are case-sensitive); reading it as xs:${meant}`,
      locOf(file, c),
    ),
  );
  return meant;
}

/** An object being built one property at a time (see put). */
type Building<T> = { -readonly [K in keyof T]?: T[K] };

/**
 * Sets `o[key]` when `value` is defined: exact-optional like opt, without the object and the spread
 * that opt costs per property (the readers below run for every schema element).
 */
function put<T, K extends keyof T>(o: Building<T>, key: K, value: T[K] | undefined): void {
  if (value !== undefined) o[key] = value;
}

/** `{ key: value }` when the value is defined, `{}` otherwise: keeps objects exact-optional. */
export function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
