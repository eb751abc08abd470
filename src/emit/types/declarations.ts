/** The declarations of types.ts: one per XSD type in use, plus input forms where they differ. */
import type { ComplexType, ElementField, SimpleType } from "../../model/model.js";
import { collectFields, collectHierarchy } from "../../transform/names.js";
import { symbol } from "../generated-file.js";
import { jsDoc, sourceDoc } from "../docs.js";
import { propertyKey } from "../identifiers.js";
import { fieldOptional, fieldType, simpleTypeBody, typeExpr, type EmitContext, type Mode } from "../type-expressions.js";

/** All declarations for one type (output form, then input form when it differs). */
export function typeDeclarations(ctx: EmitContext, t: ComplexType | SimpleType): string[] {
  const names = ctx.plan.typeNames.get(t)!;
  const modes: Mode[] = names.input !== names.type ? ["output", "input"] : ["output"];
  return modes.map((mode) => declaration(ctx, t, mode, mode === "input" ? names.input : names.type));
}

function declaration(ctx: EmitContext, t: ComplexType | SimpleType, mode: Mode, name: string): string {
  const doc = jsDoc(
    [sourceDoc(ctx, t.doc), mode === "input" ? `Input form of {@link ${ctx.plan.typeNames.get(t)!.type}}: also accepts \`Date\` and lexical strings for dates, numbers for big integers.` : undefined]
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
  if (t.simpleContent) members.push(`  $value: ${typeExpr(ctx, t.simpleContent, mode)};`);
  const hierarchy = collectHierarchy(t);
  if (hierarchy.some((c) => c.anyAttributes)) members.push(`  /** Attributes matched by xs:anyAttribute, by name (\`{namespace}local\` when qualified). */\n  $attributes?: Record<string, string>;`);
  for (const a of attributes) {
    const prop = ctx.plan.propNames.get(a)!;
    members.push(`${jsDoc(sourceDoc(ctx, a.doc) ?? `Attribute ${a.name.local}.`, "  ")}  ${propertyKey(prop)}${a.required ? "" : "?"}: ${typeExpr(ctx, a.type, mode)};`);
  }
  const member = (f: ElementField) => `${jsDoc(sourceDoc(ctx, f.doc), "  ")}  ${propertyKey(ctx.plan.propNames.get(f)!)}${fieldOptional(f) ? "?" : ""}: ${fieldType(ctx, f, mode)};`;
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
    members.push(`  /** Elements matched by xs:any, as raw XML trees. */\n  $any?: ${ctx.file.use(symbol("XmlNode", ctx.runtime, true))}[];`);
  }
  const unions = [...choices.values()].map((branchFields) => choiceUnion(ctx, branchFields, member));
  if (unions.length === 0) {
    if (members.length === 0) return `${doc}export type ${name} = Record<string, never>;`;
    return `${doc}export interface ${name} {\n${members.join("\n")}\n}`;
  }
  const parts = [...(members.length ? [`{\n${members.join("\n")}\n}`] : []), ...unions];
  return `${doc}export type ${name} = ${parts.join(" & ")};`;
}

/** `({ a: A; b?: never } | { a?: never; b: B })`, plus an all-absent branch when the choice is optional. */
function choiceUnion(ctx: EmitContext, fields: readonly ElementField[], member: (f: ElementField) => string): string {
  const branches = new Map<number, ElementField[]>();
  for (const f of fields) branches.set(f.choice!.branch, [...(branches.get(f.choice!.branch) ?? []), f]);
  const never = (f: ElementField) => `  ${propertyKey(ctx.plan.propNames.get(f)!)}?: never;`;
  const alternatives = [...branches.values()].map((own) => `{\n${fields.map((f) => (own.includes(f) ? member(f) : never(f))).join("\n")}\n}`);
  const optional = fields[0]!.choice!.optional || [...branches.values()].some((own) => own.every((f) => fieldOptional(f)));
  if (optional) alternatives.push(`{\n${fields.map(never).join("\n")}\n}`);
  return `(${alternatives.join(" | ")})`;
}
