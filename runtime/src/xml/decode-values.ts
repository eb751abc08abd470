/**
 * What the decoder makes of an element once it knows its descriptor: scalar values, attributes,
 * `xsi:type`, raw trees, and the checks of a finished complex value.
 */
import { isInheritedName, ownValue, setOwn } from "../support/own-props.js";
import type { XmlTag } from "./tokens.js";
import { childField, familyMember } from "../descriptors/builders.js";
import {
  type ComplexDesc,
  type FieldDesc,
  type ScalarDesc,
  type TypeDesc,
} from "../descriptors/types.js";
import {
  parseScalar,
  ValueFormatError,
  XML_SPACE,
  xmlTrim,
  type ScalarKind,
} from "../scalars/scalars.js";
import { clipped } from "../support/input-text.js";
import type { Frame } from "./decode-frame.js";
import { XmlDecodeError } from "./decode-options.js";
import { SOAP_ENC_NS, XMLNS_URI, XSI_NS } from "./namespaces.js";
import { clark, type XmlNode } from "../support/xml-node.js";

export function isNil(tag: XmlTag): boolean {
  for (const a of tag.attributes) {
    if (a.local === "nil" && a.uri === XSI_NS) {
      const v = xmlTrim(a.value);
      return v === "true" || v === "1";
    }
  }
  return false;
}

export function convert(frame: Frame, strict: boolean): unknown {
  const desc = frame.desc;
  if (desc === undefined || desc.k !== "scalar") return undefined;
  return scalarValue(
    desc,
    frame.text === "" ? emptyText(frame.field) : frame.text,
    frame.name,
    strict,
  );
}

/**
 * The text an empty element stands for: its fixed or default value, if the schema gives one (XML
 * Schema's rule).
 */
export function emptyText(field: FieldDesc | undefined): string {
  return field === undefined ? "" : (field.fixed ?? field.default ?? "");
}

/** The value of a scalar element `name` whose text is `text`. */
export function scalarValue(
  desc: ScalarDesc,
  text: string,
  name: string,
  strict: boolean,
): unknown {
  try {
    if (desc.list) {
      const items = listValue(desc.s, text);
      if (strict && desc.values) for (const v of items) allowed(desc.values, v);
      return items;
    }
    const v = parseScalar(desc.s, text);
    if (strict && desc.values) allowed(desc.values, v);
    return v;
  } catch (e) {
    throw new XmlDecodeError(
      `invalid value in element ${name}: ${(e as Error).message}`,
      "invalid",
      name,
    );
  }
}

/** Refuses a value its enumeration does not list. */
function allowed(values: readonly string[], v: unknown): void {
  if (!values.includes(String(v)))
    throw new ValueFormatError(`'${clipped(String(v))}' is not one of the allowed values`);
}

/** The items of an xs:list value. */
function listValue(kind: ScalarKind, text: string): unknown[] {
  const out: unknown[] = [];
  for (const t of text.split(XML_SPACE)) if (t !== "") out.push(parseScalar(kind, t));
  return out;
}

/**
 * Sets a decoded child's value on its parent object: repeated fields collect into an array, and the
 * elements of an ordered list into its array as `{ $choice, value }` items, in document order.
 */
export function setField(obj: Record<string, unknown>, f: FieldDesc, value: unknown): void {
  if (f.tag !== undefined) {
    const item = { $choice: f.tag, value };
    const arr = obj[f.prop];
    if (Array.isArray(arr)) arr.push(item);
    else setOwn(obj, f.prop, [item]);
  } else if (f.max > 1) {
    // Array.isArray, not truthiness: a field named like an inherited method (see
    // support/own-props.ts).
    const arr = obj[f.prop];
    if (Array.isArray(arr)) arr.push(value);
    else setOwn(obj, f.prop, [value]);
  } else setOwn(obj, f.prop, value);
}

/**
 * The field of a complex frame that a child element matches. Children mostly come in schema order:
 * the field the previous child matched and a few after it (optional ones may be absent) are tried
 * before the name index.
 */
export function matchField(
  frame: Frame,
  cd: ComplexDesc,
  ns: string,
  local: string,
): FieldDesc | undefined {
  const fields = cd.fields;
  const stop = Math.min(fields.length, frame.cursor + 8);
  for (let c = frame.cursor; c < stop; c++) {
    const f = fields[c]!;
    if (f.name === local && f.ns === ns) {
      frame.cursor = c;
      return f;
    }
  }
  return childField(cd, ns, local);
}

