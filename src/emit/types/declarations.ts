/** The declarations of types.ts: one per XSD type in use, plus input forms where they differ. */
import type { ComplexType, ElementField, SimpleType } from "../../model/model.js";
import { concreteMembers, inFamily } from "../../transform/families.js";
import { fixedLiteral, fixedWhenLeftOut } from "../../transform/value-constraints.js";
import { collectFields, collectHierarchy } from "../../transform/names.js";
import { symbol } from "../generated-file.js";
import { jsDoc, sourceDoc } from "../docs.js";
import { propertyKey } from "../identifiers.js";
import {
  fieldOptional,
  fieldType,
  ownTypeExpr,
  simpleTypeBody,
  typeExpr,
  type EmitContext,
  type Mode,
} from "../type-expressions.js";

/** All declarations for one type (output form, then input form when it differs). */
export function typeDeclarations(ctx: EmitContext, t: ComplexType | SimpleType): string[] {
  const names = ctx.plan.typeNames.get(t)!;
  const modes: Mode[] = names.input !== names.type ? ["output", "input"] : ["output"];
  const out = modes.map((mode) =>
    declaration(ctx, t, mode, mode === "input" ? names.input : names.type),
  );
  if (t.kind === "complex" && names.family) out.push(...familyDeclarations(ctx, t, names.family));
  return out;
}

/** `type AOrDerived = A | B | C;`: what a property declared as A holds (input form too, when it differs). */
function familyDeclarations(
  ctx: EmitContext,
  t: ComplexType,
  family: { readonly type: string; readonly input: string },
): string[] {
  const members = concreteMembers(t);
  const union = (mode: Mode) =>
    members.length === 0 ? "never" : members.map((m) => ownTypeExpr(ctx, m, mode)).join(" | ");
  const what = `A ${t.name?.local ?? ctx.plan.typeNames.get(t)!.type}${t.abstract ? " (abstract)" : ""} or a type derived from it, told apart by \`$type\` (\`xsi:type\` on the wire).`;
  const out = [`${jsDoc(what)}export type ${family.type} = ${union("output")};`];
  if (family.input !== family.type)
    out.push(
      `${jsDoc(`Input form of {@link ${family.type}}.`)}export type ${family.input} = ${union("input")};`,
    );
  return out;
}

