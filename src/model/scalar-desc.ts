/**
 * The runtime descriptor of a simple type as the generator emits it (emit/descriptors/
 * scalar-descriptors.ts writes the same as code), for checking its samples at generation time.
 */
import { xs, type ScalarDesc } from "@wsdl-tsgen/runtime";
import type { BuiltinType, SimpleType } from "./model.js";

/**
 * The XSD built-in a type's values are of, when the runtime's `xs` knows it apart from its kind.
 */
export function xsdName(b: BuiltinType): string | undefined {
  const local = b.name.local;
  return local !== b.scalar && XS_STRING_NAMES.has(local) ? local : undefined;
}
const XS_STRING_NAMES: ReadonlySet<string> = new Set(
  Object.entries(xs)
    .filter(([k, d]) => k !== d.s)
    .map(([k]) => k),
);

/** A built-in's descriptor: `xs.int`, `xs.duration`. */
export const builtinDesc = (b: BuiltinType): ScalarDesc =>
  (xs as Record<string, ScalarDesc>)[xsdName(b) ?? b.scalar]!;

/** A simple type's descriptor, with what samples read: its union, facets and XSD built-in. */
export function simpleDesc(t: SimpleType, seen = new Set<SimpleType>()): ScalarDesc {
  const list = t.list ? { list: true } : {};
  // An enumeration's values say it all, as in the emitted descriptor.
  if (t.enumeration.length > 0)
    return { k: "scalar", s: t.base.scalar, ...list, values: t.enumeration };
  let union: ScalarDesc[] | undefined;
  if (t.union && !seen.has(t)) {
    seen.add(t);
    union = t.union.map((m) => (m.kind === "builtin" ? builtinDesc(m) : simpleDesc(m, seen)));
  }
  const xsd = xsdName(t.base);
  return {
    k: "scalar",
    s: t.base.scalar,
    ...list,
    ...(union ? { union } : {}),
    ...(t.facets ? { facets: t.facets } : {}),
    ...(xsd !== undefined ? { xsd } : {}),
  };
}
