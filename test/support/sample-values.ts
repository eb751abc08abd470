/**
 * Sample values for the round-trip property tests, built by walking the runtime descriptors that
 * generated code exports (descriptors.ts): what the wire carries is what they describe.
 *
 * Variant `v` of a value decides, everywhere in the tree at once:
 *   v = 0  optional fields absent, arrays as short as allowed (0 items), optional choices absent
 *   v = 1  optional fields present, arrays of 1 item
 *   v = 2  nillable fields null, arrays of 3 items with a null item where items are nillable
 *   v ≥ 3  present again, arrays of 3 items, other scalar values
 * A choice takes branch `(v + i) % branches` (from the model, which descriptors do not carry), where
 * i is the index of the array item it sits in (else 0): the variants 0..n cover every branch of a
 * choice with n branches, and the 3 items of one array take different ones; `branches` records
 * which were built. A derivation family (a type others extend, told apart by xsi:type) is recorded
 * the same way, its members as the branches.
 * Deep or wide trees fall back to the v = 0 shape past a depth and an element budget, so values stay
 * bounded on services like Bing Ads.
 */
import type { ChoiceRef } from "../../src/model/model.js";
import type {
  ArrayDesc,
  ComplexDesc,
  FieldDesc,
  HttpParamDesc,
  ScalarDesc,
  TypeDesc,
} from "../../runtime/src/index.js";
import { XsdDate, XsdDateTime, XsdTime } from "../../runtime/src/index.js";
import { parseScalar } from "../../runtime/src/scalars/scalars.js";

/** Per complex descriptor: the choice each of its fields belongs to (by index), keyed by declaring type and group. */
export type ChoiceMap = ReadonlyMap<
  ComplexDesc,
  readonly ({ readonly key: string; readonly ref: ChoiceRef } | undefined)[]
>;

export interface BuildOptions {
  readonly variant: number;
  /** Most elements built rich per value; past it, every further field takes the v = 0 shape. */
  readonly budget?: number;
  /** Deepest level built rich. */
  readonly maxDepth?: number;
}

/** A namespace no service uses, for `xs:any` content. */
export const ANY_NS = "urn:wsdl-tsgen:sample-any";

const STRINGS = [
  "A&B <c> 'q' \"dq\" é ü 日本 😀",
  "",
  "  lead and trail\ttab\r\nCRLF\n  ",
  "]]> &amp; literally",
];
const LIST_TOKENS = ["A&B<c>'q'\"dq\"é日本😀", "x", "]]>"];
const SCALARS: Record<ScalarDesc["s"], readonly unknown[]> = {
  string: STRINGS,
  anyType: STRINGS,
  boolean: [true, false],
  int: [2147483647, -2147483648, 0],
  short: [-32768, 32767],
  byte: [-128, 127],
  unsignedInt: [4294967295, 0],
  unsignedShort: [65535, 1],
  unsignedByte: [255, 0],
  long: [9223372036854775807n, -9223372036854775808n, 9007199254740993n],
  unsignedLong: [18446744073709551615n, 9007199254740993n],
  integer: [-123456789012345678901234567890n, 9007199254740993n],
  nonNegativeInteger: [123456789012345678901234567890n, 0n],
  positiveInteger: [9007199254740993n, 1n],
  nonPositiveInteger: [-9007199254740993n, 0n],
  negativeInteger: [-123456789012345678901234567890n, -1n],
  decimal: ["-12345678901234567890.123456789012345678", "0.000000000000000000001", "42"],
  float: [3.25, -0, Infinity, NaN, -0.5],
  double: [1.7976931348623157e308, 5e-324, -Infinity, 0.1, -0, NaN, 1e21, 1e-7],
  dateTime: [
    "2024-02-29T23:59:59.1234567+05:30",
    "1999-12-31T24:00:00Z",
    "-0044-03-15T12:00:00.000-14:00",
    "10000-01-01T00:00:00",
  ].map((s) => new XsdDateTime(s)),
  date: ["2024-02-29", "1999-12-31Z", "-0044-03-15+14:00", "2024-06-01-08:00"].map(
    (s) => new XsdDate(s),
  ),
  time: ["23:59:59.9999999Z", "00:00:00+14:00", "12:30:00.5"].map((s) => new XsdTime(s)),
  base64Binary: [
    new Uint8Array([0, 1, 2, 253, 254, 255]),
    new Uint8Array([]),
    new Uint8Array([62, 63]),
  ],
  hexBinary: [new Uint8Array([0, 171, 205, 255]), new Uint8Array([])],
};

/**
 * A scalar value of descriptor `d`: entry `i` of its kind's pool (or of its enumeration), or for a
 * list, 0/1/3 such items by variant `v`.
 */
