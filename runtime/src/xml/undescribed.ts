/**
 * Elements a response holds that its schema does not describe at their place, kept as raw XML on
 * the object (or array) they were found in, so that nothing a peer sends vanishes unseen. They sit
 * under a non-enumerable symbol: invisible to JSON, spreads and equality, reachable here.
 */
import type { XmlNode } from "../support/xml-node.js";

const KEPT = Symbol.for("wsdl-tsgen.undescribed");

/** Keeps `node` on `holder`, after any kept before it. */
export function keepUndescribed(holder: object, node: XmlNode): void {
  const kept = (holder as { [KEPT]?: XmlNode[] })[KEPT];
  if (kept) kept.push(node);
  else Object.defineProperty(holder, KEPT, { value: [node], enumerable: false });
}

/**
 * The elements the client read inside `value` (a decoded object or array) that its schema does not
 * describe there, or a second occurrence of a single element, in document order; [] if none.
 */
export function undescribedOf(value: unknown): readonly XmlNode[] {
  if (typeof value !== "object" || value === null) return [];
  return (value as { [KEPT]?: XmlNode[] })[KEPT] ?? [];
}
