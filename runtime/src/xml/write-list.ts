/**
 * The writer of an ordered list (`FieldDesc.tag`: a repeated xs:choice, or a repeated sequence
 * holding one): its items `{ $choice, value }` written in array order, each as the element its
 * `$choice` names. writer.ts gives it each element's occurrence writer.
 */
import type { FieldDesc } from "../descriptors/types.js";
import {
  checkCount,
  misfit,
  within,
  type ElementWriter,
  type FieldWriter,
} from "./write-scalars.js";

/**
 * The writer of the list whose elements are `members` (in schema order; they share one `prop`),
 * `occurrence` writing one occurrence of an element (null as nil where it is nillable).
 */
export function listWriter(
  members: readonly FieldDesc[],
  occurrence: (f: FieldDesc) => ElementWriter,
): FieldWriter {
  const byTag = new Map(members.map((m) => [m.tag!, occurrence(m)] as const));
  const { min, prop } = members[0]!;
  const tags = () => members.map((m) => `'${m.tag}'`).join(", ");
  const item = (v: unknown): string => {
    const tag =
      typeof v === "object" && v !== null ? (v as { $choice?: unknown }).$choice : undefined;
    const write = typeof tag === "string" ? byTag.get(tag) : undefined;
    if (write === undefined)
      misfit((p) =>
        tag === undefined
          ? `${p} must be an item { $choice, value }, $choice one of ${tags()}`
          : `${p}.$choice '${String(tag)}' is not one of ${tags()}`,
      );
    const value = (v as { value?: unknown }).value;
    if (value === undefined) misfit((p) => `${p}.value is missing (the ${tag} element's value)`);
    try {
      return write(value);
    } catch (e) {
      return within("value", e);
    }
  };
  return repeated(item, min, Infinity, prop);
}

/**
 * The writer of a repeated field (or list) named `prop`: `one` for each item of its array, the
 * count checked against `min` and `max`; absent or null stands for no items.
 */
export function repeated(
  one: (v: unknown) => string,
  min: number,
  max: number,
  prop: string,
): FieldWriter {
  return (value) => {
    try {
      if (value === undefined || value === null) {
        if (min > 0)
          misfit((p) => `${p} is required (at least ${min} item${min === 1 ? "" : "s"})`);
        return "";
      }
      if (!Array.isArray(value)) misfit((p) => `${p} must be an array`);
      checkCount(value.length, min, max);
      let s = "";
      for (let i = 0; i < value.length; i++) {
        try {
          s += one(value[i]);
        } catch (e) {
          within(`[${i}]`, e);
        }
      }
      return s;
    } catch (e) {
      return within(prop, e);
    }
  };
}
