/** The declaration of each type's descriptor in descriptors.ts: its fields, attributes, family. */
import type { ComplexType, SimpleType } from "../../model/model.js";
import { inFamily } from "../../model/value-shapes.js";
import { suppliedFixed } from "../../transform/value-constraints.js";
import { collectFields, collectHierarchy } from "../../transform/names.js";
import { describedTypeExpr } from "../type-expressions.js";
import { nsRef, rt, rtType, type EmitContext } from "../context.js";
import type { RuntimeType } from "../runtime-symbols.js";
import { array, arrow, call, cat, object, typeArgs, type Code, type Statement } from "../code.js";
import {
  elementFieldCall,
  nsTemplate,
  options,
  typeNameObject,
  type Props,
} from "./emit-descriptors.js";
import { scalarCall, simpleDescExpr } from "./scalar-descriptors.js";

/** The declaration of one type's descriptor. */
export function typeDescriptor(ctx: EmitContext, t: ComplexType | SimpleType): Statement {
  const name = ctx.plan.names.type(t).descriptor;
  const label = JSON.stringify(t.name?.local ?? ctx.plan.names.type(t).type);
  // A scalar's stays untyped: no API reads its type, and Bing's 124 enumerations would spend 2.9 kB
  // of its size budget (descriptor-size.test.ts) on it.
  if (t.kind === "simple") {
    const type = rtType(ctx, "ScalarDesc");
    return { code: cat(`export const ${name}: ${type} = `, scalarCall(ctx, t), ";") };
  }
  const declare = (type: RuntimeType, value: Code): Statement => ({
    code: cat(`export const ${name}: `, typedDesc(ctx, type, t), " = ", value, ";"),
  });
  const item = ctx.plan.arrayItems.get(t);
  if (item) {
    // A SOAP-encoded array names its item type, for soapenc:arrayType and each item's xsi:type.
    const enc = t.encodedArray?.itemType;
    const encoded = enc ? [typeNameObject(ctx, enc)] : [];
    return declare(
      "ArrayDesc",
      call(rt(ctx, "array"), label, elementFieldCall(ctx, item), ...encoded),
    );
  }
  const base = inheritedBase(ctx, t);
  // An extension refers to its base's descriptor for the content it inherits.
  const { fields, attributes } = base ? t : collectFields(t);
  const opts: Props = base ? [["base", arrow("()", base)]] : [];
  if (attributes.length > 0)
    opts.push(["attrs", array(attributes.map((a) => attributeCall(ctx, a)))]);
  const hierarchy = collectHierarchy(t);
  if (hierarchy.some((c) => c.anyElements)) {
    opts.push(["any", "true"]);
    // An index among all the fields, the inherited ones included.
    const at = anyIndex(hierarchy);
    if (at < hierarchy.reduce((n, c) => n + c.fields.length, 0)) opts.push(["anyAt", String(at)]);
    const required = hierarchy.find((c) => c.anyRequired !== undefined);
    if (required?.anyRequired !== undefined)
      opts.push(["anyRequired", nsTemplate(ctx, required.anyRequired)]);
    if (required?.anyElement !== undefined)
      opts.push(["anyElement", JSON.stringify(required.anyElement)]);
  }
  if (hierarchy.some((c) => c.anyAttributes)) opts.push(["anyAttrs", "true"]);
  if (inFamily(t)) opts.push(["family", familyOptions(ctx, t)]);
  if (t.simpleContent) opts.push(["text", simpleDescExpr(ctx, t.simpleContent)]);
  const body = arrow("()", array(fields.map((f) => elementFieldCall(ctx, f, true))));
  return declare("ComplexDesc", call(rt(ctx, "complex"), label, body, ...options(opts)));
}

/**
 * `ComplexDesc<t.Campaign, t.CampaignInput>`: a type descriptor's type carries the value it reads
 * and, where it differs, the input form it writes (`ValueOf`, `InputOf`).
 */
function typedDesc(ctx: EmitContext, desc: RuntimeType, t: ComplexType): Code {
  const typed = { ...ctx, typesModule: "./types.js" };
  const value = describedTypeExpr(typed, t, "output");
  const input = describedTypeExpr(typed, t, "input");
  return typeArgs(rtType(ctx, desc), value === input ? [value] : [value, input]);
}

/** The descriptor of the complex type `t` extends, when it has one to refer to. */
function inheritedBase(ctx: EmitContext, t: ComplexType): string | undefined {
  const base = t.base;
  if (!base || ctx.plan.arrayItems.has(base) || collectHierarchy(base).includes(t))
    return undefined;
  return ctx.plan.names.typeIfNamed(base)?.descriptor;
}

function attributeCall(ctx: EmitContext, a: ComplexType["attributes"][number]): Code {
  const prop = ctx.plan.names.prop(a);
  const o: Props = [];
  if (prop !== a.name.local) o.push(["prop", JSON.stringify(prop)]);
  if (a.required) o.push(["required", "true"]);
  const fixed = suppliedFixed(a);
  if (fixed !== undefined) o.push(["fixed", JSON.stringify(fixed)]);
  const args = [JSON.stringify(a.name.local), nsRef(ctx, a.name.ns), simpleDescExpr(ctx, a.type)];
  return call(rt(ctx, "attribute"), ...args, ...options(o));
}

/** Where the first `xs:any` content of a type stands among its fields, inherited ones first. */
function anyIndex(hierarchy: readonly ComplexType[]): number {
  let offset = 0;
  for (const c of hierarchy) {
    if (c.anyElements) return offset + (c.anyPosition ?? c.fields.length);
    offset += c.fields.length;
  }
  return offset;
}

/**
 * `{ ns: NS, derived: () => [B, C], abstract: true }`: how values of a family member are told
 * apart.
 */
function familyOptions(ctx: EmitContext, t: ComplexType): Code {
  const names = ctx.plan.names.type(t);
  const o: Props = [["ns", nsRef(ctx, t.name?.ns ?? "")]];
  if (names.type !== t.name?.local) o.push(["tag", JSON.stringify(names.type)]);
  // The direct ones only: the runtime adds theirs.
  const derived = t.derived;
  if (derived.length > 0)
    o.push(["derived", arrow("()", array(derived.map((d) => ctx.plan.names.type(d).descriptor)))]);
  if (t.abstract) o.push(["abstract", "true"]);
  return object(o);
}
