/**
 * Writes values as XML, driven by descriptors. Elements never use prefixes: a change of namespace
 * is a default-namespace declaration, as ASMX writes it (`<GetMessages xmlns="…">`).
 *
 * Each (type, enclosing namespace) pair is compiled once into closures that know their tags,
 * occurrence rules and scalar formatter, so writing a value is string concatenation without
 * per-value dispatch on the descriptor. Error paths (`GetMessagesResult[3].DateArrived`) are built
 * only when a value does not fit.
 */
import {
  familyMemberByTag,
  type ArrayDesc,
  type ComplexDesc,
  type FieldDesc,
  type ScalarDesc,
  type TypeDesc,
} from "./descriptors.js";
import type { XmlNode } from "./xml-reader.js";
import {
  formatScalar,
  parseScalar,
  QUICK_STRING,
  quickForm,
  quickText,
  scalarFormatter,
  ValueFormatError,
  type QuickForm,
} from "./scalars.js";
import { isInheritedName, ownValue } from "./own-props.js";

export const XSI_NS = "http://www.w3.org/2001/XMLSchema-instance";
export const XSD_NS = "http://www.w3.org/2001/XMLSchema";
export const SOAP_ENC_NS = "http://schemas.xmlsoap.org/soap/encoding/";

/** Characters that element text (`TEXT_SPECIAL`) or an attribute value must escape or refuse. */
const TEXT_SPECIAL = /[&<>\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/g;
const ATTR_SPECIAL = /[&<>"\r\n\t\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/g;

/**
 * Escapes text for XML, jumping from one special character to the next. Element text escapes `&`,
 * `<`, `>` and CR (quotes and non-ASCII stay literal, as ASMX writes them); attribute values also
 * escape `"`, LF and TAB. Characters XML 1.0 cannot carry at all are refused.
 */
function escape(s: string, re: RegExp): string {
  // `test` rather than `exec`: each special character is one code unit, found at lastIndex - 1,
  // and no match array is made for it (about a fifth of the time on text full of markup
  // characters).
  re.lastIndex = 0;
  if (!re.test(s)) return s;
  let out = "";
  let last = 0;
  do {
    const i = re.lastIndex - 1;
    const c = s.charCodeAt(i);
    let rep: string;
    if (c === 38) rep = "&amp;";
    else if (c === 60) rep = "&lt;";
    else if (c === 62) rep = "&gt;";
    else if (c === 13) rep = "&#xD;";
    else if (c === 34) rep = "&quot;";
    else if (c === 10) rep = "&#xA;";
    else if (c === 9) rep = "&#x9;";
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff))
        throw new ValueFormatError("the text contains an unpaired surrogate");
      re.lastIndex = i + 2;
      continue;
    } else
      throw new ValueFormatError("the text contains a character that XML 1.0 cannot represent");
    out += s.slice(last, i) + rep;
    last = i + 1;
  } while (re.test(s));
  return out + s.slice(last);
}

/** Escapes element text minimally (`&`, `<`, `>`, CR), keeping quotes and non-ASCII literal. */
export function escapeText(s: string): string {
  return escape(s, TEXT_SPECIAL);
}

export function escapeAttr(s: string): string {
  return escape(s, ATTR_SPECIAL);
}

// ---- errors with lazily built paths ----

/**
 * Thrown inside compiled writers; the path is completed while it unwinds, then made a
 * ValueFormatError.
 */
class Misfit {
  readonly segments: string[] = [];
  constructor(readonly message: (path: string) => string) {}
}

function misfit(message: (path: string) => string): never {
  throw new Misfit(message);
}

/** Runs `write`, adding `segment` (".prop" or "[i]") to the path of a misfit it throws. */
function within(segment: string, e: unknown): never {
  if (e instanceof Misfit) {
    e.segments.push(segment);
    throw e;
  }
  if (e instanceof ValueFormatError) {
    const m = new Misfit((p) => `${p}: ${e.message}`);
    m.segments.push(segment);
    throw m;
  }
  throw e;
}

function pathOf(base: string, segments: readonly string[]): string {
  let p = base;
  for (let i = segments.length - 1; i >= 0; i--) {
    const s = segments[i]!;
    p = s.startsWith("[") ? p + s : p === "" ? s : `${p}.${s}`;
  }
  return p;
}

function run(base: string, write: () => string): string {
  try {
    return write();
  } catch (e) {
    if (e instanceof Misfit) throw new ValueFormatError(e.message(pathOf(base, e.segments)));
    if (e instanceof ValueFormatError && base !== "")
      throw new ValueFormatError(`${base}: ${e.message}`);
    throw e;
  }
}

