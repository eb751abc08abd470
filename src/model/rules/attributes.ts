/**
 * Attributes: the attribute uses of a complex type, with attribute group references expanded in
 * place and global attributes followed by `ref`. A prohibited use declares no attribute (a
 * restriction's prohibitions are applied in restrictions.ts). `xml:lang` and SOAP encoding's
 * `arrayType` are declared by schemas nobody imports, so they are plain strings. An attribute or
 * group declared nowhere is read as a string, or opens the type to any attribute, with a warning;
 * a group that contains itself is left out of itself. A rule SchemaSet applies as it maps each
 * type.
 */
import type { DiagnosticBag, SourceLocation } from "../../diagnostics.js";
import { NS, SOAP_ENCODINGS } from "../../parse/namespaces.js";
import type { QName } from "../../parse/qname.js";
import type {
  RawAnyAttribute,
  RawAttribute,
  RawAttributeGroupRef,
  RawSchema,
  RawSimpleType,
} from "../../parse/xsd.js";
import { recovery } from "../../recovery.js";
import { XS_STRING } from "../builtins.js";
import type { AttributeField, BuiltinType, SimpleType } from "../model.js";
import { ownContent, type MappingRule } from "./rule.js";

type AttributeList = readonly (RawAttribute | RawAttributeGroupRef | RawAnyAttribute)[];

interface Scoped<T> {
  readonly raw: T;
  readonly schema: RawSchema;
}

/** What attribute mapping needs of the schema set. */
export interface AttributeContext {
  readonly diagnostics: DiagnosticBag;
  /** The attribute group `ref` names; declared nowhere: undefined, said by the callee. */
  attributeGroup(
    ref: QName,
    at: SourceLocation,
  ): { readonly key: string; readonly value: Scoped<AttributeList> } | undefined;
  /** The global attribute `ref` names; declared nowhere: undefined, said by the callee. */
  attribute(
    ref: QName,
    at: SourceLocation,
  ): { readonly name: QName; readonly value: Scoped<RawAttribute> } | undefined;
  /** The simple type of an attribute's value, named or inline (xs:string when neither). */
  valueType(
    name: QName | undefined,
    inline: RawSimpleType | undefined,
    schema: RawSchema,
    hint: string,
    at: SourceLocation,
  ): BuiltinType | SimpleType;
}

/** Gives a complex type its attributes, and opens it to any other where its declaration says so. */
export const attributes: MappingRule<AttributeContext> = {
  name: "attributes",
  step: "content",
  apply({ ct, raw, schema, hint }, cx) {
    const attrs = attributeFields(ownContent(raw).attributes, schema, hint, cx);
    ct.attributes = attrs.attributes;
    if (attrs.open) ct.anyAttributes = true;
  },
};

/**
 * The attributes of a type (`hint` names it) and whether it takes any other (`open`): a group it
 * uses holds xs:anyAttribute, or one it names is declared nowhere.
 */
export function attributeFields(
  list: AttributeList,
  schema: RawSchema,
  hint: string,
  cx: AttributeContext,
): { readonly attributes: AttributeField[]; readonly open: boolean } {
  const walk = { cx, hint, open: false };
  const attributes = fields(walk, list, schema, new Set());
  return { attributes, open: walk.open };
}

interface Walk {
  readonly cx: AttributeContext;
  readonly hint: string;
  open: boolean;
}

function fields(
  w: Walk,
  list: AttributeList,
  schema: RawSchema,
  groups: ReadonlySet<string>,
): AttributeField[] {
  const out: AttributeField[] = [];
  for (const a of list) {
    if (a.kind === "attributeGroupRef") out.push(...groupFields(w, a, groups));
    else if (a.kind === "anyAttribute") w.open = true;
    else if (a.use !== "prohibited")
      out.push(a.ref ? referenced(w, a, a.ref) : local(w, a, schema));
  }
  return out;
}

/** The attributes of the group `a` refers to; one declared nowhere opens the type's attributes. */
function groupFields(
  w: Walk,
  a: RawAttributeGroupRef,
  groups: ReadonlySet<string>,
): AttributeField[] {
  const found = w.cx.attributeGroup(a.ref, a.loc);
  if (!found) {
    w.open = true;
    return [];
  }
  if (groups.has(found.key)) {
    w.cx.diagnostics.add(
      recovery(
        "XSD_CIRCULAR",
        `the attribute group {${a.ref.ns}}${a.ref.local} contains itself; expected an attribute group that does not refer to itself; this reference to it is left out`,
        a.loc,
      ),
    );
    return [];
  }
  return fields(w, found.value.raw, found.value.schema, new Set(groups).add(found.key));
}

/** `<attribute ref=…>`: the global attribute's type, with the use's own settings first. */
function referenced(w: Walk, a: RawAttribute, ref: QName): AttributeField {
  const wellKnown = ref.ns === NS.xml || SOAP_ENCODINGS.has(ref.ns);
  const found = wellKnown ? undefined : w.cx.attribute(ref, a.loc);
  if (!found) return field(a, a, ref, XS_STRING);
  const g = found.value;
  const type = w.cx.valueType(
    g.raw.type,
    g.raw.simpleType,
    g.schema,
    `${w.hint}${found.name.local}`,
    g.raw.loc,
  );
  return field(a, g.raw, found.name, type);
}

/** An attribute declared in place. */
function local(w: Walk, a: RawAttribute, schema: RawSchema): AttributeField {
  const name = localAttributeName(a, schema);
  const type = w.cx.valueType(a.type, a.simpleType, schema, `${w.hint}${name.local}`, a.loc);
  return field(a, a, name, type);
}

/** The use `a` of the attribute `decl` declares: the use's own settings first. */
const field = (
  a: RawAttribute,
  decl: RawAttribute,
  name: QName,
  type: BuiltinType | SimpleType,
): AttributeField => ({
  kind: "attributeField",
  name,
  type,
  required: a.use === "required",
  default: a.default ?? decl.default,
  fixed: a.fixed ?? decl.fixed,
  doc: a.doc ?? decl.doc,
  loc: a.loc,
});

/**
 * The name of an attribute declared in place (not by ref): qualified as its form, or the schema's
 * default, says.
 */
export function localAttributeName(a: RawAttribute, schema: RawSchema): QName {
  const qualified = (a.form ?? schema.attributeFormDefault) === "qualified";
  return { ns: qualified ? schema.targetNamespace : "", local: a.name ?? "" };
}
