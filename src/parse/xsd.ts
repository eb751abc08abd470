/**
 * Stage one for XML Schema: a faithful, located object form of `xs:schema` elements.
 * Nothing is resolved here beyond QName prefixes; the model mapper links names to declarations.
 */
import type { XmlElement } from "./dom.js";
import { fail, type Diagnostic } from "../diagnostics.js";
import { recovery } from "../recovery.js";
import { NS } from "./namespaces.js";
import { resolveQNameValue } from "./qname.js";
import { oneOf } from "./enumerated.js";
import { put, opt, type Building } from "./building.js";
import { documentation, isXsd, mayDocument, SimpleTypeReader } from "./xsd-simple.js";
import { attr, locOf, nameAttr } from "./xml.js";
import type {
  RawAny,
  RawAnyAttribute,
  RawAttribute,
  RawAttributeGroup,
  RawAttributeGroupRef,
  RawComplexType,
  RawDerivation,
  RawElement,
  RawGroup,
  RawGroupRef,
  RawParticle,
  RawSchema,
  RawSchemaReference,
  RawSimpleType,
} from "./xsd-raw.js";

export type * from "./xsd-raw.js";
export { documentation, opt };

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

const FOREIGN_IN_SCHEMA =
  "an XML Schema component (foreign content belongs in xs:annotation/xs:appinfo)";
const PARTICLE_CONTENT = "xs:element, xs:any, xs:sequence, xs:choice, xs:all or xs:group";

/** The first `xs:<local>` child of `el`, if any (a loop: no closure per call). */
function firstXsd(el: XmlElement, local: string): XmlElement | undefined {
  for (const c of el.elements) if (isXsd(c, local)) return c;
  return undefined;
}

const USES = ["optional", "required", "prohibited"] as const;

/** Reads one `xs:schema` element. */
export function readSchema(el: XmlElement, file: string, warnings: Diagnostic[] = []): RawSchema {
  return new SchemaReader(file, warnings).schema(el);
}

/** A schema's top-level components, in document order, by kind (see SchemaReader.component). */
interface Components {
  readonly elements: RawElement[];
  readonly complexTypes: RawComplexType[];
  readonly simpleTypes: RawSimpleType[];
  readonly groups: RawGroup[];
  readonly attributeGroups: RawAttributeGroup[];
  readonly attributes: RawAttribute[];
  readonly imports: RawSchemaReference[];
  readonly includes: (RawSchemaReference & { schemaLocation: string })[];
}

/**
 * Where an xs:import or xs:include says its document is: `location=` is wsdl:import's attribute;
 * written here it still names the file.
 */
function where(c: XmlElement): { schemaLocation?: string; misnamed?: true } {
  const sl = attr(c, "schemaLocation");
  const l = sl === undefined ? attr(c, "location") : undefined;
  return l !== undefined
    ? { schemaLocation: l, misnamed: true as const }
    : sl !== undefined
      ? { schemaLocation: sl }
      : {};
}

/** The `wsdl:arrayType` of an attribute (SOAP encoding's array declarations). */
function arrayType(e: XmlElement): RawAttribute["arrayType"] {
  const text = e.getAttributeNS(NS.wsdl, "arrayType")?.trim();
  const bracket = text?.indexOf("[") ?? -1;
  if (text === undefined || bracket < 1) return undefined;
  return { item: resolveQNameValue(e, text.slice(0, bracket)), dims: text.slice(bracket), text };
}

/** Reads the components of one schema document, each located in `file`. */
class SchemaReader extends SimpleTypeReader {
  schema(el: XmlElement): RawSchema {
    const found: Components = {
      elements: [],
      complexTypes: [],
      simpleTypes: [],
      groups: [],
      attributeGroups: [],
      attributes: [],
      imports: [],
      includes: [],
    };
    for (const c of el.elements) {
      if (c.namespaceURI === NS.xsd) this.component(c, found);
      else this.leftOut(c, `<${c.tagName}>`, FOREIGN_IN_SCHEMA);
    }
    return {
      kind: "schema",
      file: this.file,
      targetNamespace: attr(el, "targetNamespace") ?? "",
      elementFormDefault: this.form(el, "elementFormDefault") ?? "unqualified",
      attributeFormDefault: this.form(el, "attributeFormDefault") ?? "unqualified",
      ...found,
      loc: this.loc(el),
    };
  }

