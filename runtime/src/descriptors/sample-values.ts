/**
 * Sample values of a service's messages, built from the descriptors: the help pages write them as
 * sample messages (help/samples.ts), and `sampleInput` and `sampleOutput` give them to mocks and
 * tests. One builder for both, so a help page shows the message a mock sends. Each scalar holds a
 * stand-in value that is valid for its type and tells its type (and whether it is optional)
 * apart; of a choice, a sample holds the first branch (`FieldDesc.branch`), so that it is valid
 * against the schema. Samples are value forms, as a client's call resolves and a server's method
 * receives them, so that a sample sent and read back compares equal to itself.
 */
import type { AnyServiceDesc, MethodOf, OperationOf } from "./contract.js";
import { xs } from "./builders.js";
import {
  type BodyDesc,
  type ComplexDesc,
  type FieldDesc,
  type ScalarDesc,
  type TypeDesc,
} from "./types.js";
import type { HttpOperationDesc, OperationDesc, ServiceDesc } from "./operations.js";
import { parseScalar, type ScalarKind } from "../scalars/scalars.js";
import { always0, lexicalType, scalarText } from "./scalar-sample.js";
import type { Choose } from "./xsd-regex.js";

/** How samples are built: `seed` varies them (enumerations, unions, patterns); absent, fixed. */
export interface SampleOptions {
  readonly seed?: number;
}

/**
 * What a sample's build carries down its tree: how it picks among valid values, and the place of
 * the item it is in among a repeated element's (its scalars vary by it, so that items differ).
 */
interface Cx {
  readonly choose: Choose;
  readonly index: number;
  /** The xs:ID values given so far in this message: an ID must be unique in its document. */
  readonly ids?: { next: number };
}

/** A seeded source of choices (mulberry32): the same seed, the same sample. */
function seeded(seed: number): Choose {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return Math.floor(r * n);
  };
}

const cxOf = (o: SampleOptions | undefined): Cx => ({
  choose: o?.seed === undefined ? always0 : seeded(o.seed),
  index: 0,
  ids: { next: 0 },
});
const DEFAULT_CX: Cx = { choose: always0, index: 0 };
/** The context of the `i`th item of a repeated element (the first keeps its parent's). */
const nth = (cx: Cx, i: number): Cx => (i === 0 ? cx : { ...cx, index: cx.index + i });

/** How deep a sample goes before it leaves optional content out (recursive types end there). */
const MAX_DEPTH = 6;
/** How deep it goes at all: a required recursion ends here, and such a sample may be incomplete. */
const HARD_DEPTH = 12;

/** Every scalar kind, from the built-in descriptors. */
const KINDS = [...new Set(Object.values(xs).map((d) => d.s))];

/**
 * The lexical stand-in of a kind, required (`opt` false) or optional: `code` keeps them all
 * distinct.
 */
function standInText(kind: ScalarKind, opt: boolean, code: number): string {
  const day = opt ? "02" : "01";
  switch (kind) {
    case "string":
    case "anyType":
      return opt ? `${kind} (optional)` : kind;
    case "boolean":
      return opt ? "false" : "true";
    case "decimal":
      return `${code}.5`;
    case "float":
    case "double":
      return `${code}.25`;
    case "dateTime":
      return `2001-01-${day}T00:00:00`;
    case "date":
      return `2001-01-${day}`;
    case "time":
      return `${day}:00:00`;
    case "base64Binary":
      return opt ? "Ag==" : "AQ==";
    case "hexBinary":
      return opt ? "02" : "01";
    case "nonPositiveInteger":
    case "negativeInteger":
      return `-${code}`;
    default:
      return String(code);
  }
}

/** What a stand-in text stands for, by its text. */
export interface StandIn {
  readonly kind: ScalarKind;
  readonly optional: boolean;
}

/** Every stand-in, by its lexical form (as written, and as it appears in a written sample). */
export const STAND_INS: ReadonlyMap<string, StandIn> = new Map(
  KINDS.flatMap((kind, i) =>
    [false, true].map(
      (optional) =>
        [standInText(kind, optional, 2 * i + (optional ? 2 : 1)), { kind, optional }] as const,
    ),
  ),
);
const standInOf = new Map([...STAND_INS].map(([text, s]) => [`${s.kind}/${s.optional}`, text]));
const plainOf = (kind: ScalarKind, optional: boolean): string =>
  standInOf.get(`${kind}/${optional}`) ?? "";

/**
 * The typed sample of a scalar type, parsed anew so that no two places share an object: a value
 * meeting its facets (scalar-sample.ts), two for a list, else the kind's plain stand-in (the
 * generator has said that no value meets them).
 */
