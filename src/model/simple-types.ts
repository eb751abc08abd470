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
import { always0, scalarText, type Facets } from "@wsdl-tsgen/runtime/internal";
import { simpleDesc } from "./scalar-desc.js";
import { recovery } from "../recovery.js";
import { diagnostic } from "../diagnostics.js";

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
    const facets = mergeFacets(
      base.kind === "simple" ? base.facets : undefined,
      st.list ? undefined : r.facets,
    );
    if (facets) st.facets = facets;
    if (base.kind === "simple" && base.union) st.union = base.union;
    if (st.list) checkListSample(cx, st, r.facets, r.enumeration, raw.loc);
    else if (r.facets) checkSample(cx, st, raw.loc);
  } else if (raw.list) {
    const l = raw.list;
    const item = simpleOrBuiltin(cx, l.itemType, l.inline, schema, `${hint}Item`, raw.loc);
    st.base = item.kind === "builtin" ? item : item.base;
    // Each item takes one of the item type's values (WCF's [Flags] enums are lists of an
    // enumeration).
    st.enumeration = item.kind === "simple" ? item.enumeration : [];
    if (item.kind === "simple" && item.facets) st.facets = item.facets;
    st.list = true;
  } else if (raw.union) {
    const members = unionMembers(cx, raw, schema, hint);
    if (members.length > 0) st.union = members;
    st.base = XS_STRING;
  }
}

/**
 * Says where a restriction's facets leave samples no valid value: contradictory facets (a defect of
 * the schema), or a pattern the sample builder cannot meet. Enumerations need no sample built.
 */
function checkSample(cx: SimpleContext, st: Mutable<SimpleType>, at: SourceLocation): void {
  if (!st.facets || st.enumeration.length > 0) return;
  const text = scalarText(simpleDesc(st), () => "0", false, always0);
  if (typeof text === "string") return;
  const name = st.name ? `the type {${st.name.ns}}${st.name.local}` : "an anonymous simple type";
  if (text.none === "contradiction")
    cx.diagnostics.add(
      recovery(
        "XSD_FACETS_CONTRADICT",
        `${name} has facets no value meets: ${text.why}; expected facets some value meets; samples give it a plain value the schema refuses`,
        at,
      ),
    );
  else
    cx.diagnostics.add(
      diagnostic(
        "SAMPLE_PATTERN_UNMET",
        `${name}: ${text.why}; samples give it a plain value the schema refuses`,
        at,
        "warning",
      ),
    );
}

/**
 * Says where a restriction of a list has facets its samples (two items of the item type) do not
 * meet: the item count of its length facets is met, its patterns and enumeration are not.
 */
function checkListSample(
  cx: SimpleContext,
  st: Mutable<SimpleType>,
  facets: Facets | undefined,
  enumeration: readonly string[],
  at: SourceLocation,
): void {
  const { length, minLength, maxLength, ...rest } = facets ?? {};
  const counts = (length ?? 2) === 2 && (minLength ?? 0) <= 2 && (maxLength ?? 2) >= 2;
  const unmet = [
    ...(counts ? [] : ["length"]),
    ...Object.keys(rest),
    ...(enumeration.length > 0 ? ["enumeration"] : []),
  ];
  if (unmet.length === 0) return;
  const name = st.name ? `the list type {${st.name.ns}}${st.name.local}` : "an anonymous list type";
  cx.diagnostics.add(
    diagnostic(
      "SAMPLE_PATTERN_UNMET",
      `${name}: its ${unmet.join(", ")} facets are not met by samples, which give it two ` +
        "items; samples give it values the schema may refuse",
      at,
      "warning",
    ),
  );
}

/**
 * A restriction's facets over its base's: its own replace the base's, but patterns add up (a value
 * meets the pattern of every step).
 */
function mergeFacets(base: Facets | undefined, own: Facets | undefined): Facets | undefined {
  if (!own) return base;
  if (!base) return own;
  const pattern = [...(base.pattern ?? []), ...(own.pattern ?? [])];
  return { ...base, ...own, ...(pattern.length > 0 ? { pattern } : {}) };
}

/**
 * A union is read as strings, whatever its members; a member declared nowhere is still said. Its
 * members, those found, are kept for samples.
 */
function unionMembers(
  cx: SimpleContext,
  raw: RawSimpleType,
  schema: RawSchema,
  hint: string,
): (BuiltinType | SimpleType)[] {
  const out: (BuiltinType | SimpleType)[] = [];
  for (const m of raw.union?.memberTypes ?? []) {
    // As type() reads it: a name in no namespace, or with an unbound prefix, may be a built-in.
    const bare = m.unboundPrefix !== undefined || m.ns === "";
    const builtin =
      builtinType(m) ?? (bare ? builtinType({ ns: NS.xsd, local: m.local }) : undefined);
    if (builtin) {
      out.push(builtin);
      continue;
    }
    const found = cx.index.lookup.types.resolve(
      m,
      raw.loc,
      cx.diagnostics,
      EXPECTED,
      "the union's values are read as strings",
    );
    if (found) {
      const t = cx.type(m, raw.loc, true);
      if (t.kind !== "complex") out.push(t);
    }
  }
  for (const inline of raw.union?.inline ?? [])
    out.push(cx.simpleType(inline, schema, undefined, `${hint}Member`));
  return out;
}
