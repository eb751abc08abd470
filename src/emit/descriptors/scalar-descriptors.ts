/** The descriptors of simple types: `xs.duration`, `scalar("string", { maxLength: 16, … })`. */
import type { BuiltinType, SimpleType, TypeRef } from "../../model/model.js";
import { xsdName } from "../../model/scalar-desc.js";
import { rt, type EmitContext } from "../context.js";
import { array, call, object, type Code } from "../code.js";

type Props = [string, Code][];

/**
 * A simple type's descriptor: its kind, list, enumeration, and what samples need to give it a
 * valid value (its union's members, its facets, its XSD built-in).
 */
export function scalarCall(ctx: EmitContext, t: SimpleType, seen = new Set<SimpleType>()): Code {
  const opts: Props = [];
  if (t.list) opts.push(["list", "true"]);
  if (t.enumeration.length > 0)
    opts.push(["values", array(t.enumeration.map((v) => JSON.stringify(v)))]);
  // The samples' data (ScalarDesc.union, facets, xsd): an enumeration's values say it all.
  if (t.enumeration.length === 0) {
    if (t.union && !seen.has(t)) {
      seen.add(t);
      opts.push(["union", array(t.union.map((m) => memberExpr(ctx, m, seen)))]);
    }
    for (const [k, v] of Object.entries(t.facets ?? {}))
      opts.push([k, Array.isArray(v) ? array(v.map((p) => JSON.stringify(p))) : JSON.stringify(v)]);
  }
  if (opts.length === 0) return builtinExpr(ctx, t.base);
  const xsd = xsdName(t.base);
  if (xsd !== undefined && t.enumeration.length === 0) opts.push(["xsd", JSON.stringify(xsd)]);
  return call(rt(ctx, "scalar"), JSON.stringify(t.base.scalar), object(opts));
}

/** A union member's descriptor, written in place (members are small: built-ins, enumerations). */
const memberExpr = (ctx: EmitContext, m: BuiltinType | SimpleType, seen: Set<SimpleType>): Code =>
  m.kind === "builtin" ? builtinExpr(ctx, m) : scalarCall(ctx, m, seen);

/** `xs.int`, `xs.duration`: a built-in's descriptor. */
export const builtinExpr = (ctx: EmitContext, b: BuiltinType): string =>
  `${rt(ctx, "xs")}.${xsdName(b) ?? b.scalar}`;

/** The descriptor of a simple type or built-in scalar. */
export function simpleDescExpr(ctx: EmitContext, t: TypeRef): Code {
  if (t.kind === "builtin") return builtinExpr(ctx, t);
  if (t.kind === "simple")
    return t.name === undefined ? scalarCall(ctx, t) : ctx.plan.names.type(t).descriptor;
  return `${rt(ctx, "xs")}.string`;
}
