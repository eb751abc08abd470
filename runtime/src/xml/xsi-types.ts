/**
 * `xsi:type` for values of a derivation family: the attribute naming a member, and the mode that
 * writes it on every value of a type others extend (`xsiType: "always"`).
 */
import type { ComplexDesc } from "../descriptors/types.js";
import { escapeAttr } from "./escape.js";

/** The `xsi:type` attribute naming a family member (with its namespace's declaration). */
export function xsiTypeOf(member: ComplexDesc): string {
  const mns = member.family!.ns;
  return mns === ""
    ? ` xsi:type="${escapeAttr(member.name)}"`
    : ` xmlns:t="${escapeAttr(mns)}" xsi:type="t:${escapeAttr(member.name)}"`;
}

/**
 * Whether values of types that others extend get `xsi:type` even when of the declared type, as
 * Salesforce's servers write them (zeep reads nested polymorphic values only so). Set only for the
 * duration of one synchronous write by `withXsiTypes`.
 */
let xsiTypeAlways = false;

/** Whether `withXsiTypes(true, …)` is running. */
export const xsiTypesAlways = (): boolean => xsiTypeAlways;

/** Runs `write` with `xsi:type` on every value of a type others extend when `always` is set. */
export function withXsiTypes<T>(always: boolean, write: () => T): T {
  if (!always) return write();
  const before = xsiTypeAlways;
  xsiTypeAlways = true;
  try {
    return write();
  } finally {
    xsiTypeAlways = before;
  }
}
