/**
 * Writes values as XML, driven by descriptors. Elements never use prefixes: a change of namespace
 * is a default-namespace declaration, as ASMX writes it (`<GetMessages xmlns="…">`).
 *
 * Each (type, enclosing namespace) pair is compiled once into closures that know their tags,
 * occurrence rules and scalar formatter, so writing a value is string concatenation without
 * per-value dispatch on the descriptor. Error paths (`GetMessagesResult[3].DateArrived`) are built
 * only when a value does not fit.
 */
import { familyMemberByTag } from "../descriptors/builders.js";
import {
  type ArrayDesc,
  type ComplexDesc,
  type FieldDesc,
  type TypeDesc,
} from "../descriptors/types.js";
import type { XmlNode } from "../support/xml-node.js";
import { ValueFormatError } from "../scalars/scalars.js";
import { isInheritedName, ownValue } from "../support/own-props.js";
import { SOAP_ENC_NS } from "./namespaces.js";
import { escapeAttr } from "./escape.js";
import {
  absent,
  checkCount,
  contentTextOf,
  fixedText,
  misfit,
  plainField,
  run,
  scalarWriter,
  startTag,
  textOf,
  within,
  writePlain,
  xsiTypeAttr,
  type ElementWriter,
  type ElementWriterFactory,
  type FieldWriter,
  type PlainField,
} from "./write-scalars.js";
import { listWriter, repeated } from "./write-list.js";
import { bagAttr, qualifiedAttr, writeNode } from "./write-tree.js";
import { xsiTypeOf, xsiTypesAlways } from "./xsi-types.js";

/** Compiled writers by type and by the namespace of the element that holds the type. */
const contentCache = new WeakMap<TypeDesc, Map<string, ElementWriterFactory>>();

/** The writer of an element named `name` in `ns`, inside an element of namespace `parentNs`. */
function elementWriter(
  name: string,
  ns: string,
  parentNs: string,
  type: TypeDesc,
  extra: string,
): ElementWriter {
  const open = startTag(name, ns, parentNs, extra);
  const close = "</" + name + ">";
  // A scalar type refers to no other type: compiled now, it needs no lazy step on every write.
  if (type.k === "scalar") return scalarWriter(type, ns)(open, close);
  return factoryOf(type, ns)(open, close);
}

function factoryOf(type: TypeDesc, ns: string): ElementWriterFactory {
  let byNs = contentCache.get(type);
  if (!byNs) contentCache.set(type, (byNs = new Map()));
  let factory = byNs.get(ns);
  if (!factory) {
    // Registered before compiling, so that recursive types reach themselves lazily.
    let built: ElementWriterFactory | undefined;
    factory = (open, close) => {
      let w: ElementWriter | undefined;
      return (value) => (w ??= (built ??= compileType(type, ns))(open, close))(value);
    };
    byNs.set(ns, factory);
  }
  return factory;
}

function compileType(type: TypeDesc, ns: string): ElementWriterFactory {
  if (type.k === "scalar") return scalarWriter(type, ns);
  if (type.k === "array") return compileArray(type, ns);
  return type.family ? compileFamily(type, ns) : compileComplex(type, ns);
}

/**
 * An array: its items as repeated elements. A SOAP-encoded one says what it holds, as rpc/encoded
 * peers expect: `xsi:type="soapenc:Array"`, `soapenc:arrayType="at:Item[N]"` and each item's
 * `xsi:type`, the prefixes declared on it.
 */
function compileArray(type: ArrayDesc, ns: string): ElementWriterFactory {
  const item = type.item;
  const enc = type.encoded;
  // A family member's writer and an encoded array's write their own xsi:type; one is allowed.
  const own =
    (item.type.k === "complex" && item.type.family !== undefined) ||
    (item.type.k === "array" && item.type.encoded !== undefined);
  const itemType = enc && !own ? ` xsi:type="at:${escapeAttr(enc.type)}"` : "";
  const writeItem = elementWriter(item.name, item.ns, ns, item.type, itemType);
  const nil = startTag(item.name, item.ns, ns, "") + ' xsi:nil="true" />';
  const nillable = item.nillable;
  const arrayType =
    enc && ` xsi:type="soapenc:Array" soapenc:arrayType="at:${escapeAttr(enc.type)}[`;
  const declared = enc && `]" xmlns:soapenc="${SOAP_ENC_NS}" xmlns:at="${escapeAttr(enc.ns)}"`;
  return (open, close) => {
    const empty = open + " />";
    const gt = open + ">";
    return (value) => {
      if (!Array.isArray(value)) misfit((p) => `${p} must be an array`);
      checkCount(value.length, item.min, item.max);
      if (arrayType !== undefined) {
        const start = open + arrayType + String(value.length) + declared;
        if (value.length === 0) return start + " />";
        return start + ">" + writeItems(value, writeItem, nillable, nil) + close;
      }
      if (value.length === 0) return empty;
      return gt + writeItems(value, writeItem, nillable, nil) + close;
    };
  };
}

