/** The body of descriptors.ts: namespace constants, one codec descriptor per type, one per service. */
import type {
  BindingOperation,
  ComplexType,
  ElementDecl,
  ElementField,
  Operation,
  OperationResult,
  Port,
  Service,
  SimpleType,
  SoapBodyShape,
  TypeRef,
} from "../../model/model.js";
import { descendants, inFamily } from "../../transform/families.js";
import { emptyValue, suppliedFixed } from "../../transform/value-constraints.js";
import { collectFields, collectHierarchy } from "../../transform/names.js";
import { symbol } from "../generated-file.js";
import { objectKey } from "../identifiers.js";
import { typeExpr, type EmitContext } from "../type-expressions.js";

const rt = (ctx: EmitContext, name: string, typeOnly = false) =>
  ctx.file.use(symbol(name, ctx.runtime, typeOnly));

/** The namespace argument: a const for a known namespace, "" when unqualified. */
export function nsRef(ctx: EmitContext, ns: string): string {
  if (ns === "") return '""';
  return ctx.plan.namespaces.get(ns) ?? JSON.stringify(ns);
}

/** A string literal, written as a template on its namespace const when it starts with one (minimal diffs). */
export function nsTemplate(ctx: EmitContext, value: string): string {
  let best: [string, string] | undefined;
  for (const [ns, name] of ctx.plan.namespaces)
    if (value.startsWith(ns) && (!best || ns.length > best[0].length)) best = [ns, name];
  if (!best) return JSON.stringify(value);
  const rest = value.slice(best[0].length).replace(/[`\\$]/g, (c) => `\\${c}`);
  return `\`\${${best[1]}}${rest}\``;
}

function scalarCall(ctx: EmitContext, t: SimpleType): string {
  const opts: string[] = [];
  if (t.list) opts.push("list: true");
  if (t.enumeration.length > 0)
    opts.push(`values: [${t.enumeration.map((v) => JSON.stringify(v)).join(", ")}]`);
  return opts.length === 0
    ? `${rt(ctx, "xs")}.${t.base.scalar}`
    : `${rt(ctx, "scalar")}(${JSON.stringify(t.base.scalar)}, { ${opts.join(", ")} })`;
}

/** An expression for a type's descriptor; complex ones are thunks so declaration order never matters. */
export function typeDescExpr(ctx: EmitContext, t: TypeRef): string {
  if (t.kind === "builtin") return `${rt(ctx, "xs")}.${t.scalar}`;
  if (t.kind === "simple")
    return t.name === undefined ? scalarCall(ctx, t) : ctx.plan.typeNames.get(t)!.descriptor;
  return `() => ${ctx.plan.typeNames.get(t)!.descriptor}`;
}

function fieldCall(
  ctx: EmitContext,
  local: string,
  ns: string,
  type: TypeRef,
  o: {
    prop?: string;
    min?: number;
    max?: number;
    nillable?: boolean;
    substitutes?: ElementField["substitutes"];
    choice?: boolean;
    fixed?: string | undefined;
    default?: string | undefined;
  },
): string {
  const opts: string[] = [];
  if (o.prop !== undefined && o.prop !== local) opts.push(`prop: ${JSON.stringify(o.prop)}`);
  if (o.min !== undefined && o.min !== 1) opts.push(`min: ${o.min}`);
  if (o.max !== undefined && o.max !== 1)
    opts.push(`max: ${o.max === Infinity ? rt(ctx, "UNBOUNDED") : o.max}`);
  if (o.nillable) opts.push("nillable: true");
  if (o.substitutes) {
    // The elements that may stand in this one's place (a substitution group), each told apart by `$element`.
    opts.push(
      `substitutes: () => [${o.substitutes.members.map((m) => fieldCall(ctx, m.name.local, m.name.ns, m.type, {})).join(", ")}]`,
    );
    if (o.substitutes.head.abstract) opts.push("abstract: true");
  }
  if (o.choice) opts.push("choice: true");
  if (o.fixed !== undefined) opts.push(`fixed: ${JSON.stringify(o.fixed)}`);
  if (o.default !== undefined) opts.push(`default: ${JSON.stringify(o.default)}`);
  return `${rt(ctx, "field")}(${JSON.stringify(local)}, ${nsRef(ctx, ns)}, ${typeDescExpr(ctx, type)}${opts.length ? `, { ${opts.join(", ")} }` : ""})`;
}

export function elementFieldCall(ctx: EmitContext, f: ElementField): string {
  // A choice branch may be absent on the wire; the generated types enforce that exactly one is there.
  const min = f.choice ? 0 : f.minOccurs;
  // A repeated element of a branch reads as absent when the branch is not taken (FieldDesc.choice).
  const choice = f.choice !== undefined && !f.choice.repeated && f.maxOccurs > 1;
  const fixed = suppliedFixed(f);
  return fieldCall(ctx, f.name.local, f.name.ns, f.type, {
    prop: ctx.plan.propNames.get(f) ?? f.name.local,
    min,
    max: f.maxOccurs,
    nillable: f.nillable,
    ...(f.substitutes ? { substitutes: f.substitutes } : {}),
    ...(choice ? { choice } : {}),
    fixed,
    // What an empty element stands for (its fixed or default value), unless `fixed` already says it.
    default: fixed === undefined ? emptyValue(f) : undefined,
  });
}

const elementDeclCall = (ctx: EmitContext, e: ElementDecl, min = 1): string =>
  fieldCall(ctx, e.name.local, e.name.ns, e.type, { nillable: e.nillable, min });

/** The declaration of one type's descriptor. */
export function typeDescriptor(ctx: EmitContext, t: ComplexType | SimpleType): string {
  const name = ctx.plan.typeNames.get(t)!.descriptor;
  const label = JSON.stringify(t.name?.local ?? ctx.plan.typeNames.get(t)!.type);
  if (t.kind === "simple")
    return `export const ${name}: ${rt(ctx, "ScalarDesc", true)} = ${scalarCall(ctx, t)};`;
  const item = ctx.plan.arrayItems.get(t);
  if (item)
    return `export const ${name}: ${rt(ctx, "ArrayDesc", true)} = ${rt(ctx, "array")}(${label}, ${elementFieldCall(ctx, item)});`;
  const { fields, attributes } = collectFields(t);
  const opts: string[] = [];
  if (attributes.length > 0) {
    const attrs = attributes.map((a) => {
      const prop = ctx.plan.propNames.get(a)!;
      const o: string[] = [];
      if (prop !== a.name.local) o.push(`prop: ${JSON.stringify(prop)}`);
      if (a.required) o.push("required: true");
      const fixed = suppliedFixed(a);
      if (fixed !== undefined) o.push(`fixed: ${JSON.stringify(fixed)}`);
      const type =
        a.type.kind === "builtin"
          ? `${rt(ctx, "xs")}.${a.type.scalar}`
          : a.type.name === undefined
            ? scalarCall(ctx, a.type)
            : ctx.plan.typeNames.get(a.type)!.descriptor;
      return `${rt(ctx, "attribute")}(${JSON.stringify(a.name.local)}, ${nsRef(ctx, a.name.ns)}, ${type}${o.length ? `, { ${o.join(", ")} }` : ""})`;
    });
    opts.push(`attrs: [${attrs.join(", ")}]`);
  }
  const hierarchy = collectHierarchy(t);
  if (hierarchy.some((c) => c.anyElements)) {
    opts.push("any: true");
    const at = anyIndex(hierarchy);
    if (at < fields.length) opts.push(`anyAt: ${at}`);
  }
  if (hierarchy.some((c) => c.anyAttributes)) opts.push("anyAttrs: true");
  if (inFamily(t)) opts.push(`family: ${familyOptions(ctx, t)}`);
  if (t.simpleContent) {
    const sc = t.simpleContent;
    opts.push(
      `text: ${sc.kind === "builtin" ? `${rt(ctx, "xs")}.${sc.scalar}` : sc.name === undefined ? scalarCall(ctx, sc) : ctx.plan.typeNames.get(sc)!.descriptor}`,
    );
  }
  const body = fields.map((f) => `  ${elementFieldCall(ctx, f)},`).join("\n");
  return `export const ${name}: ${rt(ctx, "ComplexDesc", true)} = ${rt(ctx, "complex")}(${label}, () => [\n${body}\n]${opts.length ? `, { ${opts.join(", ")} }` : ""});`;
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

/** `{ ns: NS, derived: () => [B, C], abstract: true }`: how values of a family member are told apart. */
function familyOptions(ctx: EmitContext, t: ComplexType): string {
  const names = ctx.plan.typeNames.get(t)!;
  const o = [`ns: ${nsRef(ctx, t.name?.ns ?? "")}`];
  if (names.type !== t.name?.local) o.push(`tag: ${JSON.stringify(names.type)}`);
  const derived = descendants(t).filter((d) => !d.abstract);
  if (derived.length > 0)
    o.push(
      `derived: () => [${derived.map((d) => ctx.plan.typeNames.get(d)!.descriptor).join(", ")}]`,
    );
  if (t.abstract) o.push("abstract: true");
  return `{ ${o.join(", ")} }`;
}

function soapBody(
  ctx: EmitContext,
  shape: SoapBodyShape | undefined,
  op: Operation,
  direction: "request" | "response",
): string {
  if (!shape || shape.kind === "empty") return "undefined";
  const props: string[] = [];
  if (shape.kind === "element") {
    props.push(`element: ${elementDeclCall(ctx, shape.element)}`);
    if (direction === "request" && op.input !== shape.element.type)
      props.push(
        `prop: ${JSON.stringify(ctx.plan.propNames.get(op.input.fields[0]!) ?? shape.element.name.local)}`,
      );
  } else if (shape.kind === "parts") {
    // Several body elements, no wrapper: the typed input or result type lists them; the first routes.
    const type =
      direction === "request" ? op.input : op.result.kind === "object" ? op.result.type : undefined;
    if (type)
      props.push(
        `element: ${elementFieldCall(ctx, type.fields[0]!)}`,
        `parts: ${ctx.plan.typeNames.get(type)!.descriptor}`,
      );
  } else {
    const fields = shape.parts.map((p) => elementFieldCall(ctx, p)).join(", ");
    props.push(
      `element: ${rt(ctx, "field")}(${JSON.stringify(shape.wrapper.local)}, ${nsRef(ctx, shape.wrapper.ns)}, ${rt(ctx, "complex")}(${JSON.stringify(shape.wrapper.local)}, () => [${fields}]))`,
    );
  }
  if (direction === "response") {
    const r = op.result;
    if (r.kind === "void") props.push("void: true");
    else if (r.kind === "unwrapped") {
      const owner = shape.kind === "element" ? shape.element.type : undefined;
      const inOwner = owner?.kind === "complex" && collectFields(owner).fields.includes(r.field);
      // A wrapper that is a plain array (its one repeated field) decodes to the result itself: no prop.
      const arrayWrapper = owner?.kind === "complex" && ctx.plan.arrayItems.get(owner) === r.field;
      if (inOwner && !arrayWrapper)
        props.push(
          `prop: ${JSON.stringify(ctx.plan.propNames.get(r.field) ?? r.field.name.local)}`,
        );
      else if (shape.kind === "rpc") props.push(`prop: ${JSON.stringify(r.field.name.local)}`);
    }
  }
  return `{ ${props.join(", ")} }`;
}

/** The properties of the service's header bag that an operation's request (`headers`) and response (`responseHeaders`) carry. */
function headerProps(ctx: EmitContext, s: Service, bop: BindingOperation): string {
  const bag = s.soapHeaders;
  if (!bag) return "";
  const props = (elements: readonly ElementDecl[]) =>
    elements.map((e) => {
      const f = bag.fields.find((x) => x.name.ns === e.name.ns && x.name.local === e.name.local)!;
      return JSON.stringify(ctx.plan.propNames.get(f) ?? f.name.local);
    });
  let out = "";
  if (bop.inputHeaders.length > 0) out += `, headers: [${props(bop.inputHeaders).join(", ")}]`;
  if (bop.outputHeaders.length > 0)
    out += `, responseHeaders: [${props(bop.outputHeaders).join(", ")}]`;
  return out;
}

/** The HTTP response descriptor's flags for the typed result: void, or what a nil document reads as (BodyDesc.nil). */
function httpResultFlags(r: OperationResult): string {
  if (r.kind === "void") return ", void: true";
  if (r.kind !== "unwrapped") return "";
  if (r.field.maxOccurs > 1) return `, nil: "empty"`;
  return r.field.nillable ? `, nil: "null"` : "";
}

function operationDesc(ctx: EmitContext, s: Service, port: Port, bop: BindingOperation): string {
  const op = bop.operation;
  if (port.binding.protocol === "soap11" || port.binding.protocol === "soap12") {
    const action = bop.soapAction === undefined ? "undefined" : nsTemplate(ctx, bop.soapAction);
    const faults = bop.faults.length
      ? `, faults: [${bop.faults.map((f) => ctx.plan.faultClasses.get(f.element)!.descriptor).join(", ")}]`
      : "";
    return `{ kind: "soap", action: ${action}, request: ${soapBody(ctx, bop.soapInput, op, "request")}, response: ${bop.hasOutput ? soapBody(ctx, bop.soapOutput, op, "response") : "undefined"}, oneWay: ${!bop.hasOutput}${faults}${headerProps(ctx, s, bop)} }`;
  }
  const params = bop.httpParameters.map((p) => {
    const t = p.field.type;
    const type =
      t.kind === "builtin"
        ? `${rt(ctx, "xs")}.${t.scalar}`
        : t.kind === "simple"
          ? t.name === undefined
            ? scalarCall(ctx, t)
            : ctx.plan.typeNames.get(t)!.descriptor
          : `${rt(ctx, "xs")}.string`;
    const scalarKind =
      t.kind === "builtin" ? t.scalar : t.kind === "simple" ? t.base.scalar : "string";
    const required = p.field.minOccurs > 0 || scalarKind === "string";
    return `{ name: ${JSON.stringify(p.name)}, prop: ${JSON.stringify(ctx.plan.propNames.get(p.field) ?? p.field.name.local)}, type: ${type}, required: ${required}, repeated: ${p.field.maxOccurs > 1} }`;
  });
  let response = "undefined";
  if (bop.mimeXmlElement) {
    response = `{ element: ${elementDeclCall(ctx, bop.mimeXmlElement, 0)}${httpResultFlags(op.result)} }`;
  }
  const replace = bop.inputEncoding.kind === "urlReplacement" ? ", replace: true" : "";
  return `{ kind: "http", location: ${JSON.stringify(bop.location ?? `/${op.name}`)}${replace}, params: [${params.join(", ")}], response: ${response} }`;
}

/** One FaultDesc const per fault class: its element, its class, and how to build and read one. */
export function faultDescriptors(ctx: EmitContext, faultsModule: string): string[] {
  return [...ctx.plan.faultClasses.entries()].map(([element, f]) => {
    const cls = ctx.file.use(symbol(f.className, faultsModule));
    const detail = typeExpr({ ...ctx, typesModule: "./types.js" }, element.type, "output");
    return `export const ${f.descriptor}: ${rt(ctx, "FaultDesc", true)} = {
  name: ${JSON.stringify(f.faultName)},
  element: ${elementDeclCall(ctx, element)},
  type: ${cls},
  create: (init, detail) => new ${cls}(init, detail as ${detail}),
  detailOf: (fault) => (fault as ${cls}).faultDetail,
};`;
  });
}

/** The declaration of a service's port and operation descriptors. */
export function serviceDescriptor(ctx: EmitContext, s: Service): string {
  const names = ctx.plan.serviceNames.get(s)!;
  const defaultPort = s.ports.find((p) => p.binding.protocol === "soap11") ?? s.ports[0];
  const ports = s.ports.map((p) => {
    const ops = p.binding.operations
      .map((bop) => `      ${objectKey(bop.operation.name)}: ${operationDesc(ctx, s, p, bop)},`)
      .join("\n");
    return `    ${objectKey(p.name)}: {\n      name: ${JSON.stringify(p.name)},\n      protocol: ${JSON.stringify(p.binding.protocol)},\n      address: ${JSON.stringify(p.address ?? "")},\n      operations: {\n${ops}\n      },\n    },`;
  });
  return `export const ${names.descriptor}: ${rt(ctx, "ServiceDesc", true)} = {
  name: ${JSON.stringify(s.name)},
  targetNamespace: ${nsRef(ctx, s.targetNamespace)},
  defaultPort: ${JSON.stringify(defaultPort?.name ?? "")},${s.soapHeaders ? `\n  soapHeaders: ${ctx.plan.typeNames.get(s.soapHeaders)!.descriptor},` : ""}
  ports: {
${ports.join("\n")}
  },
};`;
}
