/**
 * The writer's leaves: scalar text and elements, plain fields, fixed values, occurrence checks, and
 * the misfit errors whose paths (`GetMessagesResult[3].DateArrived`) the compiled writers build.
 */
import type { FieldDesc, ScalarDesc } from "../descriptors/types.js";
import {
  formatScalar,
  parseScalar,
  QUICK_STRING,
  quickForm,
  quickText,
  scalarFormatter,
  ValueFormatError,
  type QuickForm,
} from "../scalars/scalars.js";
import { escape, escapeAttr, escapeText, TEXT_SPECIAL } from "./escape.js";
import { XSD_NS } from "./namespaces.js";
import type { XmlNode } from "../support/xml-node.js";
import { isPartContent, type PartContent } from "../support/message-parts.js";
import { treeContent } from "./write-tree.js";

/**
 * Thrown inside compiled writers; the path is completed while it unwinds, then made a
 * ValueFormatError.
 */
export class Misfit {
  readonly segments: string[] = [];
  constructor(readonly message: (path: string) => string) {}
}

export function misfit(message: (path: string) => string): never {
  throw new Misfit(message);
}

/** Runs `write`, adding `segment` (".prop" or "[i]") to the path of a misfit it throws. */
export function within(segment: string, e: unknown): never {
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

export function pathOf(base: string, segments: readonly string[]): string {
  let p = base;
  for (let i = segments.length - 1; i >= 0; i--) {
    const s = segments[i]!;
    p = s.startsWith("[") ? p + s : p === "" ? s : `${p}.${s}`;
  }
  return p;
}

export function run(base: string, write: () => string): string {
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

export type Text = (value: unknown) => string;
/** Writes one element (start tag to end tag) holding a non-null value. */
export type ElementWriter = (value: unknown) => string;
/** Writes every occurrence of a field, from its property value; "" when absent. */
export type FieldWriter = (value: unknown) => string;

export const ESCAPED_KINDS = new Set(["string", "anyType"]);

/**
 * The lexical form of a scalar value, checked against its enumeration (each item's, for a list),
 * not yet escaped.
 */
export function compileText(desc: ScalarDesc): Text {
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

export const textCache = new WeakMap<ScalarDesc, Text>();
/** The text of a scalar value, unescaped (for attributes, which escape it as attribute values). */
export function textOf(desc: ScalarDesc): Text {
  let t = textCache.get(desc);
  if (!t) textCache.set(desc, (t = compileText(desc)));
  return t;
}

/**
 * While an MTOM message is written: what a base64Binary element's content is instead of its text
 * (an `xop:Include`), or undefined to write the text. Writes are synchronous: set around one.
 */
let binaryPart: ((bytes: PartContent) => string | undefined) | undefined;

/** Runs `write` with base64Binary element content going through `part` (see binaryPart). */
export function withBinaryParts<T>(
  part: (bytes: PartContent) => string | undefined,
  write: () => T,
): T {
  const before = binaryPart;
  binaryPart = part;
  try {
    return write();
  } finally {
    binaryPart = before;
  }
}

export const contentTextCache = new WeakMap<ScalarDesc, Text>();
/**
 * The text of a scalar value as element content. Only strings (and lists of them) can hold
 * characters to escape: every other kind's lexical form is plain ASCII without markup.
 */
export function contentTextOf(desc: ScalarDesc): Text {
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
export interface ScalarElement {
  readonly gt: string;
  readonly empty: string;
  readonly close: string;
  readonly quick: QuickForm;
  readonly text: Text;
}

/** No value is quick: a list's text is written item by item, an enumeration's checked. */
export const NOT_QUICK: QuickForm = { q: 0, lo: 0, hi: 0 };

export function scalarElement(type: ScalarDesc, open: string, close: string): ScalarElement {
  const quick = type.list || type.values ? NOT_QUICK : quickForm(type.s);
  return {
    gt: open + ">",
    empty: open + " />",
    close,
    quick,
    text:
      type.s === "base64Binary" && !type.list
        ? partOrText(contentTextOf(type))
        : contentTextOf(type),
  };
}

/**
 * A base64Binary element's text, or its MTOM part while one is written: an element of its own only,
 * since XOP reads an Include in place of an element's whole content, not of a type's `$value`.
 */
const partOrText =
  (text: Text): Text =>
  (value) =>
    (binaryPart !== undefined && isPartContent(value) && binaryPart(value)) || text(value);

/** One element of a scalar type holding `value` (not null). */
export function writeScalar(e: ScalarElement, value: unknown): string {
  let t = quickText(e.quick, value);
  if (t === undefined) t = e.text(value);
  // Of the quick forms, only a string's can hold markup.
  else if (e.quick.q === QUICK_STRING) t = escape(t, TEXT_SPECIAL);
  return t === "" ? e.empty : e.gt + t + e.close;
}

/** The writer of elements of a scalar type. */
export function scalarWriter(type: ScalarDesc, ns: string): ElementWriterFactory {
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

export type ElementWriterFactory = (open: string, close: string) => ElementWriter;

export function startTag(name: string, ns: string, parentNs: string, extra: string): string {
  let tag = "<" + name;
  if (ns !== parentNs) tag += ns === "" ? ' xmlns=""' : ` xmlns="${escapeAttr(ns)}"`;
  return tag + extra;
}

/**
 * The `xsi:type` a SOAP-encoded value carries (see FieldDesc.xsiType): XML Schema's types with the
 * envelope's `xsd` prefix, others with a prefix declared beside it.
 */
export function xsiTypeAttr(f: FieldDesc): string {
  const t = f.xsiType;
  if (t === undefined) return "";
  const type = escapeAttr(t.type);
  if (t.ns === XSD_NS) return ` xsi:type="xsd:${type}"`;
  return ` xmlns:xt="${escapeAttr(t.ns)}" xsi:type="xt:${type}"`;
}

/** Refuses an array of fewer items than the element's minOccurs, or more than its maxOccurs. */
export function checkCount(n: number, min: number, max: number): void {
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
export interface PlainField extends ScalarElement {
  readonly prop: string;
  readonly nil: string;
  readonly nillable: boolean;
  readonly required: boolean;
}

export function plainField(f: FieldDesc, parentNs: string): PlainField | undefined {
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
export function absent(
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
export function writePlain(f: PlainField, value: unknown): string {
  if (value === undefined || value === null) return absent(value, f.nillable, f.nil, f.required);
  return writeScalar(f, value);
}

/**
 * A fixed value: as a value to write, and a check that refuses any other (compared in lexical
 * form).
 */
export function fixedText(
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
