/** The members of a complex type's declaration in types.ts: its attributes, fields and choices. */
import type { ComplexType, ElementField, OrderedList } from "../../model/model.js";
import { inFamily } from "../../model/value-shapes.js";
import { fixedLiteral } from "../../transform/value-constraints.js";
import {
  fieldOptional,
  inputAttrRequired,
  inputFieldOptional,
} from "../../transform/occurrence.js";
import { collectFields, collectHierarchy } from "../../transform/names.js";
import { rtType, sourceDoc, type EmitContext } from "../context.js";
import { propertyKey } from "../../names/identifiers.js";
import { block, cat, union, type Code, type Member } from "../code.js";
import { arrayOf, fieldType, occurrenceType, typeExpr, type Mode } from "../type-expressions.js";

/** A member with the property it declares. */
export type Keyed = readonly [string, Member];

/** The members of a complex type's declaration, and the unions of its choices. */
export function complexShape(
  ctx: EmitContext,
  t: ComplexType,
  mode: Mode,
): { members: Keyed[]; unions: Code[] } {
  const { fields, attributes } = collectFields(t);
  const members: Keyed[] = [];
  if (inFamily(t)) {
    const tag = ctx.plan.names.type(t).type;
    members.push([
      "$type",
      {
        doc: "This value's type among those derived from a common base (`xsi:type` on the wire); may be left out where the declared type is meant.",
        code: `$type?: ${JSON.stringify(tag)};`,
      },
    ]);
  }
  // Text is optional in mixed content (the stand-in for an undeclared type): child elements alone
  // are enough.
  if (t.simpleContent)
    members.push([
      "$value",
      { code: cat(`$value${t.mixed ? "?" : ""}: `, typeExpr(ctx, t.simpleContent, mode), ";") },
    ]);
  const hierarchy = collectHierarchy(t);
  if (hierarchy.some((c) => c.anyAttributes))
    members.push([
      "$attributes",
      {
        doc: "Attributes matched by xs:anyAttribute, by name (`{namespace}local` when qualified).",
        code: "$attributes?: Record<string, string>;",
      },
    ]);
  for (const a of attributes) members.push([ctx.plan.names.prop(a), attributeMember(ctx, a, mode)]);
  // An ordered list is one property, where its first element stands (listMember).
  const lists = orderedLists(fields);
  const member = (f: ElementField): Member =>
    f.ordered
      ? listMember(ctx, f.ordered, lists.get(f.ordered) ?? [f], mode)
      : fieldMember(ctx, f, mode);
  // Fields of a (non-repeating) xs:choice become an exclusive union, one per choice of the type.
  const choices = new Map<number, ElementField[]>();
  for (const f of fields) {
    if (f.ordered && lists.get(f.ordered)?.[0] !== f) continue;
    if (f.choice && !f.choice.repeated) {
      const list = choices.get(f.choice.group) ?? [];
      list.push(f);
      choices.set(f.choice.group, list);
    } else members.push([propOf(ctx, f), member(f)]);
  }
  if (hierarchy.some((c) => c.anyElements)) {
    members.push([
      "$any",
      {
        doc: "Elements matched by xs:any, as raw XML trees.",
        code: `$any?: ${rtType(ctx, "XmlNode")}[];`,
      },
    ]);
  }
  const unions = [...choices.values()].map((branchFields) =>
    choiceUnion(ctx, branchFields, member),
  );
  return { members, unions };
}

function attributeMember(
  ctx: EmitContext,
  a: ComplexType["attributes"][number],
  mode: Mode,
): Member {
  const prop = ctx.plan.names.prop(a);
  const note = valueConstraint(a, "absent");
  const source = sourceDoc(ctx, a.doc);
  const doc =
    source !== undefined
      ? paragraphs(source, note)
      : `Attribute ${a.name.local}.${note ? ` ${note}` : ""}`;
  // A fixed value the writer supplies may be left out of an input (value-constraints.ts).
  const required = mode === "input" ? inputAttrRequired(a) : a.required;
  const literal = mode === "input" ? fixedLiteral(a) : undefined;
  return {
    doc,
    code: cat(
      `${propertyKey(prop)}${required ? "" : "?"}: `,
      literal ?? typeExpr(ctx, a.type, mode),
      ";",
    ),
  };
}

