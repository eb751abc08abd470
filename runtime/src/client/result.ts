/**
 * A response's typed result, for both protocols: the value picked from the body element, keeping
 * the elements the operation does not describe around it.
 */
import type { BodyDesc } from "../descriptors/types.js";
import { ResponseFormatError } from "../errors.js";
import { clark, type XmlNode } from "../support/xml-node.js";
import { ownValue } from "../support/own-props.js";
import { keepUndescribed, undescribedOf } from "../xml/undescribed.js";

/**
 * The result, keeping on it the elements the operation does not describe around it: in its
 * wrapper, or in the Body after it (see `undescribedOf`). A result that is no object cannot keep
 * them, and the response is refused.
 */
export function withBodyExtras(
  value: unknown,
  extras: readonly XmlNode[],
  res: { status: number; text: string },
): unknown {
  if (extras.length === 0) return value;
  if (typeof value !== "object" || value === null) {
    const first = extras[0]!;
    throw new ResponseFormatError(
      `the response holds ${clark(first.ns, first.local)}, which the operation does not describe, ` +
        "beside a result that cannot keep it",
      res.status,
      res.text,
    );
  }
  for (const node of extras) keepUndescribed(value, node);
  return value;
}

/**
 * The typed result read from the response's body element `wrapper`, with `extras` and what the
 * wrapper kept (when the result is part of it, or nothing of it) going with it (see
 * withBodyExtras).
 */
export function picked(
  body: BodyDesc,
  wrapper: unknown,
  extras: readonly XmlNode[],
  res: { status: number; text: string },
): unknown {
  const value = pick(body, wrapper);
  const kept = value === wrapper ? [] : undescribedOf(wrapper);
  return withBodyExtras(value, [...kept, ...extras], res);
}

function pick(body: BodyDesc, value: unknown): unknown {
  if (body.void) return undefined;
  if (body.prop === undefined) return value;
  if (value === null || value === undefined) return undefined;
  return ownValue(value as Record<string, unknown>, body.prop);
}
