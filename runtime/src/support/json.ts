/**
 * JSON of the values the runtime reads, whole: `JSON.stringify(result, jsonReplacer)`. Plain
 * JSON.stringify throws on a `bigint` (xs:long, xs:integer) and writes a `Uint8Array`
 * (xs:base64Binary, attachments) as an object of numbered bytes, and INF, -INF and NaN as null;
 * here a big integer becomes its exact decimal string, bytes their base64 and a non-finite double
 * its XSD name, as the JSON mapping reads them. Dates, times and XML trees already have a JSON
 * form.
 */
export function jsonReplacer(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (typeof value === "number" && !Number.isFinite(value))
    return Number.isNaN(value) ? "NaN" : value > 0 ? "INF" : "-INF";
  return value;
}