  /** One top-level child of xs:schema, read into `found`. */
  private component(c: XmlElement, found: Components): void {
    switch (componentName(c, this.file, this.warnings)) {
      case "element":
        found.elements.push(this.element(c));
        break;
      case "complexType":
        found.complexTypes.push(this.complexType(c));
        break;
      case "simpleType":
        found.simpleTypes.push(this.simpleType(c));
        break;
      case "attribute":
        found.attributes.push(this.attribute(c));
        break;
      case "group": {
        const p = c.elements.find(
          (x) => isXsd(x, "sequence") || isXsd(x, "choice") || isXsd(x, "all"),
        );
        found.groups.push({
          kind: "group",
          name: nameAttr(c) ?? "",
          ...opt("particle", p && this.particle(p)),
          loc: this.loc(c),
        });
        break;
      }
      case "attributeGroup": {
        const { attributes, anyAttribute } = this.attributeList(c);
        const any: RawAnyAttribute[] = anyAttribute
          ? [{ kind: "anyAttribute", loc: this.loc(c) }]
          : [];
        found.attributeGroups.push({
          kind: "attributeGroup",
          name: nameAttr(c) ?? "",
          attributes: [...attributes, ...any],
          loc: this.loc(c),
        });
        break;
      }
      case "import":
        found.imports.push({
          ...opt("namespace", attr(c, "namespace")),
          ...where(c),
          loc: this.loc(c),
        });
        break;
      case "include":
      case "redefine":
      case "override":
        this.include(c, found);
        break;
      case "annotation":
      case "notation":
      case "defaultOpenContent":
        break;
      default:
        this.leftOut(
          c,
          `<${c.tagName}>`,
          "an XML Schema component (xs:element, xs:complexType, …)",
        );
    }
  }

  /** An xs:include, xs:redefine or xs:override: the document it names, read as it is. */
  private include(c: XmlElement, found: Components): void {
    const w = where(c);
    if (!w.schemaLocation) {
      this.leftOut(
        c,
        `<${c.tagName}> without schemaLocation`,
        "schemaLocation naming the document",
      );
      return;
    }
    found.includes.push({ ...w, schemaLocation: w.schemaLocation, loc: this.loc(c) });
    if (c.localName !== "include" && c.elements.some((x) => !mayDocument(x)))
      this.redefinitionsLeftOut(c);
  }

  private attributeList(parent: XmlElement): {
    attributes: (RawAttribute | RawAttributeGroupRef)[];
    anyAttribute: boolean;
  } {
    const attributes: (RawAttribute | RawAttributeGroupRef)[] = [];
    let anyAttribute = false;
    for (const c of parent.elements) {
      if (isXsd(c, "attribute")) attributes.push(this.attribute(c));
      else if (isXsd(c, "attributeGroup")) {
        const ref = this.q(c, "ref");
        if (!ref)
          fail(
            "XSD_MISSING_ATTRIBUTE",
            "found a local xs:attributeGroup without a ref attribute; " +
              "expected ref naming a global attribute group",
            this.loc(c),
          );
        attributes.push({ kind: "attributeGroupRef", ref, loc: this.loc(c) });
      } else if (isXsd(c, "anyAttribute")) anyAttribute = true;
    }
    return { attributes, anyAttribute };
  }

  private attribute(e: XmlElement): RawAttribute {
    const st = firstXsd(e, "simpleType");
    const a: Building<RawAttribute> = { kind: "attribute" };
    put(a, "name", nameAttr(e));
    put(a, "ref", this.q(e, "ref"));
    put(a, "type", this.q(e, "type"));
    put(a, "simpleType", st && this.simpleType(st));
    a.use = oneOf(this.values, e, "use", USES, "optional") ?? "optional";
    put(a, "default", attr(e, "default"));
    put(a, "fixed", attr(e, "fixed"));
    put(a, "form", this.form(e, "form"));
    put(a, "arrayType", arrayType(e));
    put(a, "doc", documentation(e));
    a.loc = this.loc(e);
    return a as RawAttribute;
  }

  private particleChild(c: XmlElement): RawParticle | RawGroupRef | undefined {
    if (isXsd(c, "sequence") || isXsd(c, "choice") || isXsd(c, "all")) return this.particle(c);
    if (isXsd(c, "group")) {
      const ref = this.q(c, "ref");
      if (!ref)
        fail(
          "XSD_GROUP_WITHOUT_REF",
          `found a local xs:group${nameAttr(c) ? ` named "${nameAttr(c)}"` : ""} without a ref attribute; expected ref naming a global group (only global groups are named)`,
          this.loc(c),
        );
      return {
        kind: "groupRef",
        ref,
        minOccurs: this.occurs(c, "minOccurs"),
        maxOccurs: this.occurs(c, "maxOccurs"),
        loc: this.loc(c),
      };
    }
    return undefined;
  }

