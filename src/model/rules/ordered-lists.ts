/**
 * Ordered lists: a repeated `xs:choice`, or a repeated sequence or group holding one, becomes one
 * list of items in document order (`OrderedList`), each saying which element it is. As arrays per
 * element, `Message A, CalendarItem B, Message C` read as `{ Message: [A, C], CalendarItem: [B] }`,
 * which loses an order that carries meaning (issue #32; zeep keeps it in `_value_1`, svcutil in
 * `Items` with `ItemsElementName`), and made every branch a required array. The list opens at the
 * outermost repeated particle that holds a choice; the particles inside it, repeated or not, join
 * it. A list of one element stays an array, whose order is the list's; a repeated sequence without
 * a choice keeps an array per element, as before. Called by content flattening (flatten.ts) for
 * each particle, while a type is mapped.
 */
import type { SourceLocation } from "../../diagnostics.js";
import type { ElementField, OrderedList } from "../model.js";

/**
 * Whether a particle repeated `maxOccurs` times may open a list: it repeats, and no particle
 * around it has opened one (`inList`).
 */
export const mayOpenList = (maxOccurs: number, inList: boolean): boolean =>
  !inList && maxOccurs > 1;

/**
 * The fields of a particle that may open a list (`mayOpenList`), made one when it holds a choice
 * (`holdsChoice`: it is one, or one is inside it) and more than one element. `optional`: the list
 * may be empty.
 */
export function orderedFields(
  fields: readonly ElementField[],
  holdsChoice: boolean,
  optional: boolean,
  loc: SourceLocation,
): ElementField[] {
  if (!holdsChoice || fields.length < 2) return [...fields];
  const list: OrderedList = { kind: "orderedList", optional, loc };
  return fields.map((f) => ({ ...f, ordered: list }));
}