export function scalarValue(d: ScalarDesc, v: number, i = v): unknown {
  const one = (i: number): unknown => {
    if (d.values && d.values.length > 0) return parseEnum(d, d.values[i % d.values.length]!);
    const pool = SCALARS[d.s];
    return pool[i % pool.length];
  };
  // List items are whitespace-separated tokens: string items hold no whitespace (and are not empty).
  if (d.list)
    return Array.from({ length: arrayLength(v, 0, Infinity) }, (_, k) =>
      d.s === "string" && !d.values ? LIST_TOKENS[(i + k) % LIST_TOKENS.length] : one(i + k),
    );
  return one(i);
}

/** Enumerations of non-string kinds hold lexical values; the typed value is the parsed one. */
function parseEnum(d: ScalarDesc, lexical: string): unknown {
  switch (d.s) {
    case "string":
    case "anyType":
      return lexical;
    case "boolean":
      return lexical === "true" || lexical === "1";
    case "decimal":
      return lexical;
    case "dateTime":
      return new XsdDateTime(lexical);
    case "date":
      return new XsdDate(lexical);
    case "time":
      return new XsdTime(lexical);
    case "float":
    case "double":
    case "int":
    case "short":
    case "byte":
    case "unsignedInt":
    case "unsignedShort":
    case "unsignedByte":
      return Number(lexical);
    case "base64Binary":
      return new Uint8Array(Buffer.from(lexical, "base64"));
    case "hexBinary":
      return new Uint8Array(Buffer.from(lexical, "hex"));
    default:
      return BigInt(lexical);
  }
}

function arrayLength(v: number, min: number, max: number): number {
  const want = v === 0 ? 0 : v === 1 ? 1 : 3;
  return Math.min(max, Math.max(min, want));
}

/** Builds the sample values of one variant; records the choice branches (and family members) it built. */
export class SampleBuilder {
  /** `key#branch` of every choice branch built. */
  readonly branches = new Set<string>();
  /** `key` → number of branches, for every choice met. */
  readonly choices = new Map<string, number>();
  /** The most branches of any choice met: build variants 0..maxBranches to cover them all. */
  maxBranches = 0;
  private elements = 0;
  /** How often each derivation family was met in this value. */
  private readonly familyTurns = new Map<string, number>();
  /** Successive scalars take successive pool entries, so every entry is sent. */
  private nextScalar = 0;

  constructor(
    private readonly choiceMap: ChoiceMap,
    private readonly options: BuildOptions,
  ) {}

  private get v(): number {
    return this.options.variant;
  }

  /** The value of field `f` (undefined when left out). */
  field(f: FieldDesc, depth = 0, rich = true): unknown {
    const v = rich ? this.v : 0;
    if (f.max > 1) {
      const n = arrayLength(v, f.min, f.max);
      return Array.from({ length: n }, (_, i) =>
        f.nillable && v === 2 && i === 1 ? null : this.element(f, depth + 1, rich, i),
      );
    }
    if (f.min === 0 && v === 0) return undefined;
    if (f.nillable && v === 2) return null;
    // A fixed value is the only one the writer accepts.
    if (f.fixed !== undefined && f.type.k === "scalar") return parseScalar(f.type.s, f.fixed);
    const value = this.element(f, depth + 1, rich);
    // An empty element of a field with a default stands for the default: "" cannot travel there.
    return value === "" && f.default !== undefined && f.type.k === "scalar"
      ? parseScalar(f.type.s, f.default)
      : value;
  }

  /**
   * The value of one element of field `f`: the head of a substitution group rotates, like a family,
   * through itself (unless abstract) and the members whose values can say which they are
   * (`$element` on an object).
   */
  private element(f: FieldDesc, depth: number, rich: boolean, salt = 0): unknown {
    const members = (f.substitutes ?? []).filter((m) => m.type.k === "complex");
    if (members.length === 0) return this.type(f.type, depth, rich, salt);
    const all = [...(f.abstract ? [] : [f]), ...members];
    const key = `substitutes {${f.ns}}${f.name}`;
    const turn = this.familyTurns.get(key) ?? 0;
    this.familyTurns.set(key, turn + 1);
    const n = all.length;
    const index = (this.v + Math.floor(this.v / n) + salt + turn) % n;
    this.choices.set(key, n);
    this.maxBranches = Math.max(this.maxBranches, n);
    this.branches.add(`${key}#${index}`);
    const chosen = all[index]!;
    const value = this.type(chosen.type, depth, rich, salt);
    return chosen === f ? value : { $element: chosen.name, ...(value as object) };
  }

