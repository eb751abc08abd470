/**
 * JSON Schema (2020-12) of the XSD built-in scalars as the runtime's JSON mapping writes them
 * (runtime/src/json): numbers a JSON number would round as strings with a pattern, dates and times
 * in their lexical form described by a pattern (never `format: date-time`, which requires an offset
 * that ASMX does not send), bytes as base64.
 */
import type { ScalarKind, SimpleType, BuiltinType } from "../../model/model.js";
import { BASE64, DECIMAL, NON_FINITE, NUMBER_RANGES } from "@wsdl-tsgen/runtime/internal";

export type JsonSchema = { readonly [key: string]: unknown };

/** Patterns of the integer kinds a JSON number cannot hold exactly, and what each allows. */
const BIG_INTEGERS: Partial<Record<ScalarKind, readonly [string, string]>> = {
  long: ["^[+-]?[0-9]+$", "-9223372036854775808 to 9223372036854775807"],
  unsignedLong: ["^\\+?[0-9]+$", "0 to 18446744073709551615"],
  integer: ["^[+-]?[0-9]+$", "any integer"],
  nonNegativeInteger: ["^\\+?[0-9]+$", "0 or more"],
  positiveInteger: ["^\\+?0*[1-9][0-9]*$", "1 or more"],
  nonPositiveInteger: ["^(-[0-9]+|\\+?0+)$", "0 or less"],
  negativeInteger: ["^-0*[1-9][0-9]*$", "-1 or less"],
};

const OFFSET = "(Z|[+-][0-9]{2}:[0-9]{2})?";
const DATE = "-?[0-9]{4,}-[0-9]{2}-[0-9]{2}";
const TIME = "[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?";

const TEMPORAL: Partial<Record<ScalarKind, readonly [string, string]>> = {
  dateTime: [
    `^${DATE}T${TIME}${OFFSET}$`,
    "xs:dateTime in its lexical form, kept as the service sent it: YYYY-MM-DDThh:mm:ss, any fraction digits, and an offset (Z or ±hh:mm) only when the service gives one",
  ],
  date: [`^${DATE}${OFFSET}$`, "xs:date: YYYY-MM-DD, with an offset only when given"],
  time: [`^${TIME}${OFFSET}$`, "xs:time: hh:mm:ss, any fraction digits, an offset only when given"],
};

/** The schema of one value of a built-in scalar kind. */
export function scalarSchema(kind: ScalarKind): JsonSchema {
  const range = NUMBER_RANGES[kind];
  if (range) return { type: "integer", minimum: range[0], maximum: range[1] };
  const big = BIG_INTEGERS[kind];
  if (big) return { type: "string", pattern: big[0], description: `xs:${kind} (${big[1]}), exact` };
  const temporal = TEMPORAL[kind];
  if (temporal) return { type: "string", pattern: temporal[0], description: temporal[1] };
  switch (kind) {
    case "boolean":
      return { type: "boolean" };
    case "decimal":
      return {
        type: "string",
        pattern: DECIMAL.source,
        description: "xs:decimal, exact",
      };
    case "float":
    case "double":
      return {
        anyOf: [{ type: "number" }, { enum: [...NON_FINITE] }],
        description: `xs:${kind}: a number, or INF, -INF or NaN`,
      };
    case "base64Binary":
    case "hexBinary":
      return { type: "string", contentEncoding: "base64", pattern: BASE64.source };
    case "anyType":
      return { description: "xs:anyType: text, or an element's XML tree" };
    default:
      return { type: "string" };
  }
}

/** The schema of a value of a built-in or simple type (an xs:list: an array). */
export function simpleSchema(t: BuiltinType | SimpleType): JsonSchema {
  if (t.kind === "builtin") return scalarSchema(t.scalar);
  // An enumeration of int-like values is one of those numbers in JSON, as the runtime reads them.
  const numeric = NUMBER_RANGES[t.base.scalar] !== undefined;
  const item: JsonSchema =
    t.enumeration.length === 0
      ? scalarSchema(t.base.scalar)
      : numeric
        ? { type: "integer", enum: t.enumeration.map(Number) }
        : { type: "string", enum: [...t.enumeration] };
  return t.list ? { type: "array", items: item } : item;
}