/** The items of an array, a null one as `nil` where the item is nillable. */
function writeItems(
  value: readonly unknown[],
  writeItem: ElementWriter,
  nillable: boolean,
  nil: string,
): string {
  let s = "";
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    try {
      if (v === null || v === undefined) {
        if (!nillable) misfit((p) => `${p} is not nillable`);
        s += nil;
      } else s += writeItem(v);
    } catch (e) {
      within(`[${i}]`, e);
    }
  }
  return s;
}

/**
 * A type of a derivation family: a value whose `$type` names a derived type is written with that
 * type's content and `xsi:type`; without `$type` (or with its own), as the declared type.
 */
function compileFamily(type: ComplexDesc, ns: string): ElementWriterFactory {
  const own = compileComplex(type, ns);
  const family = type.family!;
  // A property the declared type does not have means a derived type was meant: never drop it
  // silently.
  const known = new Set([
    "$type",
    "$element",
    "$value",
    "$any",
    "$attributes",
    ...type.fields.map((f) => f.prop),
    ...type.attrs.map((a) => a.prop),
  ]);
  const checkOwn = family.derived.length > 0;
  return (open, close) => {
    const writeOwn = own(open, close);
    const tags = () => family.derived.map((d) => `'${d.family!.tag}'`).join(", ");
    const members = new Map<string, ElementWriter>();
    const memberWriter = (tag: string): ElementWriter | undefined => {
      let w = members.get(tag);
      if (w) return w;
      const member = familyMemberByTag(type, tag);
      if (member === undefined || member === type) return undefined;
      w = factoryOf(member, ns)(open + xsiTypeOf(member), close);
      members.set(tag, w);
      return w;
    };
    let ownTyped: ElementWriter | undefined;
    // Written as a member of a base family already (its xsi:type is in `open`).
    const typed = open.includes(' xsi:type="');
    return (value) => {
      const tag =
        typeof value === "object" && value !== null
          ? (value as Record<string, unknown>)["$type"]
          : undefined;
      if (tag === undefined || tag === family.tag) {
        if (family.abstract)
          misfit((p) => `${p}: ${type.name} is abstract; set $type to one of ${tags()}`);
        if (checkOwn && typeof value === "object" && value !== null) {
          for (const k in value) {
            if (!known.has(k))
              misfit(
                (p) =>
                  `${p}.${k} is not a property of ${type.name}; set $type to the derived type meant (one of ${tags()})`,
              );
          }
        }
        if (!xsiTypesAlways() || !checkOwn || typed) return writeOwn(value);
        return (ownTyped ??= own(open + xsiTypeOf(type), close))(value);
      }
      const w = typeof tag === "string" ? memberWriter(tag) : undefined;
      if (w === undefined)
        misfit(
          (p) => `${p}.$type '${String(tag)}' is neither ${type.name} nor a type derived from it`,
        );
      return w(value);
    };
  };
}

function fieldWriter(f: FieldDesc, parentNs: string): FieldWriter {
  const plain = plainField(f, parentNs);
  if (!plain) return otherFieldWriter(f, parentNs);
  return (value) => {
    try {
      return writePlain(plain, value);
    } catch (e) {
      return within(f.prop, e);
    }
  };
}

/** The writer of one occurrence of field `f`'s element: null as nil, where it is nillable. */
function occurrenceWriter(f: FieldDesc, parentNs: string): ElementWriter {
  const write = f.substitutes
    ? substitutionWriter(f, parentNs)
    : elementWriter(f.name, f.ns, parentNs, f.type, xsiTypeAttr(f));
  const nil = startTag(f.name, f.ns, parentNs, "") + ' xsi:nil="true" />';
  const nillable = f.nillable;
  return (v) => {
    if (v === null) {
      if (!nillable) misfit((p) => `${p} is not nillable; null cannot be written`);
      return nil;
    }
    return write(v);
  };
}

