/**
 * Scalars between their typed value (what the decoder gives) and JSON, exactly: big integers and
 * decimals as decimal strings (a JSON number would round them), dates and times in their lexical
 * form (ASMX sends no offset, and a `Date` would invent one), bytes as base64, and float/double's
 * INF, -INF and NaN, which JSON numbers cannot hold, by their XSD names.
 */
import { isBigIntKind, isNumberKind, parseScalar, type ScalarKind } from "../scalars/scalars.js";
import { isTemporalLexical } from "../scalars/temporal.js";
import type { ScalarDesc } from "../descriptors/types.js";

/** A JSON value that does not fit its schema, with the JSON pointer (RFC 6901) of where. */
export class JsonValueError extends Error {
  constructor(
    readonly pointer: string,
    readonly detail: string,
  ) {
    super(`${pointer === "" ? "the value" : pointer}: ${detail}`);
    this.name = "JsonValueError";
  }
}

/** The pointer of `key` under `pointer` (RFC 6901 escapes `~` and `/`). */
export const childPointer = (pointer: string, key: string | number): string =>
  `${pointer}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;

/** Float and double values JSON numbers cannot hold, by their XSD lexical names. */
export const NON_FINITE = ["INF", "-INF", "NaN"] as const;

/** Padded base64 without white space: what the JSON mapping reads, and the OpenAPI pattern. */
export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The error for a Blob met where JSON is written: a client spools large binaries to files, which
 * this synchronous mapping cannot read, and `JSON.stringify` would write `{}` for one. The gateway
 * reads them first (gateway/binaries.ts); other callers do the same.
 */
export function blobError(what: string): Error {
  return new Error(
    `${what} is a Blob (a binary spooled to a file), which cannot be written as JSON here;` +
      " expected bytes in memory: read the Blob first (the gateway does), or give the client attachmentSpoolBytes: Infinity",
  );
}

/** One scalar value (not a list) as JSON. */
function itemToJson(kind: ScalarKind, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Blob) throw blobError(`an xs:${kind} value`);
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
  if (typeof value === "number" && !Number.isFinite(value))
    return Number.isNaN(value) ? "NaN" : value > 0 ? "INF" : "-INF";
  if (isBigIntKind(kind) && typeof value === "number") return String(value);
  if (value !== null && typeof value === "object" && "lexical" in value)
    return (value as { lexical: string }).lexical;
  return value;
}

/** A scalar's value (a list's items each) as JSON. */
export function scalarToJson(desc: ScalarDesc, value: unknown): unknown {
  if (desc.list && Array.isArray(value)) return value.map((v) => itemToJson(desc.s, v));
  return itemToJson(desc.s, value);
}

function wrongType(pointer: string, desc: ScalarDesc, want: string): never {
  throw new JsonValueError(pointer, `expected ${want} (xs:${desc.s})`);
}

/** A JSON string as one scalar of a string-carried kind, checked by the XSD parser. */
function lexicalItem(desc: ScalarDesc, json: unknown, pointer: string): unknown {
  if (typeof json !== "string") return wrongType(pointer, desc, "a string");
  const kind = desc.s;
  // The XSD parser collapses white space; JSON carries none around a number or a date.
  if (kind !== "string" && kind !== "anyType" && json.trim() !== json)
    throw new JsonValueError(pointer, `'${json}' has white space around it`);
  if ((kind === "base64Binary" || kind === "hexBinary") && !BASE64.test(json))
    throw new JsonValueError(pointer, "not base64");
  if (kind === "base64Binary" || kind === "hexBinary")
    return new Uint8Array(Buffer.from(json, "base64"));
  if (kind === "dateTime" && !isTemporalLexical("dateTime", json))
    throw new JsonValueError(pointer, `'${json}' is not an xs:dateTime (YYYY-MM-DDThh:mm:ss)`);
  try {
    return parseScalar(kind, json);
  } catch (e) {
    throw new JsonValueError(pointer, (e as Error).message);
  }
}

/** A JSON number as an int-like or float-like scalar. */
function numberItem(desc: ScalarDesc, json: unknown, pointer: string): unknown {
  const float = desc.s === "float" || desc.s === "double";
  if (float && typeof json === "string" && (NON_FINITE as readonly string[]).includes(json))
    return parseScalar(desc.s, json);
  if (typeof json !== "number") return wrongType(pointer, desc, "a number");
  if (float) return json;
  try {
    return parseScalar(desc.s, String(json));
  } catch (e) {
    throw new JsonValueError(pointer, (e as Error).message);
  }
}

/** One scalar value from JSON. */
function itemFromJson(desc: ScalarDesc, json: unknown, pointer: string): unknown {
  // An enumeration of numbers holds their lexical forms.
  const lexical = typeof json === "number" ? String(json) : json;
  if (desc.values !== undefined && !desc.values.includes(lexical as string))
    throw new JsonValueError(pointer, `expected one of ${JSON.stringify(desc.values)}`);
  if (desc.s === "boolean") {
    if (typeof json !== "boolean") wrongType(pointer, desc, "true or false");
    return json;
  }
  if (isNumberKind(desc.s)) return numberItem(desc, json, pointer);
  // anyType: text, or an element's tree (an XmlNode's JSON), passed on as it is.
  if (desc.s === "anyType" && json !== null && typeof json === "object") return json;
  return lexicalItem(desc, json, pointer);
}

/** A scalar's value (a list: an array of items) from JSON, checked; throws JsonValueError. */
export function scalarFromJson(desc: ScalarDesc, json: unknown, pointer: string): unknown {
  if (!desc.list) return itemFromJson(desc, json, pointer);
  if (!Array.isArray(json)) return wrongType(pointer, desc, "an array");
  return json.map((v, i) => itemFromJson(desc, v, childPointer(pointer, i)));
}
