/**
 * What every emitter is given (EmitContext) and the helpers they share: the runtime's symbols,
 * taken only from the table in runtime-symbols.ts, and the documentation switch.
 */
import type { EmitPlan } from "../transform/plan.js";
import { symbol, type GeneratedFile } from "./generated-file.js";
import {
  type RuntimeFieldOptions,
  type RuntimeType,
  type RuntimeValue,
} from "./runtime-symbols.js";

export interface EmitContext {
  readonly plan: EmitPlan;
  readonly file: GeneratedFile;
  /** Module specifier of the runtime, e.g. `@wsdl-tsgen/runtime`. */
  readonly runtime: string;
  /** Module specifier of types.ts from this file, or undefined inside types.ts itself. */
  readonly typesModule: string | undefined;
  /** Copy the WSDL's and schemas' documentation into JSDoc comments (`docs` option). */
  readonly docs: boolean;
  /** A `const` object of each enumeration's values beside its union type (`enumConstants`). */
  readonly enumConstants?: boolean;
  /**
   * In descriptors.ts, the namespace of its own `field` (`const field = fieldsIn(NS)`), which the
   * fields in it leave unsaid; undefined: the runtime's `field`, every namespace stated.
   */
  readonly fieldNs?: string | undefined;
  /**
   * The runtime's name for the options its own `field` gives a field that states none
   * (`fieldsIn(NS, OPTIONAL_NILLABLE)`); undefined: none (a required element).
   */
  readonly fieldOptions?: RuntimeFieldOptions | undefined;
}

/**
 * A runtime value (function, constant or class) used as a value: imported, and the name to write.
 * A class is imported as a value here, so `rt(ctx, "SoapFault")` can be extended.
 */
export const rt = (ctx: EmitContext, name: RuntimeValue): string =>
  ctx.file.use(symbol(name, ctx.runtime));

/**
 * A runtime type (or a class in a type position): imported with `import type` unless used as a
 * value too.
 */
export const rtType = (ctx: EmitContext, name: RuntimeType): string =>
  ctx.file.use(symbol(name, ctx.runtime, true));

/** The namespace argument: a const for a known namespace, "" when unqualified. */
export function nsRef(ctx: EmitContext, ns: string): string {
  if (ns === "") return '""';
  return ctx.plan.namespaces.get(ns) ?? JSON.stringify(ns);
}

/** The WSDL's or a schema's documentation text, unless the `docs` option is off. */
export function sourceDoc(
  ctx: { readonly docs: boolean },
  text: string | undefined,
): string | undefined {
  return ctx.docs ? text : undefined;
}
