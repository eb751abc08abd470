/**
 * A small, fast, namespace-aware XML tokenizer for the runtime's hot path. It scans with `indexOf`
 * rather than character by character, and reports elements (with resolved namespaces), text and
 * CDATA. It checks well-formedness (matching tags, one root, no text outside it, unique attributes,
 * bound prefixes, valid references) and refuses any DOCTYPE, so no entity is ever declared or expanded.
 */

export const XMLNS_URI = "http://www.w3.org/2000/xmlns/";
const XML_URI = "http://www.w3.org/XML/1998/namespace";

export interface XmlAttribute {
  readonly name: string;
  readonly prefix: string;
  readonly local: string;
  /** The attribute's namespace; "" when unprefixed. */
  readonly uri: string;
  readonly value: string;
}

export interface XmlTag {
  readonly name: string;
  readonly local: string;
  readonly uri: string;
  readonly attributes: readonly XmlAttribute[];
  /** The namespaces in scope by prefix ("" for the default), to resolve QName values such as `xsi:type`. */
  readonly scope: Readonly<Record<string, string>>;
  /** Where the start tag begins in the document (its `<`), to locate problems with the element. */
  readonly offset: number;
}

/** The tag object the tokenizer reuses for every start tag of one document. */
interface MutableTag {
  name: string;
  local: string;
  uri: string;
  attributes: readonly XmlAttribute[];
  scope: Readonly<Record<string, string>>;
  offset: number;
}

export interface TokenHandler {
  /** A start tag. `tag` is reused for the next one: copy what must outlive the call. */
  open(tag: XmlTag): void;
  close(): void;
  text(text: string): void;
}

export class XmlSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
    this.name = "XmlSyntaxError";
  }
}

const NAME = /^[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_.\-\u00B7-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_.\-\u00B7-\uFFFF]*)?$/;
const INVALID_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function decodeReferences(s: string, offset: number): string {
  // A hand-rolled loop: texts with entities are common (&amp; &lt; &gt;) and regex callbacks are slow.
  let out = "";
  let from = 0;
  for (let amp = s.indexOf("&"); amp !== -1; amp = s.indexOf("&", from)) {
    const semi = s.indexOf(";", amp + 1);
    if (semi === -1 || semi - amp > 12) throw new XmlSyntaxError("a '&' that does not start a valid reference (write &amp;)", offset);
    out += s.slice(from, amp);
    const ref = s.slice(amp + 1, semi);
    if (ref.charCodeAt(0) !== 35) {
      const v = PREDEFINED[ref];
      if (v === undefined) {
        throw new XmlSyntaxError(/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(ref) ? `the entity &${ref}; is not defined (DTDs are refused)` : "a '&' that does not start a valid reference (write &amp;)", offset);
      }
      out += v;
    } else {
      const hex = ref.charCodeAt(1) === 120;
      const digits = ref.slice(hex ? 2 : 1);
      if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) throw new XmlSyntaxError(`&${ref}; is not a valid character reference`, offset);
      const code = parseInt(digits, hex ? 16 : 10);
      if (!(code === 9 || code === 10 || code === 13 || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff))) {
        throw new XmlSyntaxError(`&${ref}; is not a character XML allows`, offset);
      }
      out += String.fromCodePoint(code);
    }
    from = semi + 1;
  }
  return out + s.slice(from);
}

function textValue(raw: string, offset: number): string {
  if (INVALID_CHAR.test(raw)) throw new XmlSyntaxError("a character XML does not allow", offset);
  let s = raw.indexOf("\r") === -1 ? raw : raw.replace(/\r\n?/g, "\n");
  if (s.indexOf("&") !== -1) s = decodeReferences(s, offset);
  return s;
}

/** The open elements: their names and in-scope namespace bindings, as parallel stacks. */
interface Open {
  readonly names: string[];
  readonly scopes: Record<string, string>[];
  /** The bindings in scope at the current position. */
  ns: Record<string, string>;
  readonly tag: MutableTag;
  /** Element names met so far (the first few), reused for later tags of the same name. */
  readonly seenNames: string[];
}

const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13;

// Documents repeat a few names many times: remember the ones already checked (bounded).
const validNames = new Set<string>();
function checkName(name: string): boolean {
  if (validNames.has(name)) return true;
  if (!NAME.test(name)) return false;
  if (validNames.size < 4096) validNames.add(name);
  return true;
}
const NO_ATTRIBUTES: readonly XmlAttribute[] = Object.freeze([]);
const NO_ATTRIBUTES_RAW: readonly { name: string; value: string; at: number }[] = Object.freeze([]);