function scalarSample(d: ScalarDesc, optional: boolean, cx: Cx = DEFAULT_CX): unknown {
  const one = () => {
    // Each xs:ID of a message its own value (ID, ID2, …), wherever in the tree it stands.
    const text =
      cx.ids && lexicalType(d) === "ID"
        ? scalarText(d, plainOf, false, cx.choose, cx.ids.next++)
        : scalarText(d, plainOf, optional, cx.choose, cx.index);
    return parseScalar(d.s, typeof text === "string" ? text : plainOf(d.s, optional));
  };
  return d.list ? [one(), one()] : one();
}

/**
 * A sample value of a type (undefined when none can be made, e.g. an abstract type without
 * members).
 */
function sampleOf(type: TypeDesc, optional: boolean, cx: Cx, depth = 0): unknown {
  if (type.k === "scalar") return scalarSample(type, optional, cx);
  if (type.k === "array") {
    const one = occurrenceSample(type.item, depth + 1, cx);
    return one === undefined ? [] : repeat(one, type.item, depth + 1, cx);
  }
  return complexSample(type, depth, cx);
}

function complexSample(
  type: ComplexDesc,
  depth: number,
  cx: Cx,
): Record<string, unknown> | undefined {
  let c = type;
  if (type.family?.abstract) {
    // Family.derived lists concrete types only.
    const concrete = type.family.derived[0];
    if (!concrete) return undefined;
    c = concrete;
  }
  // A family's value names its type, as it is read; its own type is written without xsi:type.
  const tag = c.family?.tag;
  const obj: Record<string, unknown> = tag === undefined ? {} : { $type: tag };
  for (const a of c.attrs) {
    // A fixed attribute is written only where required, and then read back: the same here.
    if (a.fixed === undefined) obj[a.prop] = scalarSample(a.type, !a.required, cx);
    else if (a.required) obj[a.prop] = parseScalar(a.type.s, a.fixed);
  }
  if (c.text) obj["$value"] = scalarSample(c.text, false, cx);
  // A wildcard that must be filled gets an empty element: a declared one where the generator
  // found one (a strict wildcard admits no other), else one no schema declares (read laxly).
  if (c.anyRequired !== undefined) {
    const local = c.anyElement ?? "sample";
    obj["$any"] = [{ ns: c.anyRequired, local, attrs: {}, children: [] }];
  }
  const lists = new Set<string>();
  for (const f of c.fields) {
    // A valid value holds one branch of a choice: a sample, the first.
    if (otherBranch(f)) continue;
    if (f.tag !== undefined) {
      if (lists.has(f.prop)) continue;
      lists.add(f.prop);
      const members = c.fields.filter((m) => m.tag !== undefined && m.prop === f.prop);
      obj[f.prop] = listSample(members, depth + 1, cx);
      continue;
    }
    const v = fieldSample(f, depth + 1, cx);
    if (v !== undefined) obj[f.prop] = v;
  }
  return obj;
}

/** A field of a choice's branch other than the first, which a sample leaves out. */
const otherBranch = (f: FieldDesc): boolean => f.branch !== undefined && f.branch > 0;

/**
 * The items of an ordered list (`FieldDesc.tag`) whose elements are `members`: two occurrences of
 * its content, each an item per element of the first branch of any choice in it, in schema order
 * (`Message`, `Message`; `ChangeKey`, `Created`, `ChangeKey`, `Created`).
 */
function listSample(members: readonly FieldDesc[], depth: number, cx: Cx): unknown[] {
  const items: unknown[] = [];
  for (let n = 0; n < 2; n++)
    for (const m of members) {
      if (otherBranch(m)) continue;
      const value = occurrenceSample(m, depth, nth(cx, n));
      if (value !== undefined) items.push({ $choice: m.tag, value });
    }
  return items;
}

/**
 * The property value of a field (not of an ordered list's elements: `listSample`): two items when
 * it repeats, or as many as `minOccurs` asks; left out, undefined, or `[]` as the reader gives it.
 */
export function fieldSample(f: FieldDesc, depth: number, cx: Cx = DEFAULT_CX): unknown {
  const one = occurrenceSample(f, depth, cx);
  if (f.max <= 1) return one;
  if (one === undefined) return f.min === 0 && !f.choice ? [] : undefined;
  return repeat(one, f, depth, cx);
}

/** `one` and further occurrences of `f`: two, or as many as its minOccurs asks. */
function repeat(one: unknown, f: FieldDesc, depth: number, cx: Cx): unknown[] {
  const count = Math.max(1, Math.min(f.max, Math.max(2, f.min)));
  const items: unknown[] = [one];
  while (items.length < count) items.push(occurrenceSample(f, depth, nth(cx, items.length)));
  return items;
}