/** The value of an unqualified attribute, such as SOAP encoding's `href` and `id`. */
export function plainAttr(tag: XmlTag, local: string): string | undefined {
  for (const a of tag.attributes) if (a.local === local && a.uri === "") return xmlTrim(a.value);
  return undefined;
}

export const isEncodedArray = (desc: TypeDesc | undefined): boolean =>
  desc !== undefined && desc.k === "array" && desc.encoded !== undefined;

/**
 * Refuses a partially transmitted or sparse SOAP-encoded array (`soapenc:offset` on the array,
 * `soapenc:position` on an item): read in order, its items would stand at the wrong indexes.
 */
export function refuseUnplaced(tag: XmlTag): void {
  for (const a of tag.attributes)
    if (a.uri === SOAP_ENC_NS && (a.local === "offset" || a.local === "position"))
      throw new XmlDecodeError(
        `element ${tag.local} has soapenc:${a.local}="${clipped(a.value)}": partially ` +
          "transmitted and sparse SOAP-encoded arrays (soapenc:offset, soapenc:position) are " +
          "not supported",
        "invalid",
        tag.local,
      );
}

/** A type whose own attribute is named href: there, href is a value, not a multi-reference. */
export function declaresHref(type: TypeDesc): boolean {
  return type.k === "complex" && type.attrs.some((a) => a.name === "href" && a.ns === "");
}

export function finishComplex(frame: Frame, strict: boolean): unknown {
  const desc = frame.desc as ComplexDesc;
  const obj = frame.value as Record<string, unknown>;
  if (desc.text) {
    const text = frame.text;
    try {
      obj["$value"] = desc.text.list
        ? text
            .split(XML_SPACE)
            .filter(Boolean)
            .map((t) => parseScalar(desc.text!.s, t))
        : parseScalar(desc.text.s, text);
    } catch (e) {
      throw new XmlDecodeError(
        `invalid value in element ${frame.name}: ${(e as Error).message}`,
        "invalid",
        frame.name,
      );
    }
  }
  completeFields(desc.fields, obj, strict, frame.name);
  return obj;
}

/**
 * Gives the fields absent from `obj` what their absence means: an empty array for a repeated one; a
 * required one is an error when `strict`. `owner` names where they were expected.
 */
export function completeFields(
  fields: readonly FieldDesc[],
  obj: Record<string, unknown>,
  strict: boolean,
  owner: string,
): void {
  const plain = noInheritedNames(fields);
  for (const f of fields) {
    const v = plain ? obj[f.prop] : ownValue(obj, f.prop);
    if (v !== undefined) {
      if (f.min > 1 && strict && Array.isArray(v) && v.length < f.min) tooFew(f, v.length, owner);
      continue;
    }
    if (f.max > 1) {
      // An absent choice branch stays absent (see FieldDesc.choice).
      if (f.choice) continue;
      if (f.min > 0 && strict) tooFew(f, 0, owner);
      setOwn(obj, f.prop, []);
    } else if (f.min > 0 && strict)
      throw new XmlDecodeError(`element ${f.name} is missing from ${owner}`, "missing", f.name);
  }
}

/**
 * Whether no field is named like a property objects inherit (see support/own-props.ts): then a
 * plain read is an own read, with no name looked up per field of every object. Kept per type.
 */
function noInheritedNames(fields: readonly FieldDesc[]): boolean {
  let plain = plainFields.get(fields);
  if (plain === undefined) {
    plain = !fields.some((f) => isInheritedName(f.prop));
    plainFields.set(fields, plain);
  }
  return plain;
}
const plainFields = new WeakMap<readonly FieldDesc[], boolean>();

/** A repeated element with fewer occurrences than its minOccurs, as the writer refuses it too. */
function tooFew(f: FieldDesc, count: number, owner: string): never {
  const got = count === 0 ? "is missing from" : `occurs ${count} time${count === 1 ? "" : "s"} in`;
  const message = `element ${f.name} ${got} ${owner}; expected at least ${f.min}`;
  throw new XmlDecodeError(message, "missing", f.name);
}

/**
 * The member of `declared`'s family that the element's `xsi:type` names; `declared` itself when
 * there is no xsi:type or it names a type the descriptors do not know (newer than the WSDL, say):
 * the declared type's fields are still read.
 */