function declaration(
  ctx: EmitContext,
  t: ComplexType | SimpleType,
  mode: Mode,
  name: string,
): string {
  const doc = jsDoc(
    [
      sourceDoc(ctx, t.doc),
      mode === "input"
        ? `Input form of {@link ${ctx.plan.typeNames.get(t)!.type}}: also accepts \`Date\` and lexical strings for dates, numbers for big integers.${suppliesFixed(t) ? " A required value the schema fixes may be left out: it is written as fixed." : ""}`
        : undefined,
    ]
      .filter(Boolean)
      .join("\n\n") || undefined,
  );
  if (t.kind === "simple") return `${doc}export type ${name} = ${simpleTypeBody(ctx, t, mode)};`;
  const item = ctx.plan.arrayItems.get(t);
  if (item) {
    const itemType = typeExpr(ctx, item.type, mode);
    return `${doc}export type ${name} = ${item.nillable ? `(${itemType} | null)[]` : `${itemType}[]`};`;
  }
  const { fields, attributes } = collectFields(t);
  const members: string[] = [];
  if (inFamily(t)) {
    const tag = ctx.plan.typeNames.get(t)!.type;
    members.push(
      `  /** This value's type among those derived from a common base (\`xsi:type\` on the wire); may be left out where the declared type is meant. */\n  $type?: ${JSON.stringify(tag)};`,
    );
  }
  // Text is optional in mixed content (the stand-in for an undeclared type): child elements alone are enough.
  if (t.simpleContent)
    members.push(`  $value${t.mixed ? "?" : ""}: ${typeExpr(ctx, t.simpleContent, mode)};`);
  const hierarchy = collectHierarchy(t);
  if (hierarchy.some((c) => c.anyAttributes))
    members.push(
      `  /** Attributes matched by xs:anyAttribute, by name (\`{namespace}local\` when qualified). */\n  $attributes?: Record<string, string>;`,
    );
  for (const a of attributes) {
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
    members.push(
      `${jsDoc(doc, "  ")}  ${propertyKey(prop)}${required ? "" : "?"}: ${literal ?? typeExpr(ctx, a.type, mode)};`,
    );
  }
  const optional = (f: ElementField) =>
    fieldOptional(f) || (mode === "input" && fixedWhenLeftOut(f));
  const member = (f: ElementField) =>
    `${jsDoc(paragraphs(sourceDoc(ctx, f.doc), valueConstraint(f, "empty")), "  ")}  ${propertyKey(ctx.plan.propNames.get(f)!)}${optional(f) ? "?" : ""}: ${fixedType(f) ?? fieldType(ctx, f, mode)};`;
  // In an input form, a fixed value's own literal type (the writer accepts no other); nillable keeps null.
  const fixedType = (f: ElementField): string | undefined => {
    const literal = mode === "input" ? fixedLiteral(f) : undefined;
    return literal === undefined ? undefined : f.nillable ? `${literal} | null` : literal;
  };
  // Fields of a (non-repeating) xs:choice become an exclusive union, one per choice of the type.
  const choices = new Map<number, ElementField[]>();
  for (const f of fields) {
    if (f.choice && !f.choice.repeated) {
      const list = choices.get(f.choice.group) ?? [];
      list.push(f);
      choices.set(f.choice.group, list);
    } else members.push(member(f));
  }
  if (hierarchy.some((c) => c.anyElements)) {
    members.push(
      `  /** Elements matched by xs:any, as raw XML trees. */\n  $any?: ${ctx.file.use(symbol("XmlNode", ctx.runtime, true))}[];`,
    );
  }
  const unions = [...choices.values()].map((branchFields) =>
    choiceUnion(ctx, branchFields, member),
  );
  if (unions.length === 0) {
    if (members.length === 0) return `${doc}export type ${name} = Record<string, never>;`;
    return `${doc}export interface ${name} {\n${members.join("\n")}\n}`;
  }
  const parts = [...(members.length ? [`{\n${members.join("\n")}\n}`] : []), ...unions];
  return `${doc}export type ${name} = ${parts.join(" & ")};`;
}

/**
 * The schema's value constraint of an attribute or element, as a note for its property: a fixed
 * value, or the default an absent attribute (an empty element) stands for. What the runtime does with
 * them is value-constraints.ts's: it fills in no default for what is absent.
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

/** `({ a: A; b?: never } | { a?: never; b: B })`, plus an all-absent branch when the choice is optional. */
function choiceUnion(
  ctx: EmitContext,
  fields: readonly ElementField[],
  member: (f: ElementField) => string,
): string {
  const branches = new Map<number, ElementField[]>();
  for (const f of fields)
    branches.set(f.choice!.branch, [...(branches.get(f.choice!.branch) ?? []), f]);
  const never = (f: ElementField) => `  ${propertyKey(ctx.plan.propNames.get(f)!)}?: never;`;
  const alternatives = [...branches.values()].map(
    (own) => `{\n${fields.map((f) => (own.includes(f) ? member(f) : never(f))).join("\n")}\n}`,
  );
  const optional =
    fields[0]!.choice!.optional ||
    [...branches.values()].some((own) => own.every((f) => fieldOptional(f)));
  if (optional) alternatives.push(`{\n${fields.map(never).join("\n")}\n}`);
  return `(${alternatives.join(" | ")})`;
}

/** Whether a complex type's own required fields or attributes include a fixed value the writer supplies. */
function suppliesFixed(t: ComplexType | SimpleType): boolean {
  return t.kind === "complex" && [...t.fields, ...t.attributes].some(fixedWhenLeftOut);
}
