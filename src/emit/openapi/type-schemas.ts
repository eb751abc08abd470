/**
 * JSON Schema (2020-12) of the model's types, in the shape of their typed values as the runtime's
 * JSON mapping writes them (runtime/src/json/json-values.ts): the plan's property names, `$type`
 * for a derivation family, `$element` for a substitution group's member, `{ $choice, value }`
 * items for an ordered list, choices as `oneOf`, nillable as `null`, optional members out of
 * `required`. Named types go to `components/schemas` under their generated TypeScript names,
 * which the plan has made unique.
 */
import type {
  AttributeField,
  BuiltinType,
  ComplexType,
  ElementDecl,
  ElementField,
  OrderedList,
  SimpleType,
  TypeRef,
} from "../../model/model.js";
import { inFamily } from "../../model/value-shapes.js";
import { concreteMembers } from "../../transform/families.js";
import { collectFields, collectHierarchy } from "../../transform/names.js";
import { inputAttrRequired, inputFieldOptional } from "../../transform/occurrence.js";
import type { EmitPlan } from "../../transform/plan.js";
import { simpleSchema, type JsonSchema } from "./scalar-schemas.js";

type Schema = Record<string, unknown>;

export const NULL: JsonSchema = { type: "null" };
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const orNull = (s: JsonSchema): JsonSchema => ({ anyOf: [s, NULL] });

/** The schemas of a plan's types, each named once; `schemas` is what has been named so far. */
export class TypeSchemas {
  readonly schemas = new Map<string, JsonSchema>();
  /** The types whose values may carry `$element`: those of a substitution group's members. */
  private readonly memberTypes = new Set<TypeRef>();

  constructor(
    private readonly plan: EmitPlan,
    private readonly docs: boolean,
  ) {
    for (const t of plan.model.types)
      if (t.kind === "complex")
        for (const f of t.fields)
          for (const m of f.substitutes?.members ?? []) this.memberTypes.add(m.type);
  }

  /** Whether a type's schema is (or would be) named `name`. */
  isTypeName(name: string): boolean {
    for (const n of this.plan.names.types.values())
      if (n.type === name || n.family?.type === name) return true;
    return false;
  }

  /** A schema of a value of `t`: a reference to its named schema, or the schema inline. */
  typeSchema(t: TypeRef): JsonSchema {
    if (t.kind === "builtin") return this.simple(t);
    const names = this.plan.names.typeIfNamed(t);
    if (names === undefined) return this.ownSchema(t);
    if (t.kind === "complex" && names.family !== undefined) {
      this.named(names.type, t);
      return this.named(names.family.type, t, () => this.familySchema(t));
    }
    return this.named(names.type, t);
  }

  /** A reference to `name`, its schema made on first use (a placeholder first: types recur). */
  private named(name: string, t: ComplexType | SimpleType, make = () => this.ownSchema(t)) {
    if (!this.schemas.has(name)) {
      this.schemas.set(name, {});
      this.schemas.set(name, make());
    }
    return ref(name);
  }

  /** `t`'s own schema, not its family's. */
  private ownSchema(t: ComplexType | SimpleType): JsonSchema {
    if (t.kind === "simple") return this.simple(t);
    const item = this.plan.arrayItems.get(t);
    const own = item ? this.repeated(item) : this.complexSchema(t);
    return this.described(own, t.doc);
  }

  /** A simple type's schema, with its documentation when the document carries documentation. */
  private simple(t: BuiltinType | SimpleType): JsonSchema {
    return this.described(simpleSchema(t), t.kind === "simple" ? t.doc : undefined);
  }

  private described(s: JsonSchema, doc: string | undefined): JsonSchema {
    return this.docs && doc !== undefined && doc !== "" ? { ...s, description: doc } : s;
  }

  /** A family's values: the type itself (unless abstract) or one of its derived types. */
  private familySchema(t: ComplexType): JsonSchema {
    const members: JsonSchema[] = [];
    for (const d of concreteMembers(t)) {
      if (d === t) {
        members.push(ref(this.plan.names.type(t).type));
        continue;
      }
      this.typeSchema(d);
      const tag = this.plan.names.type(d).type;
      members.push({ type: "object", allOf: [ref(tag)], required: ["$type"] });
    }
    return members.length === 1 ? members[0]! : { oneOf: members };
  }