  /** `salt` (an array item's index) shifts choice branches, so the items of one array take different branches. */
  type(t: TypeDesc, depth: number, rich: boolean, salt = 0): unknown {
    this.elements++;
    if (depth > 200)
      throw new Error(`sample value of ${"name" in t ? t.name : t.s} nests deeper than 200 levels`);
    const stillRich =
      rich &&
      depth <= (this.options.maxDepth ?? 8) &&
      this.elements <= (this.options.budget ?? 2000);
    if (t.k === "scalar") return scalarValue(t, stillRich ? this.v : 0, this.v + this.nextScalar++);
    if (t.k === "array") return this.array(t, depth, stillRich);
    return this.complex(t, depth, stillRich, salt);
  }

  private array(t: ArrayDesc, depth: number, rich: boolean): unknown[] {
    const v = rich ? this.v : 0;
    const n = arrayLength(v, t.item.min, t.item.max);
    return Array.from({ length: n }, (_, i) =>
      t.item.nillable && v === 2 && i === 1 ? null : this.type(t.item.type, depth + 1, rich, i),
    );
  }

  /**
   * The items of an ordered list (`FieldDesc.tag`): as many occurrences of its content as an array
   * of the variant has items, each occurrence the list's elements outside its choice and those of
   * one branch of it, the branch rotating with the variant and the occurrence (so the items are
   * valid by the schema, and every branch is met over the variants).
   */
  private list(t: ComplexDesc, prop: string, depth: number, rich: boolean): unknown[] {
    const v = rich ? this.v : 0;
    const refs = this.choiceMap.get(t);
    const members = t.fields.flatMap((f, i) =>
      f.tag !== undefined && f.prop === prop ? [{ f, c: refs?.[i] }] : [],
    );
    const key = members.find((m) => m.c)?.c?.key;
    const branches = [...new Set(members.flatMap((m) => (m.c ? [m.c.ref.branch] : [])))].sort(
      (x, y) => x - y,
    );
    const items: unknown[] = [];
    for (let j = 0; j < arrayLength(v, members[0]!.f.min, Infinity); j++) {
      const at = branches.length > 0 ? (this.v + j) % branches.length : undefined;
      if (key !== undefined && at !== undefined) {
        this.choices.set(key, branches.length);
        this.maxBranches = Math.max(this.maxBranches, branches.length);
        this.branches.add(`${key}#${at}`);
      }
      for (const { f, c } of members) {
        if (c !== undefined && c.ref.branch !== branches[at ?? -1]) continue;
        const value = f.nillable && v === 2 && j === 1 ? null : this.element(f, depth + 1, rich, j);
        items.push({ $choice: f.tag, value });
      }
    }
    return items;
  }