// ---- compiled writers ----

type Text = (value: unknown) => string;
/** Writes one element (start tag to end tag) holding a non-null value. */
type ElementWriter = (value: unknown) => string;
/** Writes every occurrence of a field, from its property value; "" when absent. */
type FieldWriter = (value: unknown) => string;

const ESCAPED_KINDS = new Set(["string", "anyType"]);

/**
 * The lexical form of a scalar value, checked against its enumeration (each item's, for a list),
 * not yet escaped.
 */
function compileText(desc: ScalarDesc): Text {
  const kind = desc.s;
  const values = desc.values;
  let item: Text = scalarFormatter(kind);
  if (values) {
    const unchecked = item;
    item = (value) => {
      const t = unchecked(value);
      if (!values.includes(t))
        throw new ValueFormatError(
          `'${t}' is not one of ${values.map((v) => `'${v}'`).join(", ")}`,
        );
      return t;
    };
  }
  if (!desc.list) return item;
  return (value) => {
    if (!Array.isArray(value))
      throw new ValueFormatError(`expected an array for the xs:list of ${kind}`);
    return value.map(item).join(" ");
  };
}

const textCache = new WeakMap<ScalarDesc, Text>();
/** The text of a scalar value, unescaped (for attributes, which escape it as attribute values). */
function textOf(desc: ScalarDesc): Text {
  let t = textCache.get(desc);
  if (!t) textCache.set(desc, (t = compileText(desc)));
  return t;
}

const contentTextCache = new WeakMap<ScalarDesc, Text>();
/**
 * The text of a scalar value as element content. Only strings (and lists of them) can hold
 * characters to escape: every other kind's lexical form is plain ASCII without markup.
 */
function contentTextOf(desc: ScalarDesc): Text {
  let t = contentTextCache.get(desc);
  if (!t) {
    const raw = textOf(desc);
    const kind = desc.s;
    // A plain string is escaped as it is: one call per value rather than three.
    if (ESCAPED_KINDS.has(kind) && !desc.list && !desc.values)
      t = (value) =>
        escape(typeof value === "string" ? value : formatScalar(kind, value), TEXT_SPECIAL);
    else t = ESCAPED_KINDS.has(kind) || desc.list ? (value) => escapeText(raw(value)) : raw;
    contentTextCache.set(desc, t);
  }
  return t;
}

/**
 * An element of a scalar type: its tags, and its text, a common value's written by direct calls
 * (`quick`), where `text` is a closure whose target varies from element to element.
 */
interface ScalarElement {
  readonly gt: string;
  readonly empty: string;
  readonly close: string;
  readonly quick: QuickForm;
  readonly text: Text;
}

/** No value is quick: a list's text is written item by item, an enumeration's checked. */
const NOT_QUICK: QuickForm = { q: 0, lo: 0, hi: 0 };

function scalarElement(type: ScalarDesc, open: string, close: string): ScalarElement {
  const quick = type.list || type.values ? NOT_QUICK : quickForm(type.s);
  return {
    gt: open + ">",
    empty: open + " />",
    close,
    quick,
    text: contentTextOf(type),
  };
}

/** One element of a scalar type holding `value` (not null). */
function writeScalar(e: ScalarElement, value: unknown): string {
  let t = quickText(e.quick, value);
  if (t === undefined) t = e.text(value);
  // Of the quick forms, only a string's can hold markup.
  else if (e.quick.q === QUICK_STRING) t = escape(t, TEXT_SPECIAL);
  return t === "" ? e.empty : e.gt + t + e.close;
}

/** The writer of elements of a scalar type. */
function scalarWriter(type: ScalarDesc, ns: string): ElementWriterFactory {
  if (type.s !== "anyType" || type.list) {
    return (open, close) => {
      const e = scalarElement(type, open, close);
      return (value) => writeScalar(e, value);
    };
  }
  return (open, close) => {
    const e = scalarElement(type, open, close);
    return (value) => {
      // xs:anyType holding a tree (as read): its attributes and children inside this element.
      if (typeof value === "object" && value !== null && Array.isArray((value as XmlNode).children))
        return treeContent(open, close, value as XmlNode, ns);
      return writeScalar(e, value);
    };
  };
}

/** Compiled writers by type and by the namespace of the element that holds the type. */
const contentCache = new WeakMap<TypeDesc, Map<string, ElementWriterFactory>>();
type ElementWriterFactory = (open: string, close: string) => ElementWriter;

