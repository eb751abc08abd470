/** The declarations of types.ts: one per XSD type in use, plus input forms where they differ. */
import type { ComplexType, ElementField, OrderedList, SimpleType } from "../../model/model.js";
import { concreteMembers } from "../../transform/families.js";
import { inFamily } from "../../model/value-shapes.js";
import { fixedLiteral, fixedWhenLeftOut } from "../../transform/value-constraints.js";
import { optionalRepeated } from "../../transform/occurrence.js";
import { collectFields, collectHierarchy } from "../../transform/names.js";
import { rtType, sourceDoc, type EmitContext } from "../context.js";
import { objectKey, propertyKey } from "../../names/identifiers.js";
import { block, cat, typeArgs, union, type Code, type Member, type Statement } from "../code.js";
import {
  arrayOf,
  fieldOptional,
  fieldType,
  occurrenceType,
  orElse,
  unionMembers,
  ownTypeExpr,
  simpleTypeBody,
  typeExpr,
  type Mode,
} from "../type-expressions.js";

/** All declarations for one type (output form, then input form when it differs). */
export function typeDeclarations(ctx: EmitContext, t: ComplexType | SimpleType): Statement[] {
  const names = ctx.plan.typeNames.get(t)!;
  const modes: Mode[] = names.input !== names.type ? ["output", "input"] : ["output"];
  const out = modes.map((mode) =>
    declaration(ctx, t, mode, mode === "input" ? names.input : names.type),
  );
  if (t.kind === "complex" && names.family) out.push(...familyDeclarations(ctx, t, names.family));
  if (t.kind === "simple" && ctx.enumConstants && hasConstants(t))
    out.push(enumConstants(t, names.type));
  return out;
}

/** Whether a simple type is an enumeration of single values (not a list of them). */
export const hasConstants = (t: SimpleType): boolean => t.enumeration.length > 0 && !t.list;

/**
 * `export const Color = { Red: "Red", … } as const;`: each value under its own name (quoted where
 * it is no identifier), for code that names a value rather than spelling the string.
 */
function enumConstants(t: SimpleType, name: string): Statement {
  const values = [...new Set(t.enumeration)];
  return {
    doc: `The values of {@link ${name}}, each under its own name.`,
    code: block(
      `export const ${name} =`,
      values.map((v) => ({ code: `${objectKey(v)}: ${JSON.stringify(v)},` })),
      "} as const;",
    ),
  };
}

/**
 * `type AOrDerived = A | B | C;`: what a property declared as A holds (input form too, when it
 * differs).
 */
function familyDeclarations(
  ctx: EmitContext,
  t: ComplexType,
  family: { readonly type: string; readonly input: string },
): Statement[] {
  const members = concreteMembers(t);
  const anyOf = (mode: Mode) =>
    members.length === 0 ? "never" : union(members.map((m) => ownTypeExpr(ctx, m, mode)));
  const what = `A ${t.name?.local ?? ctx.plan.typeNames.get(t)!.type}${t.abstract ? " (abstract)" : ""} or a type derived from it, told apart by \`$type\` (\`xsi:type\` on the wire).`;
  const out = [{ doc: what, code: alias(family.type, anyOf("output")) }];
  if (family.input !== family.type)
    out.push({
      doc: `Input form of {@link ${family.type}}.`,
      code: alias(family.input, anyOf("input")),
    });
  return out;
}

const alias = (name: string, type: Code): Code => cat(`export type ${name} = `, type, ";");

function declaration(
  ctx: EmitContext,
  t: ComplexType | SimpleType,
  mode: Mode,
  name: string,
): Statement {
  const doc = declarationDoc(ctx, t, mode);
  if (t.kind === "simple") return { doc, code: alias(name, simpleTypeBody(ctx, t, mode)) };
  const item = ctx.plan.arrayItems.get(t);
  if (item) {
    const itemType = typeExpr(ctx, item.type, mode);
    return { doc, code: alias(name, arrayOf(item.nillable ? orElse(itemType, "null") : itemType)) };
  }
  const { members, unions } = complexShape(ctx, t, mode);
  if (mode === "input" && unions.length === 0) {
    const narrowed = inputOfInterface(ctx, t, name, members);
    if (narrowed) return { doc, code: narrowed };
  }
  const own = members.map(([, m]) => m);
  if (unions.length === 0) {
    if (own.length === 0) return { doc, code: alias(name, "Record<string, never>") };
    return { doc, code: block(`export interface ${name}`, own) };
  }
  // A choice alone needs no parentheses: `type T = | { … } | { … };`.
  if (own.length === 0 && unions.length === 1)
    return { doc, code: alias(name, union(unionMembers(unions[0]!, true))) };
  const parts = [...(own.length ? [block("", own)] : []), ...unions];
  return { doc, code: alias(name, cat(...parts.flatMap((p, i) => (i ? [" & ", p] : [p])))) };
}

