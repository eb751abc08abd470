/** The header and fault lists of SOAP operations, which descriptors.ts shares between them. */
import type { BindingOperation, ElementDecl } from "../model/model.js";
import { ifSoap } from "../model/protocols.js";
import { qnameKey } from "../parse/qname.js";

/** What a list holds. */
export type ListKind = "Headers" | "ResponseHeaders" | "Faults";

/** A list's identity: its kind, then the qualified names of its elements. */
export const listKey = (kind: ListKind, elements: readonly ElementDecl[]): string =>
  `${kind} ${elements.map((e) => qnameKey(e.name)).join(" ")}`;

/** The keys of the non-empty lists a SOAP binding operation declares. */
export function operationLists(op: BindingOperation): string[] {
  const bop = ifSoap(op);
  if (!bop) return [];
  const keys: string[] = [];
  if (bop.inputHeaders.length > 0) keys.push(listKey("Headers", bop.inputHeaders));
  if (bop.outputHeaders.length > 0) keys.push(listKey("ResponseHeaders", bop.outputHeaders));
  const faults = bop.faults.map((f) => f.element);
  if (faults.length > 0) keys.push(listKey("Faults", faults));
  return keys;
}
