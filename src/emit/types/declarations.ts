/** The declarations of types.ts: one per XSD type in use, plus input forms where they differ. */
import type { ComplexType, SimpleType } from "../../model/model.js";
import { concreteMembers } from "../../transform/families.js";
import { sourceDoc, type EmitContext } from "../context.js";
import { objectKey } from "../../names/identifiers.js";
import { block, cat, sameJson, typeArgs, union, type Code, type Statement } from "../code.js";
import { complexShape, type Keyed } from "./members.js";
import { provenance } from "./provenance.js";
import {
  arrayOf,
  orElse,
  unionMembers,
  ownTypeExpr,
  simpleTypeBody,
  typeExpr,
  type Mode,
} from "../type-expressions.js";

/** All declarations for one type (output form, then input form when it differs). */
export function typeDeclarations(ctx: EmitContext, t: ComplexType | SimpleType): Statement[] {
  const names = ctx.plan.names.type(t);
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
  const what = `A ${t.name?.local ?? ctx.plan.names.type(t).type}${t.abstract ? " (abstract)" : ""} or a type derived from it, told apart by \`$type\` (\`xsi:type\` on the wire).`;
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

/**
 * The type's documentation and where it comes from, in one JSDoc; an input form's says what it is
 * instead of where it comes from, which its link leads to.
 */
function declarationDoc(ctx: EmitContext, t: ComplexType | SimpleType, mode: Mode): string {
  const about =
    mode === "input"
      ? `Input form of {@link ${ctx.plan.names.type(t).type}}: what a caller writes, where it differs.`
      : provenance(ctx.plan.model, t);
  return [sourceDoc(ctx, t.doc), about].filter(Boolean).join("\n\n");
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
  const same = new Map(output.members);
  const changed = members.filter(([key, m]) => !same.has(key) || !sameJson(same.get(key), m));
  const keys = changed.map(([key]) => JSON.stringify(key));
  const base = typeArgs("Omit", [ctx.plan.names.type(t).type, union(keys)]);
  return block(
    cat(`export interface ${name} extends `, base),
    changed.map(([, m]) => m),
  );
}
