/**
 * TypeScript type expressions for model types, in their output (decoded) or input (accepted) form.
 */
import type {
  ComplexType,
  ElementField,
  OperationResult,
  ScalarKind,
  SimpleType,
  TypeRef,
} from "../model/model.js";
import { BIG_INTEGER_SCALARS } from "../model/builtins.js";
import { symbol } from "./generated-file.js";
import { rtType, type EmitContext } from "./context.js";
import { cat, sameJson, union, type Code } from "./code.js";
import { binaryParts } from "../model/binary-forms.js";
import { fieldOptional } from "../transform/occurrence.js";

export type Mode = "output" | "input";

const NUMBER: ReadonlySet<ScalarKind> = new Set([
  "int",
  "short",
  "byte",
  "unsignedInt",
  "unsignedShort",
  "unsignedByte",
  "float",
  "double",
]);

/** A binary that may travel as an attachment part (binary-forms.ts): as received, or as sent. */
export const binaryForm = (ctx: EmitContext, mode: Mode): string =>
  rtType(ctx, mode === "input" ? "SentBinary" : "ReceivedBinary");

/** The TS type of a built-in scalar. */
export function scalarType(ctx: EmitContext, scalar: ScalarKind, mode: Mode): Code {
  if (NUMBER.has(scalar)) return "number";
  if (BIG_INTEGER_SCALARS.has(scalar))
    return mode === "input" ? union(["bigint", "number"]) : "bigint";
  switch (scalar) {
    case "boolean":
      return "boolean";
    case "dateTime":
      return rtType(ctx, mode === "input" ? "XsdDateTimeInput" : "XsdDateTime");
    case "date":
      return rtType(ctx, mode === "input" ? "XsdDateInput" : "XsdDate");
    case "time":
      return rtType(ctx, mode === "input" ? "XsdTimeInput" : "XsdTime");
    case "base64Binary":
      if (binaryParts(ctx.plan.model)) return binaryForm(ctx, mode);
      return "Uint8Array";
    case "hexBinary":
      return "Uint8Array";
    case "anyType":
      // Text comes back as a string; anything else (child elements, attributes) as the whole
      // element's tree.
      return union(["string", rtType(ctx, "XmlNode")]);
    default:
      return "string";
  }
}

/** A reference to a type declared in types.ts: the family union of a type that others extend. */
function declared(ctx: EmitContext, t: ComplexType | SimpleType, mode: Mode): string {
  const names = ctx.plan.names.type(t);
  return namedRef(ctx, names.family ?? names, mode);
}

/** The declared name of a type (or of its family union) in the given form. */
function namedRef(
  ctx: EmitContext,
  named: { readonly type: string; readonly input: string },
  mode: Mode,
): string {
  return typesRef(ctx, mode === "input" ? named.input : named.type);
}

/** A name declared in types.ts, imported unless this is types.ts. */
function typesRef(ctx: EmitContext, name: string): string {
  return ctx.typesModule === undefined ? name : ctx.file.use(symbol(name, ctx.typesModule, true));
}

/** The TS type of a value of `t`. */
export function typeExpr(ctx: EmitContext, t: TypeRef, mode: Mode): Code {
  if (t.kind === "builtin") return scalarType(ctx, t.scalar, mode);
  if (t.kind === "simple" && t.name === undefined) return simpleTypeBody(ctx, t, mode);
  return declared(ctx, t, mode);
}

/**
 * The type arguments of a SOAP header bag received in one form and sent in another: `A` when both
 * are the same, else `A, B`.
 */
export function headerTypes(ctx: EmitContext, bag: ComplexType, first: Mode, second: Mode): Code[] {
  const a = typeExpr(ctx, bag, first);
  const b = typeExpr(ctx, bag, second);
  return sameJson(a, b) ? [a] : [a, b];
}

/**
 * The TS type a descriptor of `t` reads and writes: its declaration, or the family union of a type
 * that others extend (a value of it may be of a derived type).
 */
export const describedTypeExpr = (
  ctx: EmitContext,
  t: ComplexType | SimpleType,
  mode: Mode,
): string => declared(ctx, t, mode);

/** The TS type of exactly `t` (its own declaration, never its family union). */
export function ownTypeExpr(ctx: EmitContext, t: ComplexType | SimpleType, mode: Mode): string {
  return namedRef(ctx, ctx.plan.names.type(t), mode);
}

/**
 * The right-hand side of a simple type's alias: a union of literals, the base type, or an array.
 */
export function simpleTypeBody(ctx: EmitContext, t: SimpleType, mode: Mode): Code {
  const item =
    t.enumeration.length > 0
      ? union(t.enumeration.map((v) => JSON.stringify(v)))
      : scalarType(ctx, t.base.scalar, mode);
  return t.list ? arrayOf(item) : item;
}

/**
 * The value type of a field's element: for the head of a substitution group, the head's type unless
 * it is abstract, or a member's with `$element` naming the member.
 */
function elementValueType(ctx: EmitContext, f: ElementField, mode: Mode): Code {
  const s = f.substitutes;
  if (!s) return typeExpr(ctx, f.type, mode);
  const members = s.members.map((m) =>
    cat("(", typeExpr(ctx, m.type, mode), ` & { $element: ${JSON.stringify(m.name.local)} })`),
  );
  return union([...(s.head.abstract ? [] : [typeExpr(ctx, f.type, mode)]), ...members]);
}

/** The type of one occurrence of a field's element: `| null` for nillable. */
export function occurrenceType(ctx: EmitContext, f: ElementField, mode: Mode): Code {
  const base = elementValueType(ctx, f, mode);
  return f.nillable ? orElse(base, "null") : base;
}

/** The property type of a field: array for repeated, `| null` for nillable. */
export function fieldType(ctx: EmitContext, f: ElementField, mode: Mode): Code {
  const one = occurrenceType(ctx, f, mode);
  return f.maxOccurs > 1 ? arrayOf(one) : one;
}

/** The resolved type of a typed operation result. */
export function resultType(ctx: EmitContext, r: OperationResult, mode: Mode): Code {
  if (r.kind === "void") return "void";
  if (r.kind === "object") return typeExpr(ctx, r.type, mode);
  const t = fieldType(ctx, r.field, mode);
  return fieldOptional(r.field) ? orElse(t, "undefined") : t;
}

/** The members of `t` as a union, or `t` itself: `A | B` or `A`. */
export const unionMembers = (t: Code, parenthesized = false): readonly Code[] =>
  typeof t === "object" && t.k === "union" && (parenthesized || !t.parens) ? t.members : [t];

/** `t | other`, one flat union. */
export const orElse = (t: Code, other: Code): Code => union([...unionMembers(t), other]);

/** `T[]`, with parentheses around a union. */
export function arrayOf(item: Code): Code {
  const members = unionMembers(item);
  return members.length > 1 ? cat(union(members, true), "[]") : cat(item, "[]");
}
