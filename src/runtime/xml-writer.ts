/**
 * Writes values as XML, driven by descriptors. Elements never use prefixes: a change of namespace
 * is a default-namespace declaration, as ASMX writes it (`<GetMessages xmlns="…">`).
 */
import type { ComplexDesc, FieldDesc, ScalarDesc, TypeDesc } from "./descriptors.js";
import type { XmlNode } from "./xml-reader.js";
import { formatScalar, ValueFormatError } from "./scalars.js";

export const XSI_NS = "http://www.w3.org/2001/XMLSchema-instance";
export const XSD_NS = "http://www.w3.org/2001/XMLSchema";

/**
 * Escapes text for XML in one pass. Element text escapes `&`, `<`, `>` and CR (quotes and non-ASCII
 * stay literal, as ASMX writes them); attribute values also escape `"`, LF and TAB. Characters XML 1.0
 * cannot carry at all are refused.
 */
function escape(s: string, attribute: boolean): string {
  let out = "";
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x3e && c < 0xd800) continue;
    let rep: string;
    if (c === 38) rep = "&amp;";
    else if (c === 60) rep = "&lt;";
    else if (c === 62) rep = "&gt;";
    else if (c === 13) rep = "&#xD;";
    else if (attribute && c === 34) rep = "&quot;";
    else if (attribute && c === 10) rep = "&#xA;";
    else if (attribute && c === 9) rep = "&#x9;";
    else if (c < 0x20 && c !== 9 && c !== 10) throw new ValueFormatError("the text contains a character that XML 1.0 cannot represent");
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) throw new ValueFormatError("the text contains an unpaired surrogate");
      i++;
      continue;
    } else if ((c >= 0xdc00 && c <= 0xdfff) || c === 0xfffe || c === 0xffff) {
      throw new ValueFormatError("the text contains a character that XML 1.0 cannot represent");
    } else continue;
    out += s.slice(last, i) + rep;
    last = i + 1;
  }
  return last === 0 ? s : out + s.slice(last);
}

/** Escapes element text minimally (`&`, `<`, `>`), keeping quotes and non-ASCII literal. */
export function escapeText(s: string): string {
  return escape(s, false);
}

export function escapeAttr(s: string): string {
  return escape(s, true);
}

function scalarText(desc: ScalarDesc, value: unknown, path: string): string {
  try {
    if (desc.list) {
      if (!Array.isArray(value)) throw new ValueFormatError(`expected an array for the xs:list of ${desc.s}`);
      return value.map((v) => formatScalar(desc.s, v)).join(" ");
    }
    const text = formatScalar(desc.s, value);
    if (desc.values && !desc.values.includes(text)) {
      throw new ValueFormatError(`'${text}' is not one of ${desc.values.map((v) => `'${v}'`).join(", ")}`);
    }
    return text;
  } catch (e) {
    throw new ValueFormatError(`${path}: ${(e as Error).message}`);
  }
}

/** Appends the XML of every occurrence of field `f` holding `value` to `out`. */
export function writeField(out: string[], f: FieldDesc, value: unknown, parentNs: string, path: string): void {
  const p = path === "" ? f.prop : `${path}.${f.prop}`;
  if (f.max > 1) {
    if (value === undefined || value === null) {
      if (f.min > 0) throw new ValueFormatError(`${p} is required (at least ${f.min} item${f.min === 1 ? "" : "s"})`);
      return;
    }
    if (!Array.isArray(value)) throw new ValueFormatError(`${p} must be an array`);
    for (let i = 0; i < value.length; i++) writeOne(out, f, value[i], parentNs, `${p}[${i}]`);
    return;
  }
  if (value === undefined || (value === null && !f.nillable)) {
    if (f.min > 0) throw new ValueFormatError(`${p} is required`);
    return;
  }
  writeOne(out, f, value, parentNs, p);
}

function writeOne(out: string[], f: FieldDesc, value: unknown, parentNs: string, path: string): void {
  writeElement(out, f.name, f.ns, parentNs, f.type, value, f.nillable, path, "");
}

/**
 * Appends one element. `extra` is inserted into the start tag verbatim (namespace declarations of a
 * document's root element).
 */