/**
 * One occurrence of a field's element; undefined when it is left out. A required one that cannot
 * be built (a recursion cut off, an abstract type without members) is nil where it may be.
 */
function occurrenceSample(f: FieldDesc, depth: number, cx: Cx): unknown {
  const v = builtOccurrence(f, depth, cx);
  return v === undefined && f.min > 0 && f.nillable ? null : v;
}

function builtOccurrence(f: FieldDesc, depth: number, cx: Cx): unknown {
  // A fixed value is written where required even when left out, and read back: so it is given.
  if (f.fixed !== undefined)
    return f.min > 0 && f.type.k === "scalar" ? parseScalar(f.type.s, f.fixed) : undefined;
  if (depth > (f.min === 0 ? MAX_DEPTH : HARD_DEPTH)) return undefined;
  if (!f.abstract) return sampleOf(f.type, f.min === 0, cx, depth);
  const member = (f.substitutes ?? []).find((m) => m.type.k === "complex");
  const v = member && sampleOf(member.type, f.min === 0, cx, depth);
  return v === undefined ? undefined : { ...(v as object), $element: member!.name };
}

/** The sample of an element field's own value (not the property: one occurrence). */
export function elementSample(f: FieldDesc, options?: SampleOptions): unknown {
  return sampleOf(f.type, false, cxOf(options)) ?? {};
}

/**
 * The value a message body's element is written from: the element's value, or for a multi-part
 * body one value per part.
 */
export function bodySample(b: BodyDesc, options?: SampleOptions): unknown {
  if (!b.parts) return elementSample(b.element, options);
  const cx = cxOf(options);
  return Object.fromEntries(b.parts.fields.map((f) => [f.prop, fieldSample(f, 0, cx)]));
}

/** The typed input of an HTTP operation whose parameters all hold their samples. */
export function httpInputSample(
  op: HttpOperationDesc,
  options?: SampleOptions,
): Record<string, unknown> {
  const cx = cxOf(options);
  return Object.fromEntries(
    op.params.map((p) => {
      const v = () => scalarSample(p.type, !p.required, cx);
      return [p.prop, p.repeated ? [v(), v()] : v()];
    }),
  );
}

/**
 * The operation a method stands for, on the first port that has it, SOAP ports first (their
 * messages are typed in full; an HTTP port's are parameters the SOAP operation's fields type).
 */
function operationOf(service: ServiceDesc, method: string): OperationDesc {
  const name = Object.hasOwn(service.methods, method) ? service.methods[method] : undefined;
  if (name === undefined) throw new Error(`The service ${service.name} has no method '${method}'.`);
  const ports = Object.values(service.ports);
  const soap = (p: (typeof ports)[number]) => p.protocol === "soap11" || p.protocol === "soap12";
  for (const p of [...ports.filter(soap), ...ports.filter((p) => !soap(p))]) {
    const op = p.operations[name];
    if (op) return op;
  }
  throw new Error(`No port of the service ${service.name} has the operation ${name}.`);
}

/** The typed value of a response body: none for a void result, the result's own when unwrapped. */
function resultSample(b: BodyDesc | undefined, options?: SampleOptions): unknown {
  if (!b || b.void) return undefined;
  const value = bodySample(b, options);
  return b.prop === undefined ? value : (value as Record<string, unknown>)[b.prop];
}

/**
 * A sample of what a client sends to the operation `method` stands for (`Op["input"]`): every
 * field given a value that is valid for its type and facets, the same on every call (unless
 * `options.seed` varies it: the same seed, the same sample), a new object each time. For mocks and
 * tests: `client.getMessages(sampleInput(ApiDesc, "getMessages"))`.
 */
export function sampleInput<S extends AnyServiceDesc, M extends MethodOf<S>>(
  service: S,
  method: M,
  options?: SampleOptions,
): OperationOf<S, M>["input"] {
  const op = operationOf(service, method);
  if (op.kind === "http") return httpInputSample(op, options);
  if (!op.request) return undefined;
  const value = bodySample(op.request, options);
  return op.request.prop === undefined ? value : { [op.request.prop]: value };
}

/**
 * A sample of what an implementation of the operation `method` stands for returns
 * (`Op["serverOutput"]`), built as `sampleInput` is: undefined for a `void` result or a one-way
 * operation. A client's call answered with it resolves to a value equal to it (`toEqual`).
 */
export function sampleOutput<S extends AnyServiceDesc, M extends MethodOf<S>>(
  service: S,
  method: M,
  options?: SampleOptions,
): OperationOf<S, M>["serverOutput"] {
  const op = operationOf(service, method);
  if (op.kind === "soap" && op.oneWay) return undefined;
  return resultSample(op.response, options);
}