/** Tokenizes a whole document, calling `h` for every element, text and CDATA section. */
export function tokenizeXml(xml: string, h: TokenHandler): void {
  const n = xml.length;
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  // A prototype-free root scope: a prefix like "constructor" must not resolve to anything.
  const rootNs: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, { xml: XML_URI, "": "" });
  const open: Open = { names: [], scopes: [], ns: rootNs, tag: { name: "", local: "", uri: "", attributes: NO_ATTRIBUTES, scope: rootNs, offset: 0 }, seenNames: [] };
  const names = open.names;
  let sawRoot = false;

  while (i < n) {
    const lt = xml.indexOf("<", i);
    const end = lt === -1 ? n : lt;
    if (end > i) {
      const raw = xml.slice(i, end);
      if (names.length === 0) {
        if (raw.trim() !== "") throw new XmlSyntaxError(sawRoot ? "text after the root element" : "text before the root element", i);
      } else h.text(textValue(raw, i));
    }
    if (lt === -1) break;
    const c = xml.charCodeAt(lt + 1);
    if (c === 63) {
      // <? … ?>: the XML declaration or a processing instruction.
      const close = xml.indexOf("?>", lt + 2);
      if (close === -1) throw new XmlSyntaxError("an unterminated processing instruction", lt);
      i = close + 2;
    } else if (c === 33) {
      if (xml.startsWith("<!--", lt)) {
        const close = xml.indexOf("-->", lt + 4);
        if (close === -1) throw new XmlSyntaxError("an unterminated comment", lt);
        i = close + 3;
      } else if (xml.startsWith("<![CDATA[", lt)) {
        if (names.length === 0) throw new XmlSyntaxError("CDATA outside the root element", lt);
        const close = xml.indexOf("]]>", lt + 9);
        if (close === -1) throw new XmlSyntaxError("an unterminated CDATA section", lt);
        const raw = xml.slice(lt + 9, close);
        if (INVALID_CHAR.test(raw)) throw new XmlSyntaxError("a character XML does not allow", lt);
        h.text(raw.indexOf("\r") === -1 ? raw : raw.replace(/\r\n?/g, "\n"));
        i = close + 3;
      } else if (xml.startsWith("<!DOCTYPE", lt)) {
        throw new XmlSyntaxError("a DOCTYPE declaration; DTDs are refused", lt);
      } else throw new XmlSyntaxError("'<!' that starts no comment or CDATA section", lt);
    } else if (c === 47) {
      const close = xml.indexOf(">", lt + 2);
      if (close === -1) throw new XmlSyntaxError("an unterminated end tag", lt);
      const top = names.pop();
      // Compare in place: the end tag is the open element's name, then optional white space.
      let k = lt + 2 + (top?.length ?? 0);
      if (top === undefined || !xml.startsWith(top, lt + 2) || (k < close && !isSpace(xml.charCodeAt(k)))) {
        const name = xml.slice(lt + 2, close).trimEnd();
        if (top === undefined) throw new XmlSyntaxError(`the end tag </${name}> closes no element`, lt);
        throw new XmlSyntaxError(`the end tag </${name}> does not match <${top}>`, lt);
      }
      while (k < close) {
        if (!isSpace(xml.charCodeAt(k))) throw new XmlSyntaxError(`the end tag </${xml.slice(lt + 2, close).trimEnd()}> does not match <${top}>`, lt);
        k++;
      }
      open.scopes.pop();
      open.ns = open.scopes.length > 0 ? open.scopes[open.scopes.length - 1]! : rootNs;
      h.close();
      i = close + 1;
    } else {
      if (names.length === 0 && sawRoot) throw new XmlSyntaxError("a second root element", lt);
      i = openTag(xml, lt, open, h);
      sawRoot = true;
    }
  }
  if (names.length > 0) throw new XmlSyntaxError(`the element <${names[names.length - 1]!}> is not closed`, n);
  if (!sawRoot) throw new XmlSyntaxError("no root element", n);
}

