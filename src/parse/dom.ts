/**
 * The element tree the parser reads WSDL and XSD documents into: namespace-resolved, each element
 * located (line and column of its `<`), built by the runtime's own tokenizer, which refuses DTDs
 * and checks well-formedness. Only what stage one reads is kept: elements, their attributes and
 * in-scope namespaces, and text (comments and processing instructions are dropped, and so is text
 * of white space alone outside documentation: see `keepsSpace`).
 */
import {
  isXmlSpace,
  tokenizeXml,
  type XmlAttribute,
  type XmlTag,
} from "@wsdl-tsgen/runtime/internal";
import { NS } from "./namespaces.js";

/** The children of an element that has none, shared: nothing is ever added to it. */
const NO_CHILDREN: readonly (XmlElement | string)[] = Object.freeze([]);
const NO_ELEMENTS: readonly XmlElement[] = Object.freeze([]);

export class XmlElement {
  constructor(
    /** The name as written, prefix included. */
    readonly tagName: string,
    readonly localName: string,
    /** The element's namespace; null for none, as in the DOM. */
    readonly namespaceURI: string | null,
    private readonly attributeList: readonly XmlAttribute[],
    private readonly scope: Readonly<Record<string, string>>,
    readonly lineNumber: number,
    readonly columnNumber: number,
    /**
     * Child elements and texts (CDATA included), in document order. Set once, when the element
     * closes, to an array of exactly their number (see buildDocument).
     */
    readonly children: readonly (XmlElement | string)[] = NO_CHILDREN,
  ) {}

  #byName: Map<string, string> | undefined;

  /** An attribute's value by qualified name; null when absent, as in the DOM. */
  getAttribute(name: string): string | null {
    const list = this.attributeList;
    if (list.length <= 16) {
      for (const a of list) if (a.name === name) return a.value;
      return null;
    }
    // Many attributes (the readers ask for several by name): an index, so each costs one lookup.
    this.#byName ??= new Map(list.map((a) => [a.name, a.value]));
    return this.#byName.get(name) ?? null;
  }

  /** An attribute's value by namespace and local name (`wsdl:arrayType`, whatever its prefix). */
  getAttributeNS(ns: string, local: string): string | null {
    for (const a of this.attributeList) if (a.local === local && a.uri === ns) return a.value;
    return null;
  }

  /** The namespace `prefix` ("" for the default one) is bound to here; null when none is. */
  lookupNamespaceURI(prefix: string): string | null {
    const ns = this.scope[prefix];
    return ns === undefined || ns === "" ? null : ns;
  }

  #elements: readonly XmlElement[] | undefined;

