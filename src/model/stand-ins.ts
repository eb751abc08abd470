/**
 * Stand-ins for types and elements declared nowhere: xs:anyType's content model (any text, any
 * child elements, any attributes), kept raw as `$value`, `$any` and `$attributes` so that nothing
 * on the wire is dropped. One per missing name, named after it; SchemaSet says the recovery. And
 * what a type reference naming no declared type is read as (undeclaredType).
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics.js";
import { qnameKey, type QName } from "../parse/qname.js";
import { NS } from "../parse/namespaces.js";
import { recovery } from "../recovery.js";
import { builtinType, XS_STRING } from "./builtins.js";
import { syntheticType } from "./fields.js";
import type { ComplexType, ElementDecl, SimpleType, TypeRef } from "./model.js";
import type { SchemaIndex } from "./schema-index.js";

/**
 * What an undeclared type is resolved against: the schema set's lookups (SchemaSet is one), named
 * here so that this module does not import the set that imports it.
 */
export interface TypeLookups {
  readonly diagnostics: DiagnosticBag;
  readonly index: Pick<SchemaIndex, "elements" | "missing">;
  readonly standIns: StandIns;
  element(name: QName, at: SourceLocation): ElementDecl;
}

export class StandIns {
  /** By kind and QName key. */
  private readonly types = new Map<string, ComplexType>();
  private readonly elements = new Map<string, ElementDecl>();

  constructor(private readonly nameHints: Map<ComplexType | SimpleType, string>) {}

  /** The stand-in content of the type or element `name`. */
  content(name: QName, what: "type" | "element", loc: SourceLocation): ComplexType {
    const key = `${what} ${qnameKey(name)}`;
    const known = this.types.get(key);
    if (known) return known;
    const ct = syntheticType([], loc, {
      simpleContent: XS_STRING,
      mixed: true,
      anyElements: true,
      anyAttributes: true,
      doc: `The ${what} {${name.ns}}${name.local} is declared in no schema this WSDL reads: its content is kept as xs:anyType's, raw (text in $value, child elements in $any, attributes in $attributes).`,
    });
    this.types.set(key, ct);
    this.nameHints.set(ct, name.local);
    return ct;
  }

  /** An element `name` of stand-in content, made at its first reference `at`. */
  element(name: QName, at: SourceLocation): ElementDecl {
    const k = qnameKey(name);
    const again = this.elements.get(k);
    if (again) return again;
    const decl: ElementDecl = {
      kind: "elementDecl",
      name: { ns: name.ns, local: name.local },
      type: this.content(name, "element", at),
      nillable: false,
      abstract: false,
      doc: undefined,
      loc: at,
    };
    this.elements.set(k, decl);
    return decl;
  }
}

/**
 * The type a reference that names no declared type is read as: a built-in by its local name, the
 * type of a global element of that name, or else (with a recovery warning) xs:string where a
 * simple type is expected and a stand-in of raw content elsewhere.
 */
export function undeclaredType(
  cx: TypeLookups,
  name: QName,
  at: SourceLocation,
  simple: boolean,
): TypeRef {
  // `type="string"` without a default namespace, or `xs:string` with `xs` unbound: the built-in.
  if (name.unboundPrefix !== undefined || name.ns === "") {
    const b = builtinType({ ns: NS.xsd, local: name.local });
    if (b) {
      const written =
        name.unboundPrefix !== undefined ? `${name.unboundPrefix}:${name.local}` : name.local;
      cx.diagnostics.add(
        recovery(
          "XSD_RESOLVED_BY_LOCAL_NAME",
          `the type reference ${written} does not name an XML Schema type as written; using the built-in xs:${name.local}`,
          at,
        ),
      );
      return b;
    }
  }
  // `type="c:DummyResult"` (or an extension base) naming a global element and no type: its type.
  if (cx.index.elements.has(qnameKey(name))) {
    cx.diagnostics.add(
      recovery(
        "XSD_TYPE_NAMES_ELEMENT",
        `the type reference {${name.ns}}${name.local} names a global element, not a type; using that element's type`,
        at,
      ),
    );
    return cx.element(name, at).type;
  }
  if (simple) {
    cx.index.missing("type", name, at, "reading it as xs:string, where a simple type is expected");
    return XS_STRING;
  }
  cx.index.missing(
    "type",
    name,
    at,
    "reading it as xs:anyType: its content (text, child elements, attributes) kept as raw XML",
  );
  return cx.standIns.content(name, "type", at);
}