export function writeElement(
  out: string[], name: string, ns: string, parentNs: string, type: TypeDesc, value: unknown, nillable: boolean, path: string, extra: string,
): void {
  let tag = "<" + name;
  if (ns !== parentNs) tag += ns === "" ? ' xmlns=""' : ` xmlns="${escapeAttr(ns)}"`;
  tag += extra;
  if (value === null) {
    if (!nillable) throw new ValueFormatError(`${path} is not nillable; null cannot be written`);
    out.push(tag, ' xsi:nil="true" />');
    return;
  }
  if (type.k === "scalar") {
    const text = scalarText(type, value, path);
    out.push(tag, text === "" ? " />" : ">" + escapeText(text) + "</" + name + ">");
    return;
  }
  if (type.k === "array") {
    if (!Array.isArray(value)) throw new ValueFormatError(`${path} must be an array`);
    if (value.length === 0) {
      out.push(tag, " />");
      return;
    }
    out.push(tag, ">");
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (item === null || item === undefined) {
        if (!type.item.nillable) throw new ValueFormatError(`${path}[${i}] is not nillable`);
        writeElement(out, type.item.name, type.item.ns, ns, type.item.type, null, true, `${path}[${i}]`, "");
      } else {
        writeElement(out, type.item.name, type.item.ns, ns, type.item.type, item, type.item.nillable, `${path}[${i}]`, "");
      }
    }
    out.push("</" + name + ">");
    return;
  }
  writeComplex(out, tag, name, ns, type, value, path);
}

function writeComplex(out: string[], tag: string, name: string, ns: string, type: ComplexDesc, value: unknown, path: string): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ValueFormatError(`${path} must be an object of type ${type.name}`);
  }
  const obj = value as Record<string, unknown>;
  let attrs = "";
  let prefixes = 0;
  for (const a of type.attrs) {
    const v = obj[a.prop];
    if (v === undefined || v === null) {
      if (a.required) throw new ValueFormatError(`${path}.${a.prop} (attribute) is required`);
      continue;
    }
    const text = escapeAttr(scalarText(a.type, v, `${path}.${a.prop}`));
    if (a.ns === "") attrs += ` ${a.name}="${text}"`;
    else {
      const prefix = `a${prefixes++}`;
      attrs += ` xmlns:${prefix}="${escapeAttr(a.ns)}" ${prefix}:${a.name}="${text}"`;
    }
  }
  if (type.anyAttrs && obj["$attributes"]) {
    for (const [key, v] of Object.entries(obj["$attributes"] as Record<string, string>)) {
      const m = /^\{([^}]*)\}(.+)$/.exec(key);
      if (m && m[1]) {
        const prefix = `a${prefixes++}`;
        attrs += ` xmlns:${prefix}="${escapeAttr(m[1])}" ${prefix}:${m[2]}="${escapeAttr(String(v))}"`;
      } else attrs += ` ${m ? m[2] : key}="${escapeAttr(String(v))}"`;
    }
  }
  const start = out.length;
  out.push(tag + attrs, ">");
  const before = out.length;
  if (type.text) {
    const v = obj["$value"];
    if (v !== undefined && v !== null) {
      const text = scalarText(type.text, v, `${path}.$value`);
      if (text !== "") out.push(escapeText(text));
    }
  }
  for (const f of type.fields) writeField(out, f, obj[f.prop], ns, path);
  if (type.any && Array.isArray(obj["$any"])) for (const node of obj["$any"] as XmlNode[]) writeNode(out, node, ns);
  if (out.length === before) {
    out.length = start;
    out.push(tag + attrs, " />");
  } else {
    out.push("</" + name + ">");
  }
}

/** Appends a raw XML tree (content kept by `xs:any`). */
export function writeNode(out: string[], node: XmlNode, parentNs: string): void {
  let tag = "<" + node.local;
  if (node.ns !== parentNs) tag += node.ns === "" ? ' xmlns=""' : ` xmlns="${escapeAttr(node.ns)}"`;
  let prefixes = 0;
  for (const [key, v] of Object.entries(node.attrs)) {
    const m = /^\{([^}]*)\}(.+)$/.exec(key);
    if (m && m[1]) {
      const prefix = `n${prefixes++}`;
      tag += ` xmlns:${prefix}="${escapeAttr(m[1])}" ${prefix}:${m[2]}="${escapeAttr(v)}"`;
    } else tag += ` ${m ? m[2] : key}="${escapeAttr(v)}"`;
  }
  if (node.children.length === 0) {
    out.push(tag, " />");
    return;
  }
  out.push(tag, ">");
  for (const c of node.children) {
    if (typeof c === "string") out.push(escapeText(c));
    else writeNode(out, c, node.ns);
  }
  out.push("</" + node.local + ">");
}
