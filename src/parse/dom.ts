/**
 * The element tree the parser reads WSDL and XSD documents into: namespace-resolved, each element
 * located (line and column of its `<`), built by the runtime's own tokenizer, which refuses DTDs
 * and checks well-formedness. Only what stage one reads is kept: elements, their attributes and
 * in-scope namespaces, and text (comments and processing instructions are dropped).
 */
import { tokenizeXml, type XmlAttribute, type XmlTag } from "@wsdl-tsgen/runtime/internal";

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
     * Child elements and texts (CDATA included), in document order: a leaf's are given whole, so
     * that it holds no array grown for children it never gets.
     */
    readonly children: (XmlElement | string)[] = [],
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
      if (this.children.length === 0) return (this.#elements = NO_ELEMENTS);
      const out: XmlElement[] = [];
      for (const c of this.children) if (typeof c !== "string") out.push(c);
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
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  // Positions advance with the document: count the lines passed since the last element.
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  const locate = (offset: number): void => {
    for (
      let i = text.indexOf("\n", scanned);
      i !== -1 && i < offset;
      i = text.indexOf("\n", i + 1)
    ) {
      line++;
      lineStart = i + 1;
    }
    scanned = offset;
  };
  /** A new element for `tag`, added to its parent (the top of the stack) or made the root. */
  const element = (tag: XmlTag, children?: (XmlElement | string)[]): XmlElement => {
    locate(tag.offset);
    if (stack.length >= maxDepth) tooDeep(line, tag.offset - lineStart + 1);
    const el = new XmlElement(
      tag.name,
      tag.local,
      tag.uri === "" ? null : tag.uri,
      tag.attributes,
      tag.scope,
      line,
      tag.offset - lineStart + 1,
      children,
    );
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else root = el;
    return el;
  };
  tokenizeXml(
    text,
    {
      open: (tag) => {
        stack.push(element(tag));
      },
      // An element of text only, at once: no stack push and pop, no separate text event.
      leaf: (tag, t) => {
        element(tag, t === "" ? (NO_CHILDREN as (XmlElement | string)[]) : [t]);
      },
      close: () => {
        stack.pop();
      },
      text: (t) => {
        const top = stack[stack.length - 1]!;
        const last = top.children.length - 1;
        if (last >= 0 && typeof top.children[last] === "string") top.children[last] += t;
        else top.children.push(t);
      },
    },
    assumed,
  );
  // tokenizeXml refuses a document without a root element.
  return { documentElement: root! };
}
