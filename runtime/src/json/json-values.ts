/**
 * Typed values (as the generated descriptors describe them) to JSON and back. The JSON has the
 * shape of the TypeScript value: the same property names, `$type` for a derived type, `$element`
 * for a substitution group's member, `{ $choice, value }` items for an ordered list, `$value` for
 * simple content, `$attributes` and `$any` for wildcards; absent optional members stay absent and
 * nil is `null`. Scalars convert exactly (json-scalars.ts). JSON in is checked against the
 * descriptor as it is read, each error naming its JSON pointer.
 */
import { familyMemberByTag } from "../descriptors/builders.js";
import type { ArrayDesc, ComplexDesc, FieldDesc, TypeDesc } from "../descriptors/types.js";
import {
  blobError,
  childPointer,
  JsonValueError,
  scalarFromJson,
  scalarToJson,
} from "./json-scalars.js";

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** The descriptor a complex value of a family is of: its `$type`'s, or the declared one. */
function concrete(desc: ComplexDesc, tag: unknown, pointer: string): ComplexDesc {
  if (tag === undefined || desc.family === undefined) return desc;
  const member = typeof tag === "string" ? familyMemberByTag(desc, tag) : undefined;
  if (member === undefined)
    throw new JsonValueError(
      childPointer(pointer, "$type"),
      `not a type derived from ${desc.name}`,
    );
  return member;
}

/** The substitute (or the head itself) an occurrence of `f` is, by its `$element`. */
function substituteOf(f: FieldDesc, value: unknown, pointer: string): FieldDesc {
  const element = isObject(value) ? value["$element"] : undefined;
  if (f.substitutes === undefined || element === undefined) return f;
  const member = f.substitutes.find((m) => m.name === element);
  if (member === undefined)
    throw new JsonValueError(childPointer(pointer, "$element"), `not in ${f.name}'s group`);
  return member;
}

/** A value of `type` as JSON. */
export function toJsonValue(type: TypeDesc, value: unknown): unknown {
  if (type.k === "scalar") return scalarToJson(type, value);
  if (type.k === "array")
    return Array.isArray(value) ? value.map((v) => occurrenceToJson(type.item, v)) : value;
  if (!isObject(value)) return value;
  return complexToJson(concrete(type, value["$type"], ""), value);
}

/** One occurrence of a field's element as JSON. */
function occurrenceToJson(f: FieldDesc, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (value instanceof Blob) throw blobError(`the element ${f.name}`);
  const own = substituteOf(f, value, "");
  const json = toJsonValue(own.type, value);
  if (own.substituteOf !== undefined && isObject(json)) return { ...json, $element: own.name };
  return json;
}

/** A field's property value (an array when repeated) as JSON. */
export function fieldToJson(f: FieldDesc, value: unknown): unknown {
  if (f.max > 1 && Array.isArray(value)) return value.map((v) => occurrenceToJson(f, v));
  return occurrenceToJson(f, value);
}

/** A complex value's members (attributes, fields, `$` keys) as JSON. */
function complexToJson(desc: ComplexDesc, value: Obj): Obj {
  const out: Obj = {};
  for (const key of ["$type", "$attributes", "$any"]) if (key in value) out[key] = value[key];
  if (desc.text !== undefined && "$value" in value)
    out["$value"] = scalarToJson(desc.text, value["$value"]);
  for (const a of desc.attrs)
    if (value[a.prop] !== undefined) out[a.prop] = scalarToJson(a.type, value[a.prop]);
  for (const f of desc.fields) {
    const v = value[f.prop];
    if (v === undefined || f.prop in out) continue;
    out[f.prop] = f.tag === undefined ? fieldToJson(f, v) : listToJson(desc, f.prop, v);
  }
  return out;
}

/** An ordered list's items (`{ $choice, value }`) as JSON. */
function listToJson(desc: ComplexDesc, prop: string, items: unknown): unknown {
  if (!Array.isArray(items)) return items;
  return items.map((item: unknown) => {
    if (!isObject(item)) return item;
    const f = desc.fields.find((x) => x.prop === prop && x.tag === item["$choice"]);
    return f === undefined ? item : { $choice: f.tag, value: occurrenceToJson(f, item["value"]) };
  });
}

/** A value of `type` from JSON, checked; throws JsonValueError naming where. */
export function fromJsonValue(type: TypeDesc, json: unknown, pointer = ""): unknown {
  if (type.k === "scalar") return scalarFromJson(type, json, pointer);
  if (type.k === "array") return arrayFromJson(type, json, pointer);
  if (!isObject(json)) throw new JsonValueError(pointer, `expected an object (${type.name})`);
  return complexFromJson(concrete(type, json["$type"], pointer), json, pointer);
}