  /** The object schema of a complex type; `extra` adds members (attachment parts). */
  complexSchema(t: ComplexType, extra: Readonly<Record<string, JsonSchema>> = {}): JsonSchema {
    const { fields, attributes } = collectFields(t);
    const hierarchy = collectHierarchy(t);
    const properties: Schema = {};
    const required: string[] = [];
    if (inFamily(t))
      properties["$type"] = {
        const: this.plan.names.type(t).type,
        description: "this value's type (xsi:type)",
      };
    if (this.memberTypes.has(t))
      properties["$element"] = { type: "string", description: "the substitution group member" };
    if (t.simpleContent) {
      properties["$value"] = this.simple(t.simpleContent);
      if (!t.mixed) required.push("$value");
    }
    if (hierarchy.some((c) => c.anyAttributes))
      properties["$attributes"] = { type: "object", additionalProperties: { type: "string" } };
    for (const a of attributes) this.attribute(a, properties, required);
    const choices = this.fields(fields, properties, required);
    if (hierarchy.some((c) => c.anyElements))
      properties["$any"] = {
        type: "array",
        items: { type: "object" },
        description: "xs:any content as XML trees",
      };
    for (const [name, s] of Object.entries(extra)) {
      properties[name] = s;
      required.push(name);
    }
    const schema: Schema = { type: "object", properties };
    if (required.length > 0) schema["required"] = required;
    schema["additionalProperties"] = false;
    if (choices.length === 1) schema["oneOf"] = choices[0];
    else if (choices.length > 1) schema["allOf"] = choices.map((oneOf) => ({ oneOf }));
    return schema;
  }

  private attribute(a: AttributeField, properties: Schema, required: string[]): void {
    const prop = this.plan.names.prop(a);
    properties[prop] = this.described(this.simple(a.type), a.doc);
    if (inputAttrRequired(a)) required.push(prop);
  }

  /** The fields' properties; gives each non-repeated choice's branches (`oneOf`). */
  private fields(fields: readonly ElementField[], properties: Schema, required: string[]) {
    const lists = new Map<OrderedList, ElementField[]>();
    const choices = new Map<number, ElementField[]>();
    for (const f of fields) {
      if (f.ordered) {
        lists.set(f.ordered, [...(lists.get(f.ordered) ?? []), f]);
        continue;
      }
      const prop = this.plan.names.prop(f);
      properties[prop] = this.described(this.fieldSchema(f), f.doc);
      if (f.choice && !f.choice.repeated)
        choices.set(f.choice.group, [...(choices.get(f.choice.group) ?? []), f]);
      else if (!inputFieldOptional(f)) required.push(prop);
    }
    for (const [list, own] of lists) {
      const prop = this.plan.names.prop(list);
      properties[prop] = this.listSchema(own);
      if (!list.optional) required.push(prop);
    }
    return [...choices.values()].map((group) => this.branches(group));
  }

  /**
   * A choice's branches, each excluding the others' members; an empty one when it may be absent.
   */
  private branches(group: readonly ElementField[]): JsonSchema[] {
    const byBranch = new Map<number, ElementField[]>();
    for (const f of group)
      byBranch.set(f.choice!.branch, [...(byBranch.get(f.choice!.branch) ?? []), f]);
    const has = (fs: readonly ElementField[]) =>
      fs.map((f) => ({ required: [this.plan.names.prop(f)] }));
    const out: JsonSchema[] = [];
    let absentAllowed = group[0]!.choice!.optional;
    for (const own of byBranch.values()) {
      const others = group.filter((f) => !own.includes(f));
      const needed = own.filter((f) => f.minOccurs > 0).map((f) => this.plan.names.prop(f));
      const branch: Schema = { type: "object" };
      if (needed.length > 0) branch["required"] = needed;
      else {
        absentAllowed = true;
        branch["anyOf"] = has(own);
      }
      if (others.length > 0) branch["not"] = { anyOf: has(others) };
      out.push(branch);
    }
    if (absentAllowed) out.push({ type: "object", not: { anyOf: has(group) } });
    return out;
  }

  /** A field's property: an array when repeated. */
  fieldSchema(f: ElementField): JsonSchema {
    if (f.maxOccurs <= 1) return this.occurrence(f);
    return this.repeated(f);
  }

  private repeated(f: ElementField): JsonSchema {
    const s: Schema = { type: "array", items: this.occurrence(f) };
    if (f.minOccurs > 0) s["minItems"] = f.minOccurs;
    if (Number.isFinite(f.maxOccurs)) s["maxItems"] = f.maxOccurs;
    return s;
  }

  /** One occurrence of a field's element: a substitution group's member, or null when nillable. */
  private occurrence(f: ElementField): JsonSchema {
    const s = f.substitutes;
    let base = this.typeSchema(f.type);
    if (s) {
      const members = s.members.map((m) => this.member(m));
      if (!s.head.abstract)
        members.unshift({ allOf: [base], not: { type: "object", required: ["$element"] } });
      base = members.length === 1 ? members[0]! : { oneOf: members };
    }
    return f.nillable ? orNull(base) : base;
  }

  private member(m: ElementDecl): JsonSchema {
    return {
      type: "object",
      allOf: [this.typeSchema(m.type)],
      properties: { $element: { const: m.name.local } },
      required: ["$element"],
    };
  }

  /** An ordered list: items `{ $choice, value }`, one kind per element. */
  private listSchema(fields: readonly ElementField[]): JsonSchema {
    const items = fields.map((f) => ({
      type: "object",
      properties: { $choice: { const: this.plan.names.prop(f) }, value: this.occurrence(f) },
      required: ["$choice", "value"],
      additionalProperties: false,
    }));
    return {
      type: "array",
      items: items.length === 1 ? items[0] : { oneOf: items },
      description: "the elements of a repeated choice, in document order; $choice names each",
    };
  }
}
