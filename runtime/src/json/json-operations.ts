/**
 * An operation's typed input and result to JSON and back, by its descriptor: the JSON of a request
 * is the client method's input, the JSON of an answer its result (null for none). Attachment parts
 * (SOAP with Attachments) are base64 strings beside the body's members.
 */
import type {
  AttachmentDesc,
  HttpOperationDesc,
  OperationDesc,
} from "../descriptors/operations.js";
import type { BodyDesc, ComplexDesc, FieldDesc } from "../descriptors/types.js";
import { blobError, childPointer, JsonValueError, scalarFromJson } from "./json-scalars.js";
import {
  complexFromJson,
  fieldFromJson,
  fieldToJson,
  fromJsonValue,
  toJsonValue,
} from "./json-values.js";

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** The field of a wrapper element's type whose property is an unwrapped body's. */
function unwrappedField(body: BodyDesc): FieldDesc | undefined {
  const type = body.element.type;
  return type.k === "complex" ? type.fields.find((f) => f.prop === body.prop) : undefined;
}

/** The attachment parts out of `json` as bytes, and what is left of it. */
function attachmentsFromJson(
  descs: readonly AttachmentDesc[] | undefined,
  json: unknown,
): { bytes: Obj; rest: unknown } {
  if (descs === undefined || descs.length === 0 || !isObject(json))
    return { bytes: {}, rest: json };
  const rest: Obj = { ...json };
  const bytes: Obj = {};
  for (const d of descs) {
    const at = childPointer("", d.part);
    if (rest[d.part] === undefined) throw new JsonValueError(at, "required (an attachment)");
    bytes[d.part] = scalarFromJson({ k: "scalar", s: "base64Binary" }, rest[d.part], at);
    delete rest[d.part];
  }
  return { bytes, rest };
}

/** A body's typed value from JSON. */
function bodyFromJson(body: BodyDesc | undefined, json: unknown): unknown {
  if (body === undefined || body.void) {
    if (json === undefined || json === null || (isObject(json) && Object.keys(json).length === 0))
      return undefined;
    throw new JsonValueError("", "this operation takes no input");
  }
  if (body.parts !== undefined) return fromJsonValue(body.parts, json);
  if (body.prop === undefined) return fromJsonValue(body.element.type, json);
  const wrapper: ComplexDesc = {
    k: "complex",
    name: body.element.name,
    fields: [{ ...body.element, prop: body.prop }],
    attrs: [],
    text: undefined,
  };
  if (!isObject(json)) throw new JsonValueError("", "expected an object");
  return complexFromJson(wrapper, json, "");
}

/** An HTTP GET/POST operation's input from JSON: one member per parameter. */
function paramsFromJson(op: HttpOperationDesc, json: unknown): Obj {
  if (!isObject(json)) throw new JsonValueError("", "expected an object");
  const out: Obj = {};
  for (const p of op.params) {
    const at = childPointer("", p.prop);
    const v = json[p.prop];
    if (v === undefined) {
      if (p.required) throw new JsonValueError(at, "required");
    } else if (p.repeated) {
      if (!Array.isArray(v)) throw new JsonValueError(at, "expected an array");
      out[p.prop] = v.map((x, i) => scalarFromJson(p.type, x, childPointer(at, i)));
    } else out[p.prop] = scalarFromJson(p.type, v, at);
  }
  for (const key of Object.keys(json))
    if (!op.params.some((p) => p.prop === key))
      throw new JsonValueError(childPointer("", key), "not a member");
  return out;
}

/** An operation's typed input (what its client method takes) from JSON; throws JsonValueError. */
export function operationInputFromJson(op: OperationDesc, json: unknown): unknown {
  if (op.kind === "http") return paramsFromJson(op, json);
  const { bytes, rest } = attachmentsFromJson(op.attachments, json);
  const value = bodyFromJson(op.request, rest);
  if (Object.keys(bytes).length === 0) return value;
  return { ...(isObject(value) ? value : {}), ...bytes };
}

/** An operation's typed input as JSON (how a caller of the gateway would send it). */
export function operationInputToJson(op: OperationDesc, value: unknown): unknown {
  if (op.kind === "http") return paramsToJson(op, value);
  return withAttachments(op.attachments, bodyToJson(op.request, value, "input"), value);
}

function paramsToJson(op: HttpOperationDesc, value: unknown): Obj {
  const out: Obj = {};
  if (!isObject(value)) return out;
  for (const p of op.params)
    if (value[p.prop] !== undefined) out[p.prop] = toJsonValue(p.type, value[p.prop]);
  return out;
}

/** A body's typed value as JSON; `null` for none. */
function bodyToJson(body: BodyDesc | undefined, value: unknown, side: "input" | "result"): unknown {
  if (body === undefined || body.void || value === undefined) return null;
  if (body.parts !== undefined) return toJsonValue(body.parts, value);
  if (body.prop === undefined) return toJsonValue(body.element.type, value);
  if (side === "input")
    return isObject(value) ? { [body.prop]: fieldToJson(body.element, value[body.prop]) } : value;
  const f = unwrappedField(body);
  return f === undefined ? value : (fieldToJson(f, value) ?? null);
}

/**
 * `json` with the attachment parts of `value` beside its members, as base64. A part that is not
 * bytes in memory (a Blob a client spooled) is refused by name rather than left out.
 */
function withAttachments(
  descs: readonly AttachmentDesc[] | undefined,
  json: unknown,
  value: unknown,
) {
  if (descs === undefined || descs.length === 0 || !isObject(value)) return json;
  const out: Obj = isObject(json) ? { ...json } : {};
  for (const d of descs) {
    const part = value[d.part];
    if (part instanceof Blob) throw blobError(`the attachment part '${d.part}'`);
    if (part instanceof Uint8Array)
      out[d.part] = toJsonValue({ k: "scalar", s: "base64Binary" }, part);
  }
  return out;
}

/** An operation's typed result (what its client method resolves to) as JSON; null for none. */
export function operationResultToJson(op: OperationDesc, value: unknown): unknown {
  if (op.kind === "http") return bodyToJson(op.response, value, "result");
  return withAttachments(op.responseAttachments, bodyToJson(op.response, value, "result"), value);
}

/** An operation's typed result from JSON (what a client of the gateway reads back). */
export function operationResultFromJson(op: OperationDesc, json: unknown): unknown {
  const body = op.response;
  const descs = op.kind === "soap" ? op.responseAttachments : undefined;
  const { bytes, rest } = attachmentsFromJson(descs, json);
  if (body === undefined || body.void) return Object.keys(bytes).length ? bytes : undefined;
  let value: unknown;
  if (body.parts !== undefined) value = fromJsonValue(body.parts, rest);
  else if (body.prop === undefined) value = fromJsonValue(body.element.type, rest);
  else {
    const f = unwrappedField(body);
    if (f === undefined) value = undefined;
    else if (rest === null) value = f.nillable ? null : undefined;
    else value = fieldFromJson(f, rest, "");
  }
  return Object.keys(bytes).length ? { ...(isObject(value) ? value : {}), ...bytes } : value;
}