  private complex(
    declared: ComplexDesc,
    depth: number,
    rich: boolean,
    salt: number,
  ): Record<string, unknown> {
    const v = rich ? this.v : 0;
    const out: Record<string, unknown> = {};
    // A derivation family: the declared type or one derived from it, rotating with the variant.
    let t = declared;
    if (declared.family) {
      const members = [...(declared.family.abstract ? [] : [declared]), ...declared.family.derived];
      // Recorded as a choice among the members, so that the variants cover every one of them. Each
      // further meeting of the family in one value turns to the next member, and every n variants
      // shift by one more, so that a family met only inside one member of another (itself chosen
      // by the variant) still meets all its members.
      const key = `family {${declared.family.ns}}${declared.name}`;
      const turn = this.familyTurns.get(key) ?? 0;
      this.familyTurns.set(key, turn + 1);
      const n = members.length;
      const index = (this.v + Math.floor(this.v / n) + salt + turn) % n;
      t = members[index] ?? declared;
      out["$type"] = t.family!.tag;
      this.choices.set(key, n);
      this.maxBranches = Math.max(this.maxBranches, n);
      this.branches.add(`${key}#${index}`);
    }
    for (const a of t.attrs) {
      if (!a.required && v === 0) continue;
      out[a.prop] =
        a.fixed !== undefined
          ? parseScalar(a.type.s, a.fixed)
          : scalarValue(a.type, v, this.v + this.nextScalar++);
    }
    if (t.text) out["$value"] = scalarValue(t.text, Math.max(v, 1), this.v + this.nextScalar++);
    const refs = this.choiceMap.get(t);
    const chosen = new Map<string, number | undefined>();
    t.fields.forEach((f, i) => {
      // An ordered list (a repeated choice): all its items at its first element.
      if (f.tag !== undefined) {
        if (!(f.prop in out)) out[f.prop] = this.list(t, f.prop, depth, rich);
        return;
      }
      const c = refs?.[i];
      if (c && !c.ref.repeated) {
        if (!chosen.has(c.key)) {
          const n = new Set(refs!.filter((r) => r?.key === c.key).map((r) => r!.ref.branch)).size;
          this.choices.set(c.key, n);
          this.maxBranches = Math.max(this.maxBranches, n);
          // Past the budget (v = 0 shape) a required choice still rotates its branch with the variant,
          // so that branches met only deep in a tree are covered too; unless that branch may be empty
          // (its elements all optional): then it is left empty, so that a recursion through a choice
          // (Expression holds an Expression or Constraints) ends.
          let branch = c.ref.optional && v === 0 ? undefined : (this.v + salt) % n;
          if (branch !== undefined && !rich) {
            const index = [
              ...new Set(refs!.filter((r) => r?.key === c.key).map((r) => r!.ref.branch)),
            ].sort((x, y) => x - y)[branch];
            if (
              t.fields.every(
                (g, j) => refs![j]?.key !== c.key || refs![j]!.ref.branch !== index || g.min === 0,
              )
            )
              branch = undefined;
          }
          chosen.set(c.key, branch);
          if (branch !== undefined) this.branches.add(`${c.key}#${branch}`);
        }
        const branch = chosen.get(c.key);
        const branchIndex = [
          ...new Set(refs!.filter((r) => r?.key === c.key).map((r) => r!.ref.branch)),
        ].sort((x, y) => x - y)[branch ?? -1];
        if (branch === undefined || c.ref.branch !== branchIndex) return;
        // Every field of the chosen branch is present (with at least one item), so the branch is on the wire.
        const value =
          f.max > 1
            ? Array.from({ length: Math.max(1, arrayLength(v, f.min, f.max)) }, (_, i) =>
                this.element(f, depth + 1, rich, i),
              )
            : this.element(f, depth + 1, rich);
        out[f.prop] = value;
        return;
      }
      const value = this.field(f, depth, rich);
      if (value !== undefined) out[f.prop] = value;
    });
    if (t.any && v > 0) {
      out["$any"] = [
        {
          ns: ANY_NS,
          local: "Extra",
          attrs: { a: "1 & 2", [`{${ANY_NS}}b`]: '"q"' },
          children: ["text <&> é", { ns: ANY_NS, local: "Inner", attrs: {}, children: [] }],
        },
      ];
    }
    if (t.anyAttrs && v > 0) out["$attributes"] = { [`{${ANY_NS}}extra`]: 'x & "y" <z>' };
    return out;
  }
}

/** The input of an HTTP GET/POST operation: one value per parameter (strings always present: see the test). */
export function httpInput(params: readonly HttpParamDesc[], v: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let next = v;
  for (const p of params) {
    if (p.repeated)
      out[p.prop] = Array.from({ length: arrayLength(v, 0, Infinity) }, () =>
        scalarValue(p.type, v, next++),
      );
    else if (p.required || p.type.s === "string" || v > 0)
      out[p.prop] = scalarValue(p.type, v, next++);
  }
  return out;
}

/** Values compared by what they mean on the wire: temporal values by their lexical form, bytes as arrays. */
export function normalise(o: unknown): unknown {
  if (o instanceof XsdDateTime || o instanceof XsdDate || o instanceof XsdTime)
    return `${o.constructor.name}(${o.lexical})`;
  if (o instanceof Uint8Array) return { bytes: [...o] };
  if (Array.isArray(o)) return o.map(normalise);
  if (o && typeof o === "object") {
    return Object.fromEntries(
      Object.entries(o)
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => [k, normalise(x)]),
    );
  }
  return o;
}

/** The first place where two normalised values differ, as `path: got … expected …`; undefined when equal. */
export function firstDifference(got: unknown, want: unknown, path = "$"): string | undefined {
  const show = (x: unknown) =>
    typeof x === "bigint"
      ? `${x}n`
      : JSON.stringify(x, (_k, y: unknown) => (typeof y === "bigint" ? `${y}n` : y))?.slice(0, 160);
  if (Object.is(got, want)) return undefined;
  if (Array.isArray(got) && Array.isArray(want)) {
    if (got.length !== want.length)
      return `${path}: ${got.length} items, expected ${want.length}: got ${show(got)}, expected ${show(want)}`;
    for (let i = 0; i < got.length; i++) {
      const d = firstDifference(got[i], want[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (
    got &&
    want &&
    typeof got === "object" &&
    typeof want === "object" &&
    !Array.isArray(got) &&
    !Array.isArray(want)
  ) {
    const keys = [...new Set([...Object.keys(got), ...Object.keys(want)])];
    for (const k of keys) {
      const d = firstDifference(
        (got as Record<string, unknown>)[k],
        (want as Record<string, unknown>)[k],
        `${path}.${k}`,
      );
      if (d) return d;
    }
    return undefined;
  }
  return `${path}: got ${show(got)}, expected ${show(want)}`;
}
