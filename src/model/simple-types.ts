/**
 * The mapping of a simple type (restriction, list, union) and of a value type written as a name
 * or inline, for SchemaSet: what the `base`, `enumeration` and `list` wire facts of a SimpleType
 * are.
 */
import type { SourceLocation } from "../diagnostics.js";
import { NS } from "../parse/namespaces.js";
import type { QName } from "../parse/qname.js";
import type { RawSchema, RawSimpleType } from "../parse/xsd.js";
import { builtinType, XS_STRING } from "./builtins.js";
import type { BuiltinType, Mutable, SimpleType, TypeRef } from "./model.js";
import { EXPECTED, type SchemaIndex } from "./schema-index.js";
import type { DiagnosticBag } from "../diagnostics.js";

/** What simple type mapping asks of SchemaSet. */
export interface SimpleContext {
  readonly diagnostics: DiagnosticBag;
  readonly index: SchemaIndex;
  type(name: QName, at: SourceLocation, simple: boolean): TypeRef;
  simpleType(
    raw: RawSimpleType,
    schema: RawSchema,
    name: QName | undefined,
    hint: string,
  ): SimpleType | BuiltinType;
}

/** A value type: inline, named (a complex type with simple content gives that), or xs:string. */
export function simpleOrBuiltin(
  cx: SimpleContext,
  name: QName | undefined,
  inline: RawSimpleType | undefined,
  schema: RawSchema,
  hint: string,
  at: SourceLocation,
): BuiltinType | SimpleType {
  if (inline) return cx.simpleType(inline, schema, undefined, hint);
  if (!name) return XS_STRING;
  const t = cx.type(name, at, true);
  if (t.kind === "complex") {
    if (t.simpleContent) return t.simpleContent;
    cx.diagnostics.error(
      "XSD_EXPECTED_SIMPLE",
      `{${name.ns}}${name.local} is a complex type; expected a simple type here`,
      at,
    );
    return XS_STRING;
  }
  return t;
}

/** Fills in `st`, already cached, from its restriction, list or union. */
export function mapSimpleType(
  cx: SimpleContext,
  st: Mutable<SimpleType>,
  raw: RawSimpleType,
  schema: RawSchema,
  hint: string,
): void {
  if (raw.restriction) {
    const r = raw.restriction;
    const base = simpleOrBuiltin(cx, r.base, r.inlineBase, schema, hint, raw.loc);
    st.base = base.kind === "builtin" ? base : base.base;
    st.list = base.kind === "simple" && base.list;
    // A list's enumeration facets enumerate whole lists, which the items' values cannot say: its
    // items keep theirs.
    const own = st.list ? [] : r.enumeration;
    st.enumeration = own.length > 0 ? own : base.kind === "simple" ? base.enumeration : [];
  } else if (raw.list) {
    const l = raw.list;
    const item = simpleOrBuiltin(cx, l.itemType, l.inline, schema, `${hint}Item`, raw.loc);
    st.base = item.kind === "builtin" ? item : item.base;
    // Each item takes one of the item type's values (WCF's [Flags] enums are lists of an
    // enumeration).
    st.enumeration = item.kind === "simple" ? item.enumeration : [];
    st.list = true;
  } else if (raw.union) {
    unionMembers(cx, raw);
    st.base = XS_STRING;
  }
}

/** A union is read as strings, whatever its members; a member declared nowhere is still said. */
function unionMembers(cx: SimpleContext, raw: RawSimpleType): void {
  for (const m of raw.union?.memberTypes ?? []) {
    // As type() reads it: a name in no namespace, or with an unbound prefix, may be a built-in.
    const bare = m.unboundPrefix !== undefined || m.ns === "";
    if (builtinType(m) || (bare && builtinType({ ns: NS.xsd, local: m.local }))) continue;
    cx.index.lookup.types.resolve(
      m,
      raw.loc,
      cx.diagnostics,
      EXPECTED,
      "the union's values are read as strings",
    );
  }
}