/** The writer of a field that is not plain (see plainField): repeated, substitutable or complex. */
function otherFieldWriter(f: FieldDesc, parentNs: string): FieldWriter {
  const one = occurrenceWriter(f, parentNs);
  const { min, max, nillable, prop } = f;
  if (f.max > 1) return repeated(one, min, max, prop);
  const fixed =
    f.fixed !== undefined && f.type.k === "scalar" ? fixedText(f.type, f.fixed) : undefined;
  if (fixed) {
    // The schema's fixed value: written when a required element is left out, and the only value
    // accepted.
    return (value) => {
      try {
        if (value === undefined || (value === null && !nillable))
          return min > 0 ? one(fixed.value) : "";
        if (value !== null) fixed.check(value);
        return one(value);
      } catch (e) {
        return within(prop, e);
      }
    };
  }
  return (value) => {
    try {
      if (value === undefined || (value === null && !nillable))
        return absent(value, nillable, "", min > 0);
      return one(value);
    } catch (e) {
      return within(prop, e);
    }
  };
}

/**
 * The head of a substitution group: a value whose `$element` names a member is written as that
 * element, with the member's type; without `$element` (or with the head's name), as the head.
 */
function substitutionWriter(f: FieldDesc, parentNs: string): ElementWriter {
  const head = elementWriter(f.name, f.ns, parentNs, f.type, "");
  const members = new Map(
    (f.substitutes ?? []).map(
      (m) => [m.name, elementWriter(m.name, m.ns, parentNs, m.type, "")] as const,
    ),
  );
  const names = () => [...members.keys()].map((n) => `'${n}'`).join(", ");
  return (value) => {
    const element =
      typeof value === "object" && value !== null
        ? (value as Record<string, unknown>)["$element"]
        : undefined;
    if (element === undefined || element === f.name) {
      if (f.abstract)
        misfit((p) => `${p}: element ${f.name} is abstract; set $element to one of ${names()}`);
      return head(value);
    }
    const w = typeof element === "string" ? members.get(element) : undefined;
    if (w === undefined)
      misfit(
        (p) =>
          `${p}.$element '${String(element)}' is neither ${f.name} nor an element that may stand for it (${names()})`,
      );
    return w(value);
  };
}

/** A field of a complex type: plain, or written by its compiled writer. */
interface ComplexField {
  readonly prop: string;
  readonly plain: PlainField | undefined;
  readonly write: FieldWriter | undefined;
}

/**
 * The fields of a complex type, each written by itself; an ordered list's (`FieldDesc.tag`) by its
 * first element's writer, which writes all its items in order, the others' writing nothing.
 */
function complexFields(fields: readonly FieldDesc[], ns: string): ComplexField[] {
  const lists = new Map<string, FieldDesc[]>();
  for (const f of fields)
    if (f.tag !== undefined) lists.set(f.prop, [...(lists.get(f.prop) ?? []), f]);
  return fields.map((f) => {
    const members = f.tag === undefined ? undefined : lists.get(f.prop)!;
    if (members === undefined) {
      const plain = plainField(f, ns);
      return { prop: f.prop, plain, write: plain ? undefined : otherFieldWriter(f, ns) };
    }
    const write = members[0] === f ? listWriter(members, (m) => occurrenceWriter(m, ns)) : () => "";
    return { prop: f.prop, plain: undefined, write };
  });
}

/** The fields' elements, xs:any content `anyXml` before field `anyAt` (or after them all). */
function writeFields(
  fields: readonly ComplexField[],
  obj: Record<string, unknown>,
  own: boolean,
  anyAt: number,
  anyXml: string,
): string {
  let content = "";
  let i = 0;
  try {
    for (; i < fields.length; i++) {
      if (i === anyAt) content += anyXml;
      const f = fields[i]!;
      const v = own ? ownValue(obj, f.prop) : obj[f.prop];
      content += f.plain ? writePlain(f.plain, v) : f.write!(v);
    }
  } catch (e) {
    // A compiled field writer names its property itself.
    if (fields[i]!.plain) within(fields[i]!.prop, e);
    throw e;
  }
  return anyAt >= fields.length ? content + anyXml : content;
}

