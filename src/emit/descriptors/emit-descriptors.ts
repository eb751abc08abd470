/** The field calls of descriptors.ts, and the options its `field` leaves unsaid. */
import type { ElementDecl, ElementField, QName, SimpleType, TypeRef } from "../../model/model.js";
import { simpleDescExpr } from "./scalar-descriptors.js";
import { emptyValue, suppliedFixed } from "../../transform/value-constraints.js";
import { nsRef, rt, type EmitContext } from "../context.js";
import type { RuntimeFieldOptions } from "../runtime-symbols.js";
import type { EmitPlan } from "../../transform/plan.js";
import { array, arrow, call, object, type Code } from "../code.js";

export type Props = [string, Code][];
/** `{ … }` of options, or nothing when there are none. */
export const options = (props: Props): Code[] => (props.length ? [object(props)] : []);

/**
 * A string literal, written as a template on its namespace const when it starts with one (minimal
 * diffs).
 */
export function nsTemplate(ctx: EmitContext, value: string): string {
  let best: [string, string] | undefined;
  for (const [ns, name] of ctx.plan.namespaces)
    if (value.startsWith(ns) && (!best || ns.length > best[0].length)) best = [ns, name];
  if (!best) return JSON.stringify(value);
  const rest = value.slice(best[0].length).replace(/[`\\$]/g, (c) => `\\${c}`);
  return `\`\${${best[1]}}${rest}\``;
}

/**
 * An expression for a type's descriptor. A complex one is a thunk, so that declaration order never
 * matters, unless `direct`: where the expression is evaluated only once every descriptor is
 * declared (inside a type's fields thunk, or after all the types).
 */
export function typeDescExpr(ctx: EmitContext, t: TypeRef, direct = false): Code {
  if (t.kind !== "complex") return simpleDescExpr(ctx, t);
  const name = ctx.plan.names.type(t).descriptor;
  return direct ? name : arrow("()", name);
}

/** What a field's call says besides its name and type; unset, the runtime's default. */
interface FieldCallOptions {
  readonly prop?: string;
  readonly min?: number;
  readonly max?: number;
  readonly nillable?: boolean;
  readonly substitutes?: ElementField["substitutes"];
  readonly choice?: boolean;
  /** The branch of its xs:choice, when not the first (`FieldDesc.branch`). */
  readonly branch?: number;
  /** The ordered list it is an element of (`FieldDesc.tag`): its property. */
  readonly in?: string;
  readonly fixed?: string | undefined;
  readonly default?: string | undefined;
  readonly xsiType?: QName | undefined;
}

function fieldCall(
  ctx: EmitContext,
  local: string,
  ns: string,
  type: TypeRef,
  o: FieldCallOptions,
  direct = false,
): Code {
  const opts: Props = [];
  if (o.in !== undefined) {
    // An element of an ordered list: its items are in `in`, `prop` is their `$choice`, and it
    // repeats, the list optional unless `min` says otherwise (the runtime's defaults there).
    opts.push(["in", JSON.stringify(o.in)]);
    if (o.prop !== undefined && o.prop !== local) opts.push(["prop", JSON.stringify(o.prop)]);
    if ((o.min ?? 0) > 0) opts.push(["min", String(o.min)]);
    if (o.nillable) opts.push(["nillable", "true"]);
  } else {
    if (o.prop !== undefined && o.prop !== local) opts.push(["prop", JSON.stringify(o.prop)]);
    opts.push(...shapeOptions(o.min ?? 1, o.max ?? 1, o.nillable ?? false));
  }
  if (o.substitutes) {
    // The elements that may stand in this one's place (a substitution group), each told apart by
    // `$element`.
    const members = o.substitutes.members.map((m) =>
      // Read inside the substitutes thunk, once every descriptor is declared.
      fieldCall(ctx, m.name.local, m.name.ns, m.type, {}, true),
    );
    opts.push(["substitutes", arrow("()", array(members))]);
    if (o.substitutes.head.abstract) opts.push(["abstract", "true"]);
  }
  if (o.choice) opts.push(["choice", "true"]);
  if (o.branch !== undefined) opts.push(["branch", String(o.branch)]);
  if (o.fixed !== undefined) opts.push(["fixed", JSON.stringify(o.fixed)]);
  if (o.default !== undefined) opts.push(["default", JSON.stringify(o.default)]);
  if (o.xsiType !== undefined) opts.push(["xsiType", typeNameObject(ctx, o.xsiType)]);
  return fieldOf(ctx, ns, JSON.stringify(local), typeDescExpr(ctx, type, direct), opts);
}

/**
 * `field(name, type, …)`: the file's own `field` leaves its namespace unsaid, and is given any
 * other (`field(name, NS5, type, …)`); without one, the runtime's is given every namespace. The
 * options are the runtime's name for them where it has one; the file's own `field` leaves its
 * default options unsaid, and says `REQUIRED` for none where it has defaults.
 */
export function fieldOf(
  ctx: EmitContext,
  ns: string,
  name: Code,
  type: Code,
  opts: Props = [],
): Code {
  const own = ctx.fieldNs !== undefined;
  const defaults = own ? ctx.fieldOptions : undefined;
  const named = NAMED_OPTIONS.get(optionsKey(opts));
  let rest: Code[];
  if (defaults !== undefined && named === defaults) rest = [];
  else if (defaults !== undefined && opts.length === 0) rest = [rt(ctx, "REQUIRED")];
  else if (named) rest = [rt(ctx, named)];
  else
    rest = options(
      // The runtime's constant is imported only where it is printed.
      opts.map(([k, v]): [string, Code] => [
        k,
        k === "max" && v === "UNBOUNDED" ? rt(ctx, "UNBOUNDED") : v,
      ]),
    );
  if (!own) return call(rt(ctx, "field"), name, nsRef(ctx, ns), type, ...rest);
  return call("field", name, ...(ns === ctx.fieldNs ? [] : [nsRef(ctx, ns)]), type, ...rest);
}

const optionsKey = (opts: Props): string => opts.map(([k, v]) => `${k}: ${String(v)}`).join(", ");

/**
 * The namespace most element fields of descriptors.ts are in, which its `field` leaves unsaid;
 * undefined when it has no types or elements. Ties go to the namespace counted first.
 */
export function commonFieldNs(plan: EmitPlan): string | undefined {
  const counts = new Map<string, number>();
  const count = (ns: string) => counts.set(ns, (counts.get(ns) ?? 0) + 1);
  for (const t of plan.model.types) {
    if (t.kind !== "complex") continue;
    for (const f of t.fields) {
      count(f.name.ns);
      for (const m of f.substitutes?.members ?? []) count(m.name.ns);
    }
  }
  for (const e of plan.model.elements) count(e.name.ns);
  let best: [string, number] | undefined;
  for (const entry of counts) if (!best || entry[1] > best[1]) best = entry;
  return best?.[0];
}

/**
 * The named options (`OPTIONAL_NILLABLE` and the like) most fields of descriptors.ts have, which
 * its `field` then leaves unsaid, when they are at least twice as many as the fields with no
 * options (required elements, the runtime's default), which then say `REQUIRED`: so that the
 * default pays for itself and reads as the rule of the file. Counted over the fields of the types,
 * as `elementFieldCall` writes them, and the global elements (message bodies are required).
 */
export function commonFieldOptions(plan: EmitPlan): RuntimeFieldOptions | undefined {
  const counts = new Map<string, number>();
  const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const t of plan.model.types) {
    if (t.kind !== "complex") continue;
    for (const f of t.fields) {
      const key = shapeKey(f.name.local, elementFieldOptions(plan, f));
      if (key !== undefined) count(key);
    }
  }
  for (const e of plan.model.elements) count(optionsKey(shapeOptions(1, 1, e.nillable)));
  let best: [RuntimeFieldOptions | undefined, number] = [undefined, 2 * (counts.get("") ?? 0) - 1];
  for (const [key, n] of counts) {
    const name = NAMED_OPTIONS.get(key);
    if (name !== undefined && n > best[1]) best = [name, n];
  }
  return best[0];
}

/** The occurrence and nillable options of a field, as `fieldCall` writes them. */
function shapeOptions(min: number, max: number, nillable: boolean): Props {
  const opts: Props = [];
  if (min !== 1) opts.push(["min", String(min)]);
  if (max !== 1) opts.push(["max", max === Infinity ? "UNBOUNDED" : String(max)]);
  if (nillable) opts.push(["nillable", "true"]);
  return opts;
}

/** The runtime's names for the commonest field options (descriptors.ts's OPTIONAL and others). */
const NAMED_OPTIONS = new Map<string, RuntimeFieldOptions>([
  ["min: 0", "OPTIONAL"],
  ["min: 0, nillable: true", "OPTIONAL_NILLABLE"],
  ["min: 0, max: UNBOUNDED", "REPEATED"],
  ["min: 0, max: UNBOUNDED, nillable: true", "REPEATED_NILLABLE"],
]);

/** An element field's call; `direct` as for `typeDescExpr`. */
export function elementFieldCall(ctx: EmitContext, f: ElementField, direct = false): Code {
  return fieldCall(ctx, f.name.local, f.name.ns, f.type, elementFieldOptions(ctx.plan, f), direct);
}

/** What an element field's call says besides its name and type. */
function elementFieldOptions(plan: EmitPlan, f: ElementField): FieldCallOptions {
  // A choice branch may be absent on the wire; the generated types enforce that exactly one is
  // there. An ordered list's `min` is the list's: 1 when it may not be empty.
  const min = f.ordered ? (f.ordered.optional ? 0 : 1) : f.choice ? 0 : f.minOccurs;
  // A repeated element of a branch reads as absent when the branch is not taken (FieldDesc.choice).
  const choice = f.choice !== undefined && !f.choice.repeated && f.maxOccurs > 1;
  // A sample holds the first branch of a choice only (FieldDesc.branch).
  const branch = f.choice !== undefined && f.choice.branch > 0 ? f.choice.branch : undefined;
  const fixed = suppliedFixed(f);
  const list = f.ordered && plan.names.propIfNamed(f.ordered);
  return {
    prop: plan.names.propIfNamed(f) ?? f.name.local,
    min,
    max: f.maxOccurs,
    nillable: f.nillable,
    ...(list !== undefined ? { in: list } : {}),
    ...(f.substitutes ? { substitutes: f.substitutes } : {}),
    ...(choice ? { choice } : {}),
    ...(branch !== undefined ? { branch } : {}),
    fixed,
    // What an empty element stands for (its fixed or default value), unless `fixed` already says
    // it.
    default: fixed === undefined ? emptyValue(f) : undefined,
    xsiType: plan.xsiTypes.get(f),
  };
}

/**
 * The key of a field's options in NAMED_OPTIONS when they are only its occurrence and nillable
 * ("" for none); undefined when they say more (a `prop`, a `default` and the like).
 */
function shapeKey(local: string, o: FieldCallOptions): string | undefined {
  const plain =
    (o.prop === undefined || o.prop === local) &&
    !o.substitutes &&
    !o.choice &&
    o.branch === undefined &&
    o.in === undefined &&
    o.fixed === undefined &&
    o.default === undefined &&
    o.xsiType === undefined;
  return plain ? optionsKey(shapeOptions(o.min ?? 1, o.max ?? 1, o.nillable ?? false)) : undefined;
}

/** A global element's field, declared after every type (a message body, a fault's detail). */
export const elementDeclCall = (ctx: EmitContext, e: ElementDecl, min = 1): Code =>
  fieldCall(ctx, e.name.local, e.name.ns, e.type, { nillable: e.nillable, min }, true);

/** A schema type's name as the runtime takes it (`{ ns, type }`). */
export const typeNameObject = (ctx: EmitContext, name: QName): Code =>
  object([
    ["ns", nsRef(ctx, name.ns)],
    ["type", JSON.stringify(name.local)],
  ]);