function fieldMember(ctx: EmitContext, f: ElementField, mode: Mode): Member {
  const optional = mode === "input" ? inputFieldOptional(f) : fieldOptional(f);
  // In an input form, a fixed value's own literal type (the writer accepts no other); nillable
  // keeps null.
  const literal = mode === "input" ? fixedLiteral(f) : undefined;
  const fixed = literal === undefined ? undefined : f.nillable ? union([literal, "null"]) : literal;
  return {
    doc: paragraphs(sourceDoc(ctx, f.doc), valueConstraint(f, "empty")),
    code: cat(
      `${propertyKey(ctx.plan.names.prop(f))}${optional ? "?" : ""}: `,
      fixed ?? fieldType(ctx, f, mode),
      ";",
    ),
  };
}

/**
 * The schema's value constraint of an attribute or element, as a note for its property: a fixed
 * value, or the default an absent attribute (an empty element) stands for. What the runtime does
 * with them is value-constraints.ts's: it fills in no default for what is absent.
 */
export function valueConstraint(
  x: { readonly default: string | undefined; readonly fixed: string | undefined },
  when: "absent" | "empty",
): string | undefined {
  if (x.fixed !== undefined) return `Fixed: ${JSON.stringify(x.fixed)}.`;
  if (x.default !== undefined) return `Default (when ${when}): ${JSON.stringify(x.default)}.`;
  return undefined;
}

const paragraphs = (...texts: (string | undefined)[]): string | undefined =>
  texts.filter((t) => t !== undefined && t !== "").join("\n\n") || undefined;

/**
 * `({ a: A; b?: never } | { a?: never; b: B })`, plus an all-absent branch when the choice is
 * optional.
 */
function choiceUnion(
  ctx: EmitContext,
  fields: readonly ElementField[],
  member: (f: ElementField) => Member,
): Code {
  const branches = new Map<number, ElementField[]>();
  for (const f of fields)
    branches.set(f.choice!.branch, [...(branches.get(f.choice!.branch) ?? []), f]);
  const never = (f: ElementField): Member => ({ code: `${propertyKey(propOf(ctx, f))}?: never;` });
  const alternatives = [...branches.values()].map((own) =>
    block(
      "",
      fields.map((f) => (own.includes(f) ? member(f) : never(f))),
    ),
  );
  const optional =
    fields[0]!.choice!.optional ||
    [...branches.values()].some((own) => own.every((f) => fieldOptional(f)));
  if (optional) alternatives.push(block("", fields.map(never)));
  return union(alternatives, true);
}

/** The property a field's value is in: its own, or its ordered list's. */
const propOf = (ctx: EmitContext, f: ElementField): string => ctx.plan.names.prop(f.ordered ?? f);

/** The elements of each ordered list among `fields`, in order. */
function orderedLists(fields: readonly ElementField[]): Map<OrderedList, ElementField[]> {
  const lists = new Map<OrderedList, ElementField[]>();
  for (const f of fields) if (f.ordered) lists.set(f.ordered, [...(lists.get(f.ordered) ?? []), f]);
  return lists;
}

/**
 * An ordered list's property (ordered-lists.ts): `Items: ({ $choice: "A"; value: A } | …)[]`, one
 * item per element in document order, `$choice` naming it. Read, it is always an array; an input
 * may leave an optional one out.
 */
function listMember(
  ctx: EmitContext,
  list: OrderedList,
  fields: readonly ElementField[],
  mode: Mode,
): Member {
  const items = fields.map((f) =>
    cat(
      `{ $choice: ${JSON.stringify(ctx.plan.names.prop(f))}; value: `,
      occurrenceType(ctx, f, mode),
      " }",
    ),
  );
  const optional = mode === "input" && list.optional;
  return {
    doc: "The elements of a repeated xs:choice (or of a repeated sequence holding one), in document order: `$choice` names each item's element.",
    code: cat(
      `${propertyKey(ctx.plan.names.prop(list))}${optional ? "?" : ""}: `,
      arrayOf(union(items)),
      ";",
    ),
  };
}