function startTag(name: string, ns: string, parentNs: string, extra: string): string {
  let tag = "<" + name;
  if (ns !== parentNs) tag += ns === "" ? ' xmlns=""' : ` xmlns="${escapeAttr(ns)}"`;
  return tag + extra;
}

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
      const mns = member.family!.ns;
      const xsiType =
        mns === ""
          ? ` xsi:type="${escapeAttr(member.name)}"`
          : ` xmlns:t="${escapeAttr(mns)}" xsi:type="t:${escapeAttr(member.name)}"`;
      w = factoryOf(member, ns)(open + xsiType, close);
      members.set(tag, w);
      return w;
    };
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
        return writeOwn(value);
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

/**
 * The `xsi:type` a SOAP-encoded value carries (see FieldDesc.xsiType): XML Schema's types with the
 * envelope's `xsd` prefix, others with a prefix declared beside it.
 */
function xsiTypeAttr(f: FieldDesc): string {
  const t = f.xsiType;
  if (t === undefined) return "";
  const type = escapeAttr(t.type);
  if (t.ns === XSD_NS) return ` xsi:type="xsd:${type}"`;
  return ` xmlns:xt="${escapeAttr(t.ns)}" xsi:type="xt:${type}"`;
}

/** Refuses an array of fewer items than the element's minOccurs, or more than its maxOccurs. */
function checkCount(n: number, min: number, max: number): void {
  if (n < min)
    misfit((p) => `${p} needs at least ${min} item${min === 1 ? "" : "s"} (minOccurs); got ${n}`);
  if (n > max)
    misfit((p) => `${p} takes at most ${max} item${max === 1 ? "" : "s"} (maxOccurs); got ${n}`);
}

/**
 * A field as most are: at most one element of a scalar type other than xs:anyType, with no fixed
 * value, substitutes or xsi:type. The complex writer writes it with a direct call, where a compiled
 * field writer is a call through a closure whose target varies.
 */
interface PlainField extends ScalarElement {
  readonly prop: string;
  readonly nil: string;
  readonly nillable: boolean;
  readonly required: boolean;
}

function plainField(f: FieldDesc, parentNs: string): PlainField | undefined {
  const t = f.type;
  if (f.max > 1 || f.substitutes || f.fixed !== undefined || f.xsiType || t.k !== "scalar")
    return undefined;
  if (t.s === "anyType" && !t.list) return undefined;
  const open = startTag(f.name, f.ns, parentNs, "");
  return {
    ...scalarElement(t, open, "</" + f.name + ">"),
    prop: f.prop,
    nil: open + ' xsi:nil="true" />',
    nillable: f.nillable,
    required: f.min > 0,
  };
}

/** A single field left out (undefined) or null: its nil element or nothing; refused if required. */
function absent(
  value: null | undefined,
  nillable: boolean,
  nil: string,
  required: boolean,
): string {
  if (value === null && nillable) return nil;
  if (required) misfit((p) => `${p} is required`);
  return "";
}