function arrayFromJson(type: ArrayDesc, json: unknown, pointer: string): unknown[] {
  if (!Array.isArray(json)) throw new JsonValueError(pointer, `expected an array (${type.name})`);
  return json.map((v, i) => occurrenceFromJson(type.item, v, childPointer(pointer, i)));
}

/** One occurrence of a field's element from JSON. */
function occurrenceFromJson(f: FieldDesc, json: unknown, pointer: string): unknown {
  if (json === null) {
    if (f.nillable) return null;
    throw new JsonValueError(pointer, `${f.name} is not nillable`);
  }
  const own = substituteOf(f, json, pointer);
  if (own.substituteOf === undefined) {
    if (f.abstract) throw new JsonValueError(pointer, `${f.name} is abstract: name a $element`);
    return fromJsonValue(own.type, json, pointer);
  }
  const { $element, ...rest } = json as Obj;
  return { ...(fromJsonValue(own.type, rest, pointer) as Obj), $element };
}

/** A field's property value from JSON: an array when repeated. */
export function fieldFromJson(f: FieldDesc, json: unknown, pointer: string): unknown {
  if (f.max <= 1) return occurrenceFromJson(f, json, pointer);
  if (!Array.isArray(json)) throw new JsonValueError(pointer, `expected an array of ${f.name}`);
  if (json.length < f.min)
    throw new JsonValueError(pointer, `at least ${f.min} ${f.name} expected`);
  if (json.length > f.max) throw new JsonValueError(pointer, `at most ${f.max} ${f.name} allowed`);
  return json.map((v, i) => occurrenceFromJson(f, v, childPointer(pointer, i)));
}

/** The properties a complex value may have besides its attributes and fields. */
function extraKeys(desc: ComplexDesc): Set<string> {
  const keys = new Set<string>();
  if (desc.family !== undefined) keys.add("$type");
  if (desc.text !== undefined) keys.add("$value");
  if (desc.anyAttrs) keys.add("$attributes");
  if (desc.any) keys.add("$any");
  return keys;
}

export function complexFromJson(desc: ComplexDesc, json: Obj, pointer: string): Obj {
  const known = extraKeys(desc);
  const out: Obj = {};
  for (const key of ["$type", "$attributes", "$any"])
    if (known.has(key) && key in json) out[key] = json[key];
  if (desc.text !== undefined && json["$value"] !== undefined)
    out["$value"] = scalarFromJson(desc.text, json["$value"], childPointer(pointer, "$value"));
  for (const a of desc.attrs) {
    known.add(a.prop);
    const v = json[a.prop];
    if (v !== undefined) out[a.prop] = scalarFromJson(a.type, v, childPointer(pointer, a.prop));
    else if (a.required && a.fixed === undefined)
      throw new JsonValueError(childPointer(pointer, a.prop), "required");
  }
  for (const f of desc.fields) {
    if (known.has(f.prop)) continue;
    known.add(f.prop);
    const at = childPointer(pointer, f.prop);
    const v = json[f.prop];
    if (v !== undefined)
      out[f.prop] = f.tag === undefined ? fieldFromJson(f, v, at) : listFromJson(desc, f, v, at);
    else if (f.min > 0 && f.max <= 1 && f.fixed === undefined && f.branch === undefined)
      throw new JsonValueError(at, "required");
  }
  for (const key of Object.keys(json))
    if (!known.has(key)) throw new JsonValueError(childPointer(pointer, key), "not a member");
  return out;
}

/** An ordered list's items from JSON: each `{ $choice, value }` of one of the list's elements. */
function listFromJson(desc: ComplexDesc, first: FieldDesc, json: unknown, pointer: string) {
  if (!Array.isArray(json)) throw new JsonValueError(pointer, "expected an array of items");
  if (json.length < first.min) throw new JsonValueError(pointer, "the list may not be empty");
  return json.map((item: unknown, i) => {
    const at = childPointer(pointer, i);
    if (!isObject(item)) throw new JsonValueError(at, "expected { $choice, value }");
    const f = desc.fields.find((x) => x.prop === first.prop && x.tag === item["$choice"]);
    if (f === undefined) throw new JsonValueError(childPointer(at, "$choice"), "no such element");
    for (const key of Object.keys(item))
      if (key !== "$choice" && key !== "value")
        throw new JsonValueError(childPointer(at, key), "not a member");
    return {
      $choice: f.tag,
      value: occurrenceFromJson(f, item["value"], childPointer(at, "value")),
    };
  });
}