function openTag(xml: string, lt: number, open: Open, h: TokenHandler): number {
  const parentNs = open.ns;
  const n = xml.length;
  let j = lt + 1;
  while (j < n) {
    const c = xml.charCodeAt(j);
    if (isSpace(c) || c === 62 || c === 47) break;
    j++;
  }
  // Documents repeat a few element names many times: reuse the string of one seen before rather
  // than slicing (and validating) a new one for every start tag.
  let name: string | undefined;
  const length = j - lt - 1;
  const seen = open.seenNames;
  for (let k = 0; k < seen.length; k++) {
    const c = seen[k]!;
    if (c.length === length && xml.startsWith(c, lt + 1)) {
      name = c;
      break;
    }
  }
  if (name === undefined) {
    name = xml.slice(lt + 1, j);
    if (!checkName(name)) throw new XmlSyntaxError(`'<${name}' is not a valid element name`, lt);
    if (seen.length < 32) seen.push(name);
  }
  let raw: { name: string; value: string; at: number }[] | undefined;
  let selfClosing = false;
  for (;;) {
    while (j < n && isSpace(xml.charCodeAt(j))) j++;
    if (j >= n) throw new XmlSyntaxError(`the start tag <${name}> is not terminated`, lt);
    const c = xml.charCodeAt(j);
    if (c === 62) {
      j++;
      break;
    }
    if (c === 47) {
      if (xml.charCodeAt(j + 1) !== 62) throw new XmlSyntaxError(`'/' in the start tag <${name}> not followed by '>'`, j);
      selfClosing = true;
      j += 2;
      break;
    }
    const at = j;
    while (j < n) {
      const d = xml.charCodeAt(j);
      if (d === 61 || isSpace(d) || d === 62 || d === 47) break;
      j++;
    }
    const attrName = xml.slice(at, j);
    if (!checkName(attrName)) throw new XmlSyntaxError(`'${attrName}' is not a valid attribute name in <${name}>`, at);
    while (j < n && isSpace(xml.charCodeAt(j))) j++;
    if (xml.charCodeAt(j) !== 61) throw new XmlSyntaxError(`the attribute ${attrName} in <${name}> has no value`, at);
    j++;
    while (j < n && isSpace(xml.charCodeAt(j))) j++;
    const q = xml.charCodeAt(j);
    if (q !== 34 && q !== 39) throw new XmlSyntaxError(`the value of ${attrName} in <${name}> is not quoted`, j);
    const close = xml.indexOf(q === 34 ? '"' : "'", j + 1);
    if (close === -1) throw new XmlSyntaxError(`the value of ${attrName} in <${name}> is not terminated`, j);
    const v = xml.slice(j + 1, close);
    if (v.indexOf("<") !== -1) throw new XmlSyntaxError(`'<' in the value of ${attrName}`, j);
    raw ??= [];
    for (const r of raw) if (r.name === attrName) throw new XmlSyntaxError(`the attribute ${attrName} appears twice in <${name}>`, at);
    // Attribute-value normalization: literal white space becomes a space; character references survive.
    raw.push({ name: attrName, value: textValue(v.replace(/\r\n|[\t\n\r]/g, " "), j), at });
    j = close + 1;
  }
  // Namespace declarations first, then names resolved against them.
  let ns = parentNs;
  for (const a of raw ?? NO_ATTRIBUTES_RAW) {
    if (a.name === "xmlns" || a.name.startsWith("xmlns:")) {
      if (ns === parentNs) ns = Object.create(parentNs) as Record<string, string>;
      const prefix = a.name.length === 5 ? "" : a.name.slice(6);
      if (prefix !== "" && a.value === "") throw new XmlSyntaxError(`the prefix ${prefix} is bound to an empty namespace`, a.at);
      ns[prefix] = a.value;
    }
  }
  const colon = name.indexOf(":");
  const prefix = colon === -1 ? "" : name.slice(0, colon);
  const uri = ns[prefix];
  if (uri === undefined) throw new XmlSyntaxError(`the prefix ${prefix} of <${name}> is not bound to a namespace`, lt);
  const attributes: readonly XmlAttribute[] = raw === undefined ? NO_ATTRIBUTES : raw.map((a) => {
    if (a.name === "xmlns") return { name: a.name, prefix: "", local: "xmlns", uri: XMLNS_URI, value: a.value };
    const c = a.name.indexOf(":");
    if (c === -1) return { name: a.name, prefix: "", local: a.name, uri: "", value: a.value };
    const p = a.name.slice(0, c);
    const u = p === "xmlns" ? XMLNS_URI : ns[p];
    if (u === undefined) throw new XmlSyntaxError(`the prefix ${p} of attribute ${a.name} is not bound to a namespace`, a.at);
    return { name: a.name, prefix: p, local: a.name.slice(c + 1), uri: u, value: a.value };
  });
  const tag = open.tag;
  tag.name = name;
  tag.local = colon === -1 ? name : name.slice(colon + 1);
  tag.uri = uri;
  tag.attributes = attributes;
  tag.scope = ns;
  tag.offset = lt;
  if (selfClosing) {
    h.open(tag);
    h.close();
    return j;
  }
  open.names.push(name);
  open.scopes.push(ns);
  open.ns = ns;
  h.open(tag);
  return j;
}