function compileComplex(type: ComplexDesc, ns: string): ElementWriterFactory {
  const fields = complexFields(type.fields, ns);
  const attrs = type.attrs.map((a) => ({
    ...a,
    text: textOf(a.type),
    fixedValue: a.fixed !== undefined ? fixedText(a.type, a.fixed) : undefined,
  }));
  // A property named like one every object inherits (`constructor`) is read as an own one
  // (support/own-props.ts).
  const own = [...fields, ...attrs].some((f) => isInheritedName(f.prop));
  const text = type.text && contentTextOf(type.text);
  const { any, anyAttrs, name: typeName } = type;
  const anyAt = type.anyAt ?? fields.length;
  const writeAttrs = (obj: Record<string, unknown>): string => {
    let s = "";
    let prefixes = 0;
    for (const a of attrs) {
      let v = own ? ownValue(obj, a.prop) : obj[a.prop];
      if (v === undefined || v === null) {
        // A required attribute left out: its fixed value, if the schema fixes one (see fixedText).
        if (!a.required) continue;
        if (a.fixedValue) v = a.fixedValue.value;
        else misfit((p) => `${p}.${a.prop} (attribute) is required`);
      }
      let t: string;
      try {
        a.fixedValue?.check(v);
        t = escapeAttr(a.text(v));
      } catch (e) {
        within(a.prop, e);
      }
      if (a.ns === "") s += ` ${a.name}="${t}"`;
      else s += qualifiedAttr(a.ns, a.name, t, () => `a${prefixes++}`);
    }
    if (anyAttrs && obj["$attributes"]) {
      for (const [key, v] of Object.entries(obj["$attributes"] as Record<string, string>))
        s += bagAttr(key, String(v), () => `a${prefixes++}`);
    }
    return s;
  };
  const hasAttrs = attrs.length > 0 || anyAttrs === true;
  return (open, close) => (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value))
      misfit((p) => `${p} must be an object of type ${typeName}`);
    const obj = value as Record<string, unknown>;
    const start = hasAttrs ? open + writeAttrs(obj) : open;
    let content = "";
    if (text) {
      const v = obj["$value"];
      if (v !== undefined && v !== null) {
        try {
          content = text(v);
        } catch (e) {
          within("$value", e);
        }
      }
    }
    // xs:any content where the schema puts it: before field `anyAt`, or after them all.
    let anyXml = "";
    if (any && Array.isArray(obj["$any"])) {
      const out: string[] = [];
      for (const node of obj["$any"] as XmlNode[]) writeNode(out, node, ns);
      anyXml = out.join("");
    }
    content += writeFields(fields, obj, own, anyAt, anyXml);
    return content === "" ? start + " />" : start + ">" + content + close;
  };
}

// ---- public entry points ----

const fieldCache = new WeakMap<FieldDesc, Map<string, FieldWriter>>();

/** Appends the XML of every occurrence of field `f` holding `value` to `out`. */
export function writeField(
  out: string[],
  f: FieldDesc,
  value: unknown,
  parentNs: string,
  path: string,
): void {
  let byNs = fieldCache.get(f);
  if (!byNs) fieldCache.set(f, (byNs = new Map()));
  let w = byNs.get(parentNs);
  if (!w) byNs.set(parentNs, (w = fieldWriter(f, parentNs)));
  const write = w;
  out.push(run(path, () => write(value)));
}

/**
 * Appends one element. `extra` is inserted into the start tag verbatim (namespace declarations of a
 * document's root element). `path` names the value in error messages.
 */
export function writeElement(
  out: string[],
  name: string,
  ns: string,
  parentNs: string,
  type: TypeDesc,
  value: unknown,
  nillable: boolean,
  path: string,
  extra: string,
): void {
  if (value === null) {
    if (!nillable) throw new ValueFormatError(`${path} is not nillable; null cannot be written`);
    out.push(startTag(name, ns, parentNs, extra) + ' xsi:nil="true" />');
    return;
  }
  const write = elementWriter(name, ns, parentNs, type, extra);
  out.push(run(path, () => write(value)));
}

/**
 * The XML of one occurrence of field `f` inside an element of namespace `parentNs`, null as nil
 * where it is nillable: a streamed result's items (server/stream.ts), written item by item with
 * the writer of the whole result. `path` names the item in error messages.
 */
export function writeOccurrence(f: FieldDesc, parentNs: string, value: unknown, path: string) {
  let byNs = occurrenceCache.get(f);
  if (!byNs) occurrenceCache.set(f, (byNs = new Map()));
  let w = byNs.get(parentNs);
  if (!w) byNs.set(parentNs, (w = occurrenceWriter(f, parentNs)));
  const write = w;
  return run(path, () => write(value));
}
const occurrenceCache = new WeakMap<FieldDesc, Map<string, ElementWriter>>();