export function xsiTypeOf(declared: ComplexDesc, tag: XmlTag): ComplexDesc {
  const t = xsiType(tag);
  if (t?.ns === undefined) return declared;
  return familyMember(declared, t.ns, t.local) ?? declared;
}

/**
 * The element's `xsi:type`, split at its colon, with the namespace its prefix is bound to here (if
 * any).
 */
function xsiType(
  tag: XmlTag,
): { prefix: string; local: string; ns: string | undefined } | undefined {
  for (const a of tag.attributes) {
    if (a.local !== "type" || a.uri !== XSI_NS) continue;
    const value = xmlTrim(a.value);
    const colon = value.indexOf(":");
    const prefix = colon === -1 ? "" : value.slice(0, colon);
    return { prefix, local: value.slice(colon + 1), ns: tag.scope[prefix] };
  }
  return undefined;
}

/**
 * The value of an xs:anyType element: its text when it holds only text (an `xsi:type` aside), else
 * the whole element as a tree, so that nothing it holds is lost.
 */
export function anyTypeValue(node: XmlNode): string | XmlNode {
  for (const c of node.children) if (typeof c !== "string") return node;
  for (const key of Object.keys(node.attrs)) if (key !== XSI_TYPE_KEY) return node;
  return node.children.join("");
}

/**
 * The prefix an unprefixed xsi:type is given when the default namespace is not the element's (see
 * treeNode).
 */
const DEFAULT_TYPE_PREFIX = "d";

/** An element read as a tree: its attributes, and the bindings of the prefix its xsi:type names. */
export function treeNode(tag: XmlTag, ns: string, local: string): XmlNode {
  const node: {
    ns: string;
    local: string;
    attrs: Record<string, string>;
    children: (XmlNode | string)[];
    prefixes?: Record<string, string>;
  } = {
    ns,
    local,
    attrs: attrsOf(tag),
    children: [],
  };
  const t = tag.attributes.length > 0 ? xsiType(tag) : undefined;
  if (t !== undefined && t.ns !== undefined) {
    if (t.prefix !== "") node.prefixes = { [t.prefix]: t.ns };
    else if (t.ns !== ns && t.ns !== "") {
      // An unprefixed type names the default namespace, and a tree is written back with its own
      // namespace as the default: give the type's namespace a prefix, so the value keeps its
      // meaning.
      node.attrs[XSI_TYPE_KEY] = `${DEFAULT_TYPE_PREFIX}:${t.local}`;
      node.prefixes = { [DEFAULT_TYPE_PREFIX]: t.ns };
    }
  }
  return node;
}

const XSI_TYPE_KEY = clark(XSI_NS, "type");

function attrsOf(tag: XmlTag): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of tag.attributes) {
    if (a.uri === XMLNS_URI) continue;
    setOwn(out, clark(a.uri, a.local), a.value);
  }
  return out;
}

export function readAnyAttrs(desc: ComplexDesc, tag: XmlTag, obj: Record<string, unknown>): void {
  const bag: Record<string, string> = {};
  let any = false;
  for (const a of tag.attributes) {
    if (a.uri === XMLNS_URI || a.uri === XSI_NS) continue;
    if (desc.attrs.some((d) => d.name === a.local && d.ns === (a.uri ?? ""))) continue;
    setOwn(bag, clark(a.uri, a.local), a.value);
    any = true;
  }
  if (any) obj["$attributes"] = bag;
}

export function readAttrs(
  desc: ComplexDesc,
  tag: XmlTag,
  obj: Record<string, unknown>,
  element: string,
): void {
  for (const ad of desc.attrs) {
    let raw: string | undefined;
    for (const a of tag.attributes) if (a.local === ad.name && a.uri === ad.ns) raw = a.value;
    if (raw === undefined) continue;
    try {
      setOwn(
        obj,
        ad.prop,
        ad.type.list
          ? raw
              .split(XML_SPACE)
              .filter(Boolean)
              .map((t) => parseScalar(ad.type.s, t))
          : parseScalar(ad.type.s, raw),
      );
    } catch (e) {
      throw new XmlDecodeError(
        `invalid value in attribute ${ad.name} of ${element}: ${(e as Error).message}`,
        "invalid",
        element,
      );
    }
  }
}
