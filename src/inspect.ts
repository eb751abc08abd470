/** `wsdl-tsgen inspect`: what a user reads before writing code, as text or as the model in JSON. */
import type {
  Binding,
  BindingOperation,
  ComplexType,
  ElementField,
  OperationResult,
  Port,
  SimpleType,
  TypeRef,
  WsdlModel,
} from "./model/model.js";
import { ORDERED_LIST_PROPERTY } from "./transform/names.js";

const typeName = (t: TypeRef): string =>
  t.kind === "builtin"
    ? `xs:${t.name.local}`
    : t.name
      ? t.name.local
      : t.kind === "simple"
        ? `(anonymous ${t.base.name.local})`
        : "(anonymous)";

function fieldSig(f: ElementField): string {
  const many = f.maxOccurs > 1 ? "[]" : "";
  // In an optional choice, its `?` says the branch may be absent, not each element of it.
  const opt = f.maxOccurs <= 1 && f.minOccurs === 0 && !f.choice?.optional ? "?" : "";
  return `${f.name.local}${opt}: ${typeName(f.type)}${many}${f.nillable ? " | nil" : ""}`;
}

/** One occurrence of an ordered list's element: no `[]`, the list repeats. */
const itemSig = (f: ElementField): string =>
  `${f.name.local}: ${typeName(f.type)}${f.nillable ? " | nil" : ""}`;

/**
 * Fields as a signature, `sep` between them: a choice as its branches, `(a: A | b: B)` (`?` after
 * it when it may be absent), an ordered list as `Items: (a: A | b: B)[]` (its elements in any
 * order the schema allows, kept as they come), never as parameters all required.
 */
function fieldsSig(fields: readonly ElementField[], sep: string): string {
  const out: string[] = [];
  for (let i = 0; i < fields.length;) {
    const f = fields[i]!;
    const list = f.ordered;
    const choice = f.choice !== undefined && !f.choice.repeated ? f.choice.group : undefined;
    let j = i + 1;
    if (list) while (j < fields.length && fields[j]!.ordered === list) j++;
    else if (choice !== undefined)
      while (j < fields.length && fields[j]!.choice?.group === choice && !fields[j]!.ordered) j++;
    const run = fields.slice(i, j);
    if (list)
      out.push(
        `${ORDERED_LIST_PROPERTY}${list.optional ? "?" : ""}: (${run.map(itemSig).join(" | ")})[]`,
      );
    else if (choice !== undefined) {
      const branches = new Map<number, string[]>();
      for (const g of run)
        branches.set(g.choice!.branch, [...(branches.get(g.choice!.branch) ?? []), fieldSig(g)]);
      const alternatives = [...branches.values()].map((b) => b.join(", "));
      out.push(`(${alternatives.join(" | ")})${f.choice!.optional ? "?" : ""}`);
    } else out.push(fieldSig(f));
    i = j;
  }
  return out.join(sep);
}

function resultSig(r: OperationResult): string {
  if (r.kind === "void") return "void";
  if (r.kind === "object") return typeName(r.type);
  return `${typeName(r.field.type)}${r.field.maxOccurs > 1 ? "[]" : ""}${r.field.minOccurs === 0 ? " | absent" : ""}`;
}

function portLine(p: Port): string {
  const b = p.binding;
  const what =
    b.protocol === "soap11" ? "SOAP 1.1" : b.protocol === "soap12" ? "SOAP 1.2" : `HTTP ${b.verb}`;
  return `  port ${p.name}: ${what}, binding ${b.name.local}${b.style ? `, ${b.style}` : ""}${p.address ? ` at ${p.address}` : ""}`;
}

/** A readable summary of services, ports, operations and their typed signatures. */
export function describeModel(model: WsdlModel): string {
  const lines: string[] = [`${model.source} (targetNamespace ${model.targetNamespace})`];
  for (const s of model.services) {
    lines.push("", `service ${s.name}${s.doc ? `: ${s.doc}` : ""}`);
    for (const p of s.ports) lines.push(portLine(p));
    lines.push("  operations:");
    for (const op of s.operations) {
      lines.push(`    ${op.name}(${fieldsSig(op.input.fields, ", ")}): ${resultSig(op.result)}`);
      if (op.doc) lines.push(`      ${op.doc}`);
      for (const p of s.ports) {
        const bop = p.binding.operations.find((o) => o.operation === op);
        if (!bop) continue;
        lines.push(`      ${p.name}: ${howCalled(p.binding, bop)}`);
      }
    }
  }
  const named = model.types.filter((t): t is ComplexType | SimpleType => t.name !== undefined);
  if (named.length > 0) {
    lines.push("", "types:");
    for (const t of named) {
      if (t.kind === "simple")
        lines.push(
          `  ${t.name!.local} = ${t.enumeration.length ? t.enumeration.map((v) => JSON.stringify(v)).join(" | ") : typeName(t.base)}${t.list ? "[]" : ""}`,
        );
      else
        lines.push(
          `  ${t.name!.local}${t.base ? ` extends ${typeName(t.base)}` : t.restricts ? ` restricts ${typeName(t.restricts)}` : ""} { ${fieldsSig(t.fields, "; ")} }`,
        );
    }
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The model as JSON: types listed once and referred to by `{ "$type": index }`, so cycles are fine.
 */
export function modelToJson(model: WsdlModel): unknown {
  const index = new Map<object, number>(model.types.map((t, i) => [t, i]));
  const seen = new WeakSet<object>();
  const convert = (v: unknown, top = false): unknown => {
    if (v === Infinity) return "unbounded";
    if (typeof v !== "object" || v === null) return v;
    if (!top && index.has(v)) return { $type: index.get(v) };
    if (Array.isArray(v)) return v.map((x) => convert(x));
    if (seen.has(v) && !index.has(v)) return { $ref: (v as { name?: unknown }).name ?? "(cycle)" };
    seen.add(v);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === "operation" && (x as { kind?: string })?.kind === "operation")
        out[k] = (x as { name: string }).name;
      else if (x !== undefined) out[k] = convert(x);
    }
    return out;
  };
  return {
    source: model.source,
    targetNamespace: model.targetNamespace,
    services: convert(model.services),
    elements: convert(model.elements),
    types: model.types.map((t) => convert(t, true)),
  };
}

/** How a request reaches `bop`: its SOAPAction, or its HTTP verb and location. */
function howCalled(binding: Binding, bop: BindingOperation): string {
  switch (bop.protocol) {
    case "soap11":
    case "soap12":
      return bop.soapAction
        ? `SOAPAction ${bop.soapAction}`
        : "no SOAPAction (told apart by its body element)";
    case "httpGet":
    case "httpPost":
      return `${binding.verb} ${bop.location}`;
  }
}