function declarationDoc(
  ctx: EmitContext,
  t: ComplexType | SimpleType,
  mode: Mode,
): string | undefined {
  const input =
    mode === "input"
      ? `Input form of {@link ${ctx.plan.typeNames.get(t)!.type}}: what a caller writes, where it differs.`
      : undefined;
  return [sourceDoc(ctx, t.doc), input].filter(Boolean).join("\n\n") || undefined;
}

/**
 * An input form as `interface XInput extends Omit<X, …>`, restating only the members whose input
 * form differs; undefined when the output form is not an interface.
 */
function inputOfInterface(
  ctx: EmitContext,
  t: ComplexType,
  name: string,
  members: readonly Keyed[],
): Code | undefined {
  const output = complexShape(ctx, t, "output");
  if (output.unions.length > 0 || output.members.length === 0) return undefined;
  const same = new Map(output.members.map(([key, m]) => [key, JSON.stringify(m)]));
  const changed = members.filter(([key, m]) => same.get(key) !== JSON.stringify(m));
  const keys = changed.map(([key]) => JSON.stringify(key));
  const base = typeArgs("Omit", [ctx.plan.typeNames.get(t)!.type, union(keys)]);
  return block(
    cat(`export interface ${name} extends `, base),
    changed.map(([, m]) => m),
  );
}

/** A member with the property it declares. */
type Keyed = readonly [string, Member];

/** The members of a complex type's declaration, and the unions of its choices. */
function complexShape(
  ctx: EmitContext,
  t: ComplexType,
  mode: Mode,
): { members: Keyed[]; unions: Code[] } {
  const { fields, attributes } = collectFields(t);
  const members: Keyed[] = [];
  if (inFamily(t)) {
    const tag = ctx.plan.typeNames.get(t)!.type;
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
  for (const a of attributes)
    members.push([ctx.plan.propNames.get(a)!, attributeMember(ctx, a, mode)]);
  // An ordered list is one property, where its first element stands (listMember).
  const lists = orderedLists(fields);
  const member = (f: ElementField): Member =>
    f.ordered ? listMember(ctx, f.ordered, lists.get(f.ordered)!, mode) : fieldMember(ctx, f, mode);
  // Fields of a (non-repeating) xs:choice become an exclusive union, one per choice of the type.
  const choices = new Map<number, ElementField[]>();
  for (const f of fields) {
    if (f.ordered && lists.get(f.ordered)![0] !== f) continue;
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
  const prop = ctx.plan.propNames.get(a)!;
  const note = valueConstraint(a, "absent");
  const source = sourceDoc(ctx, a.doc);
  const doc =
    source !== undefined
      ? paragraphs(source, note)
      : `Attribute ${a.name.local}.${note ? ` ${note}` : ""}`;
  // A fixed value the writer supplies may be left out of an input (value-constraints.ts).
  const required = a.required && !(mode === "input" && fixedWhenLeftOut(a));
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
  const optional =
    fieldOptional(f) || (mode === "input" && (fixedWhenLeftOut(f) || optionalRepeated(f)));
  // In an input form, a fixed value's own literal type (the writer accepts no other); nillable
  // keeps null.
  const literal = mode === "input" ? fixedLiteral(f) : undefined;
  const fixed = literal === undefined ? undefined : f.nillable ? union([literal, "null"]) : literal;
  return {
    doc: paragraphs(sourceDoc(ctx, f.doc), valueConstraint(f, "empty")),
    code: cat(
      `${propertyKey(ctx.plan.propNames.get(f)!)}${optional ? "?" : ""}: `,
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
const propOf = (ctx: EmitContext, f: ElementField): string =>
  ctx.plan.propNames.get(f.ordered ?? f)!;

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
      `{ $choice: ${JSON.stringify(ctx.plan.propNames.get(f)!)}; value: `,
      occurrenceType(ctx, f, mode),
      " }",
    ),
  );
  const optional = mode === "input" && list.optional;
  return {
    doc: "The elements of a repeated xs:choice (or of a repeated sequence holding one), in document order: `$choice` names each item's element.",
    code: cat(
      `${propertyKey(ctx.plan.propNames.get(list)!)}${optional ? "?" : ""}: `,
      arrayOf(union(items)),
      ";",
    ),
  };
}
