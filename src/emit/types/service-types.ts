/**
 * The TypeScript side of each service in types.ts: its port names and its operations by method
 * name. The service descriptor's type carries them, and the client and implementation types are
 * mapped from it by the runtime.
 */
import type { ComplexType, ElementField, Operation, Service } from "../../model/model.js";
import type { EmitPlan } from "../../transform/plan.js";
import { block, cat, union, type Code, type Member, type Statement } from "../code.js";
import { sourceDoc, type EmitContext } from "../context.js";
import { propertyKey } from "../../names/identifiers.js";
import { occurrenceType, resultType, typeExpr, type Mode } from "../type-expressions.js";
import { withAttachments } from "./attachment-types.js";

/** The port name union and the operations interface of every service. */
export function serviceTypes(ctx: EmitContext, services: readonly Service[]): Statement[] {
  return services.flatMap((s) => {
    const names = ctx.plan.names.service(s);
    const ports = s.ports.length ? union(s.ports.map((p) => JSON.stringify(p.name))) : "never";
    const members = s.operations.map((op) =>
      operationTypes(ctx, op, ctx.plan.names.method(s, op.name)),
    );
    return [
      {
        doc: `The ports of service ${s.name}: the client talks to the service over the one you choose.`,
        code: cat(`export type ${names.portName} = `, ports, ";"),
      },
      {
        doc: `The operations of service ${s.name}, by method: what a client sends (\`input\`) and receives (\`output\`), what an implementation receives (\`serverInput\`) and returns (\`serverOutput\`).`,
        code: block(`export interface ${names.operations}`, members),
      },
    ];
  });
}

/**
 * The TypeScript forms of an operation's messages, as `OperationTypes` names them: what a client
 * sends and receives, what an implementation receives and returns.
 */
const input = (ctx: EmitContext, op: Operation, mode: Mode) =>
  withAttachments(ctx, typeExpr(ctx, op.input, mode), op.attachments?.input, mode);
const output = (ctx: EmitContext, op: Operation, mode: Mode) =>
  withAttachments(ctx, resultType(ctx, op.result, mode), op.attachments?.output, mode);
const FORMS = {
  input: (ctx: EmitContext, op: Operation) => input(ctx, op, "input"),
  output: (ctx: EmitContext, op: Operation) => output(ctx, op, "output"),
  serverInput: (ctx: EmitContext, op: Operation) => input(ctx, op, "output"),
  serverOutput: (ctx: EmitContext, op: Operation) => output(ctx, op, "input"),
} as const;

/** One form of an operation's messages (and the imports of its types into `ctx.file`). */
export const operationForm = (ctx: EmitContext, op: Operation, form: keyof typeof FORMS): Code =>
  FORMS[form](ctx, op);

/** One operation's member: its documentation and the forms of its input and result. */
function operationTypes(ctx: EmitContext, op: Operation, method: string): Member {
  const forms: Member[] = (Object.keys(FORMS) as (keyof typeof FORMS)[]).map((form) => ({
    code: cat(`${form}: `, operationForm(ctx, op, form), ";"),
  }));
  const item = streamedItem(ctx, op, "input");
  if (item) forms.push({ code: cat("serverItem: ", item, ";") });
  const clientItem = item && streamedItem(ctx, op, "output");
  if (clientItem) forms.push({ code: cat("item: ", clientItem, ";") });
  return {
    doc: sourceDoc(ctx, op.doc),
    code: block(`${propertyKey(method)}:`, forms, "};"),
  };
}

/**
 * The item of a result that may be streamed, in the form `mode`: an implementation may return an
 * iterable of them (input form), and a client iterate them as they arrive (output form), as the
 * runtime's descriptors/stream-shape.ts rules (see streamedField); undefined for any other result.
 */
export function streamedItem(ctx: EmitContext, op: Operation, mode: Mode): Code | undefined {
  const item = streamedField(ctx.plan, op);
  return item && occurrenceType(ctx, item, mode);
}

/**
 * The field each item of `op`'s result is, when the result may be streamed: a result element whose
 * type is an ASMX-style array, or an unwrapped result element that is repeated or of such a type.
 * The runtime decides the same from the descriptors (`streamShape`):
 * test/emit/stream-shape-agreement.test.ts holds the two together.
 */
export function streamedField(
  plan: Pick<EmitPlan, "arrayItems">,
  op: Operation,
): ElementField | undefined {
  const r = op.result;
  if ((op.attachments?.output.length ?? 0) > 0) return undefined;
  if (r.kind === "object") return arrayItem(plan, r.type);
  if (r.kind !== "unwrapped") return undefined;
  const f = r.field;
  // A wrapper that is a plain array of its one field decodes to the result itself, the field its
  // item (see resultProps in service-descriptors.ts): the item's rules, not the field's, apply.
  if ([...plan.arrayItems.values()].includes(f)) return plainItem(f);
  if (f.substitutes || f.ordered || f.choice || f.fixed !== undefined) return undefined;
  if (f.maxOccurs > 1) return f;
  return f.type.kind === "complex" ? arrayItem(plan, f.type) : undefined;
}

/** The item of `t` when it is an ASMX-style array whose items are written plainly. */
function arrayItem(plan: Pick<EmitPlan, "arrayItems">, t: ComplexType): ElementField | undefined {
  const item = t.encodedArray ? undefined : plan.arrayItems.get(t);
  return item && plainItem(item);
}

const plainItem = (item: ElementField): ElementField | undefined =>
  item.substitutes || item.ordered ? undefined : item;