  /** The element children, in document order (read once the tree is built: they are kept). */
  get elements(): readonly XmlElement[] {
    if (this.#elements === undefined) {
      const children = this.children;
      if (children.length === 0) return (this.#elements = NO_ELEMENTS);
      // Outside documentation most elements hold elements only: their children are the list.
      if (!children.some(isText)) return (this.#elements = children as readonly XmlElement[]);
      const out: XmlElement[] = [];
      for (const c of children) if (typeof c !== "string") out.push(c);
      this.#elements = out;
    }
    return this.#elements;
  }

  /** All the text inside, descendants' included, as the DOM's textContent. */
  get textContent(): string {
    let s = "";
    for (const c of this.children) s += typeof c === "string" ? c : c.textContent;
    return s;
  }
}

export interface XmlDocument {
  readonly documentElement: XmlElement;
}

/** Whether `t` is XML white space alone. */
function isSpace(t: string): boolean {
  for (let i = 0; i < t.length; i++) if (!isXmlSpace(t.charCodeAt(i))) return false;
  return true;
}

/**
 * Whether text of white space alone is kept in `tag`'s element: in documentation (of XSD or WSDL),
 * the only text the readers read, descendants' included. Elsewhere it is dropped, which leaves most
 * elements' children their elements alone (a 2 MiB WSDL: 40,000 of 72,000 children were such text).
 */
const keepsSpace = (tag: XmlTag): boolean =>
  tag.local === "documentation" && (tag.uri === NS.xsd || tag.uri === NS.wsdl);

const isText = (c: XmlElement | string): c is string => typeof c === "string";

/** Sets an element's children, once, as it closes. */
const setChildren = (el: XmlElement, children: readonly (XmlElement | string)[]): void => {
  (el as { children: readonly (XmlElement | string)[] }).children = children;
};

/** Builds the tree from the tokenizer's events (see buildDocument). */
class TreeBuilder {
  root: XmlElement | undefined;
  private readonly stack: XmlElement[] = [];
  /**
   * The children of the open elements, one element's after another's, each starting at its entry
   * in `starts`: an element gets an array of exactly its children when it closes, not one grown by
   * pushes to room for 17.
   */
  private readonly pending: (XmlElement | string)[] = [];
  private readonly starts: number[] = [];
  /** The depth of the documentation element white space is kept in, or -1 outside one. */
  private keepSpaceAt = -1;
  // Positions advance with the document: count the lines passed since the last element.
  private line = 1;
  private lineStart = 0;
  private scanned = 0;

  constructor(
    private readonly source: string,
    private readonly maxDepth: number,
    private readonly tooDeep: (line: number, column: number) => never,
  ) {}

  open(tag: XmlTag): void {
    const el = this.element(tag, NO_CHILDREN);
    if (this.keepSpaceAt === -1 && keepsSpace(tag)) this.keepSpaceAt = this.stack.length;
    this.stack.push(el);
    this.starts.push(this.pending.length);
  }

  /** An element of text only, at once: no stack push and pop, no separate text event. */
  leaf(tag: XmlTag, t: string): void {
    const dropped = t === "" || (this.keepSpaceAt === -1 && !keepsSpace(tag) && isSpace(t));
    this.element(tag, dropped ? NO_CHILDREN : [t]);
  }

  close(): void {
    const el = this.stack.pop()!;
    const start = this.starts.pop()!;
    const { pending } = this;
    if (pending.length > start) {
      setChildren(el, pending.slice(start));
      pending.length = start;
    }
    if (this.stack.length === this.keepSpaceAt) this.keepSpaceAt = -1;
  }

  text(t: string): void {
    if (this.keepSpaceAt === -1 && isSpace(t)) return;
    const { pending } = this;
    const last = pending.length - 1;
    if (last >= this.starts[this.starts.length - 1]! && typeof pending[last] === "string")
      pending[last] += t;
    else pending.push(t);
  }

  /** A new element for `tag`, added to its parent's children (pending) or made the root. */
  private element(tag: XmlTag, children: readonly (XmlElement | string)[]): XmlElement {
    this.locate(tag.offset);
    const column = tag.offset - this.lineStart + 1;
    if (this.stack.length >= this.maxDepth) this.tooDeep(this.line, column);
    const uri = tag.uri === "" ? null : tag.uri;
    const el = new XmlElement(
      tag.name,
      tag.local,
      uri,
      tag.attributes,
      tag.scope,
      this.line,
      column,
      children,
    );
    if (this.stack.length > 0) this.pending.push(el);
    else this.root = el;
    return el;
  }

  private locate(offset: number): void {
    const text = this.source;
    for (
      let i = text.indexOf("\n", this.scanned);
      i !== -1 && i < offset;
      i = text.indexOf("\n", i + 1)
    ) {
      this.line++;
      this.lineStart = i + 1;
    }
    this.scanned = offset;
  }
}

/**
 * Reads `text` into an element tree; throws the tokenizer's XmlSyntaxError for malformed XML, and
 * calls `tooDeep` (which must throw) for the first element nested deeper than `maxDepth`. `assumed`
 * binds prefixes that no declaration in the document binds.
 */
export function buildDocument(
  text: string,
  maxDepth: number,
  tooDeep: (line: number, column: number) => never,
  assumed?: Readonly<Record<string, string>>,
): XmlDocument {
  const builder = new TreeBuilder(text, maxDepth, tooDeep);
  tokenizeXml(text, builder, assumed);
  // tokenizeXml refuses a document without a root element.
  return { documentElement: builder.root! };
}