  private particle(e: XmlElement): RawParticle {
    const items: (RawElement | RawParticle | RawAny | RawGroupRef)[] = [];
    for (const c of e.elements) {
      if (isXsd(c, "element")) items.push(this.element(c));
      else if (isXsd(c, "any")) {
        items.push({
          kind: "any",
          ...opt("namespace", attr(c, "namespace")),
          ...opt("processContents", attr(c, "processContents")),
          minOccurs: this.occurs(c, "minOccurs"),
          maxOccurs: this.occurs(c, "maxOccurs"),
          loc: this.loc(c),
        });
      } else {
        const p = this.particleChild(c);
        if (p) items.push(p);
        else if (!isXsd(c, "annotation"))
          this.leftOut(c, `<${c.tagName}> in xs:${e.localName}`, PARTICLE_CONTENT);
      }
    }
    return {
      kind: e.localName as RawParticle["kind"],
      minOccurs: this.occurs(e, "minOccurs"),
      maxOccurs: this.occurs(e, "maxOccurs"),
      items,
      loc: this.loc(e),
    };
  }

  /** The content model so far, given `c`: a second one is left out, said. */
  private oneParticle(c: XmlElement, particle: RawParticle | RawGroupRef | undefined) {
    const p = this.particleChild(c);
    if (p && particle)
      this.leftOut(
        c,
        `a second content model, <${c.tagName}>`,
        "one xs:sequence, xs:choice, xs:all or xs:group",
      );
    return particle ?? p;
  }

  private derivation(e: XmlElement): RawDerivation {
    const d = e.elements.find((c) => isXsd(c, "extension") || isXsd(c, "restriction"));
    if (!d)
      fail(
        "XSD_BAD_CONTENT",
        `found xs:${e.localName} holding ${
          e.elements
            .filter((x) => !mayDocument(x))
            .map((x) => `<${x.tagName}>`)
            .join(", ") || "nothing"
        }; expected an xs:extension or xs:restriction child`,
        this.loc(e),
      );
    const base = this.q(d, "base");
    if (!base)
      fail("XSD_MISSING_ATTRIBUTE", `xs:${d.localName} needs a base attribute`, this.loc(d));
    let particle: RawParticle | RawGroupRef | undefined;
    for (const c of d.elements) particle = this.oneParticle(c, particle);
    return {
      derivation: d.localName as "extension" | "restriction",
      base,
      ...opt("particle", particle),
      ...this.attributeList(d),
      loc: this.loc(d),
    };
  }

  private complexType(e: XmlElement): RawComplexType {
    let particle: RawParticle | RawGroupRef | undefined;
    let complexContent: RawDerivation | undefined;
    let simpleContent: RawDerivation | undefined;
    for (const c of e.elements) {
      if (isXsd(c, "complexContent")) complexContent = this.derivation(c);
      else if (isXsd(c, "simpleContent")) simpleContent = this.derivation(c);
      else particle = this.oneParticle(c, particle);
    }
    const r: Building<RawComplexType> = { kind: "complexType" };
    put(r, "name", nameAttr(e));
    r.abstract = this.bool(e, "abstract");
    r.mixed = this.bool(e, "mixed");
    put(r, "particle", particle);
    const list = this.attributeList(e);
    r.attributes = list.attributes;
    r.anyAttribute = list.anyAttribute;
    put(r, "complexContent", complexContent);
    put(r, "simpleContent", simpleContent);
    put(r, "doc", documentation(e));
    r.loc = this.loc(e);
    return r as RawComplexType;
  }

  private element(e: XmlElement): RawElement {
    let complexType: RawComplexType | undefined;
    let simpleType: RawSimpleType | undefined;
    for (const c of e.elements) {
      if (isXsd(c, "complexType")) complexType = this.complexType(c);
      else if (isXsd(c, "simpleType")) simpleType = this.simpleType(c);
    }
    const name = nameAttr(e);
    const ref = this.q(e, "ref");
    const inline = complexType ?? simpleType;
    if (inline && attr(e, "type") !== undefined)
      this.leftOut(
        e,
        `both type="${attr(e, "type")}" and an inline xs:${inline.kind}`,
        "one of them; type= is read",
      );
    if (name === undefined && ref === undefined) {
      fail("XSD_MISSING_ATTRIBUTE", "xs:element needs a name or a ref attribute", this.loc(e));
    }
    const r: Building<RawElement> = { kind: "element" };
    put(r, "name", name);
    put(r, "ref", ref);
    put(r, "type", this.q(e, "type"));
    put(r, "complexType", complexType);
    put(r, "simpleType", simpleType);
    r.minOccurs = this.occurs(e, "minOccurs");
    r.maxOccurs = this.occurs(e, "maxOccurs");
    r.nillable = this.bool(e, "nillable");
    r.abstract = this.bool(e, "abstract");
    put(r, "default", attr(e, "default"));
    put(r, "fixed", attr(e, "fixed"));
    put(r, "form", this.form(e, "form"));
    put(r, "substitutionGroup", this.q(e, "substitutionGroup"));
    put(r, "doc", documentation(e));
    r.loc = this.loc(e);
    return r as RawElement;
  }
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
