/**
 * Which results may be streamed (issue #47), both ways: an implementation may return an iterable
 * for one (server/stream.ts), and a client may read one item by item (client/stream.ts).
 */
import type { BodyDesc, FieldDesc } from "./types.js";

/** Where a result's items go: the elements that hold them, and the field each item is. */
export interface StreamShape {
  /** The body (or document) element. */
  readonly root: FieldDesc;
  /** The array-typed element inside the root that holds the items, if the root does not. */
  readonly inner: FieldDesc | undefined;
  /** The field each item is an occurrence of, and the namespace of the element holding it. */
  readonly item: FieldDesc;
  readonly itemParentNs: string;
}

const shapes = new WeakMap<BodyDesc, StreamShape | null>();

/**
 * The shape of a result that may be streamed, or undefined: a body element whose type is an
 * ASMX-style array (`ArrayOfMessages`), or an unwrapped result (`prop`) whose wrapper holds only
 * that one element, itself repeated or of such an array type. SOAP-encoded arrays (their count
 * goes first), ordered choice lists and substitution groups do not qualify.
 */
export function streamShape(body: BodyDesc | undefined): StreamShape | undefined {
  if (!body) return undefined;
  let shape = shapes.get(body);
  if (shape === undefined) shapes.set(body, (shape = shapeOf(body) ?? null));
  return shape ?? undefined;
}

function shapeOf(body: BodyDesc): StreamShape | undefined {
  const root = body.element;
  if (body.parts || body.void || !plainElement(root)) return undefined;
  const t = root.type;
  if (body.prop === undefined)
    return t.k === "array" && arrayItem(t.item) && !t.encoded
      ? { root, inner: undefined, item: t.item, itemParentNs: root.ns }
      : undefined;
  if (t.k !== "complex" || t.family || t.any || t.anyAttrs || t.text || t.attrs.length > 0)
    return undefined;
  const f = t.fields[0];
  if (t.fields.length !== 1 || !f || f.prop !== body.prop || !plainElement(f)) return undefined;
  if (f.max > 1) return { root, inner: undefined, item: f, itemParentNs: root.ns };
  const a = f.type;
  if (a.k !== "array" || a.encoded || !arrayItem(a.item)) return undefined;
  return { root, inner: f, item: a.item, itemParentNs: f.ns };
}

/** An element written plainly: no substitutes, list tag, choice branch or fixed value. */
function plainElement(f: FieldDesc): boolean {
  return !f.substitutes && f.tag === undefined && !f.choice && f.fixed === undefined;
}

function arrayItem(f: FieldDesc): boolean {
  return !f.substitutes && f.tag === undefined && !f.xsiType;
}