/** A plain field's element holding `value`, its nil element, or nothing. */
function writePlain(f: PlainField, value: unknown): string {
  if (value === undefined || value === null) return absent(value, f.nillable, f.nil, f.required);
  return writeScalar(f, value);
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

/** The writer of a field that is not plain (see plainField): repeated, substitutable or complex. */
function otherFieldWriter(f: FieldDesc, parentNs: string): FieldWriter {
  const write = f.substitutes
    ? substitutionWriter(f, parentNs)
    : elementWriter(f.name, f.ns, parentNs, f.type, xsiTypeAttr(f));
  const nil = startTag(f.name, f.ns, parentNs, "") + ' xsi:nil="true" />';
  const { min, max, nillable, prop } = f;
  const one = (v: unknown): string => {
    if (v === null) {
      if (!nillable) misfit((p) => `${p} is not nillable; null cannot be written`);
      return nil;
    }
    return write(v);
  };
  if (f.max > 1) {
    return (value) => {
      try {
        if (value === undefined || value === null) {
          if (min > 0)
            misfit((p) => `${p} is required (at least ${min} item${min === 1 ? "" : "s"})`);
          return "";
        }
        if (!Array.isArray(value)) misfit((p) => `${p} must be an array`);
        checkCount(value.length, min, max);
        let s = "";
        for (let i = 0; i < value.length; i++) {
          try {
            s += one(value[i]);
          } catch (e) {
            within(`[${i}]`, e);
          }
        }
        return s;
      } catch (e) {
        return within(prop, e);
      }
    };
  }
  const fixed =
    f.fixed !== undefined && f.type.k === "scalar" ? fixedText(f.type, f.fixed) : undefined;
  if (fixed) {
    // The schema's fixed value: written when a required element is left out, and the only value
    // accepted.
    return (value) => {
      try {
        if (value === undefined || (value === null && !nillable))
          return min > 0 ? write(fixed.value) : "";
        if (value !== null) fixed.check(value);
        return one(value);
      } catch (e) {
        return within(prop, e);
      }
    };
  }
  return (value) => {
    try {
      if (value === undefined || value === null) return absent(value, nillable, nil, min > 0);
      return write(value);
    } catch (e) {
      return within(prop, e);
    }
  };
}

/**
 * A fixed value: as a value to write, and a check that refuses any other (compared in lexical
 * form).
 */
function fixedText(
  desc: ScalarDesc,
  lexical: string,
): { readonly value: unknown; check(value: unknown): void } {
  const text = textOf(desc);
  const value = parseScalar(desc.s, lexical);
  const expected = text(value);
  return {
    value,
    check(v) {
      const got = text(v);
      if (got !== expected)
        misfit((p) => `${p} is fixed at '${expected}' by the schema; got '${got}'`);
    },
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

function complexField(f: FieldDesc, ns: string): ComplexField {
  const plain = plainField(f, ns);
  return { prop: f.prop, plain, write: plain ? undefined : otherFieldWriter(f, ns) };
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
  const fields = type.fields.map((f) => complexField(f, ns));
  const attrs = type.attrs.map((a) => ({
    ...a,
    text: textOf(a.type),
    fixedValue: a.fixed !== undefined ? fixedText(a.type, a.fixed) : undefined,
  }));
  // A property named like one every object inherits (`constructor`) is read as an own one
  // (own-props.ts).
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
      else {
        const prefix = `a${prefixes++}`;
        s += ` xmlns:${prefix}="${escapeAttr(a.ns)}" ${prefix}:${a.name}="${t}"`;
      }
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
 * The attributes of a tree node, written (a qualified one with a prefix declared beside it, so the
 * tree stands alone).
 */
function nodeAttrs(node: XmlNode): string {
  let s = "";
  // The bindings values rely on (xsi:type="sf:Account"), then the attributes, each namespaced one
  // with a prefix of its own that none of those bindings uses.
  const kept = node.prefixes ?? {};
  for (const [prefix, uri] of Object.entries(kept)) s += ` xmlns:${prefix}="${escapeAttr(uri)}"`;
  let prefixes = 0;
  const prefix = (): string => {
    let p = `n${prefixes++}`;
    while (Object.hasOwn(kept, p)) p = `n${prefixes++}`;
    return p;
  };
  for (const [key, v] of Object.entries(node.attrs)) s += bagAttr(key, v, prefix);
  return s;
}

const CLARK = /^\{([^}]*)\}(.+)$/;

/**
 * One attribute of a bag keyed by Clark name (`{ns}local`, or `local` for no namespace), written;
 * a namespaced one with a prefix from `prefix()` declared beside it, so that it stands alone.
 */
function bagAttr(key: string, value: string, prefix: () => string): string {
  const m = CLARK.exec(key);
  if (!m || !m[1]) return ` ${m ? m[2] : key}="${escapeAttr(value)}"`;
  const p = prefix();
  return ` xmlns:${p}="${escapeAttr(m[1])}" ${p}:${m[2]}="${escapeAttr(value)}"`;
}

/** The children of a tree node, written inside an element of namespace `ns`. */
function nodeChildren(out: string[], node: XmlNode, ns: string): void {
  for (const c of node.children) {
    if (typeof c === "string") out.push(escapeText(c));
    else writeNode(out, c, ns);
  }
}

/** An element (start tag `open`, end tag `close`) holding what tree `node` holds. */
function treeContent(open: string, close: string, node: XmlNode, ns: string): string {
  const start = open + nodeAttrs(node);
  if (node.children.length === 0) return start + " />";
  const out = [start, ">"];
  nodeChildren(out, node, ns);
  out.push(close);
  return out.join("");
}

/** Appends a raw XML tree (content kept by `xs:any`). */
export function writeNode(out: string[], node: XmlNode, parentNs: string): void {
  let tag = "<" + node.local;
  if (node.ns !== parentNs) tag += node.ns === "" ? ' xmlns=""' : ` xmlns="${escapeAttr(node.ns)}"`;
  tag += nodeAttrs(node);
  if (node.children.length === 0) {
    out.push(tag, " />");
    return;
  }
  out.push(tag, ">");
  nodeChildren(out, node, node.ns);
  out.push("</" + node.local + ">");
}
