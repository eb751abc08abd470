/**
 * The element tree signatures are computed over: every attribute and in-scope namespace as the
 * runtime's tokenizer read them (DTDs refused, references decoded, line ends normalized), text
 * merged across the comments it skips, and where each start tag begins, so that a signer can add
 * to the text it was given. Canonicalization (c14n.ts) needs the namespaces in scope, which the
 * runtime's generic XmlNode does not keep.
 */
import { tokenizeXml } from "../xml/tokenizer.js";
import type { TokenHandler, XmlAttribute, XmlTag } from "../xml/tokens.js";
import { XMLNS_URI } from "../xml/namespaces.js";
import { DS_NS } from "./algorithms.js";

export interface SigElement {
  /** The prefix as written ("" for none), the local name and the namespace. */
  readonly prefix: string;
  readonly local: string;
  readonly ns: string;
  /** Attributes other than namespace declarations, as written. */
  readonly attrs: readonly XmlAttribute[];
  /** The namespaces in scope, by prefix ("" for the default); `xml` included. */
  readonly scope: Readonly<Record<string, string>>;
  readonly children: (SigElement | string)[];
  readonly parent: SigElement | undefined;
  /** Where its start tag begins in the text. */
  readonly offset: number;
}

/** Limits of a document read for signing or verifying: depth and element count. */
export interface TreeLimits {
  readonly maxDepth: number;
  readonly maxElements: number;
  /**
   * The most elements inside one ds:SignedInfo: checked as it is read, so that a SignedInfo
   * stuffed with elements is refused before the rest of the message is read.
   */
  readonly maxSignedInfoElements?: number;
}

export const DEFAULT_LIMITS: TreeLimits = { maxDepth: 64, maxElements: 100_000 };

export class TreeLimitError extends Error {}

/** Reads `xml` into a tree; throws the tokenizer's XmlSyntaxError or a TreeLimitError. */
export function readTree(xml: string | Uint8Array, limits = DEFAULT_LIMITS): SigElement {
  const b = new TreeBuilder(limits);
  tokenizeXml(xml, b);
  if (!b.root) throw new TreeLimitError("the document has no root element");
  return b.root;
}

class TreeBuilder implements TokenHandler {
  root: SigElement | undefined;
  private current: SigElement | undefined;
  private depth = 0;
  private count = 0;
  /** The depth of the ds:SignedInfo being read (0 outside one), and its elements so far. */
  private signedInfoAt = 0;
  private inSignedInfo = 0;

  constructor(private readonly limits: TreeLimits) {}

  open(tag: XmlTag): void {
    if (++this.depth > this.limits.maxDepth || ++this.count > this.limits.maxElements)
      throw new TreeLimitError("the document is nested too deeply or has too many elements");
    if (this.signedInfoAt > 0) {
      if (++this.inSignedInfo > (this.limits.maxSignedInfoElements ?? Infinity))
        throw new TreeLimitError("the SignedInfo has more elements than its schema allows");
    } else if (tag.local === "SignedInfo" && tag.uri === DS_NS) {
      this.signedInfoAt = this.depth;
      this.inSignedInfo = 0;
    }
    const colon = tag.name.indexOf(":");
    const el: SigElement = {
      prefix: colon === -1 ? "" : tag.name.slice(0, colon),
      local: tag.local,
      ns: tag.uri,
      attrs: tag.attributes.filter((a) => a.uri !== XMLNS_URI),
      scope: tag.scope,
      children: [],
      parent: this.current,
      offset: tag.offset,
    };
    if (this.current) this.current.children.push(el);
    else this.root = el;
    this.current = el;
  }

  close(): void {
    if (this.depth === this.signedInfoAt) this.signedInfoAt = 0;
    this.depth--;
    this.current = this.current?.parent;
  }

  text(text: string): void {
    const c = this.current;
    if (!c) return;
    const last = c.children.length - 1;
    // A comment splits a text in two events; canonical XML drops the comment and joins them.
    if (last >= 0 && typeof c.children[last] === "string") c.children[last] += text;
    else c.children.push(text);
  }
}

/** The child elements of `el`. */
export function elementsOf(el: SigElement): SigElement[] {
  return el.children.filter((c): c is SigElement => typeof c !== "string");
}

/** The first child element {ns}local of `el`. */
export function childElement(el: SigElement, ns: string, local: string): SigElement | undefined {
  for (const c of el.children)
    if (typeof c !== "string" && c.ns === ns && c.local === local) return c;
  return undefined;
}

/** The value of the attribute {ns}local of `el` ("" for no namespace). */
export function attrValue(el: SigElement, ns: string, local: string): string | undefined {
  for (const a of el.attrs) if (a.uri === ns && a.local === local) return a.value;
  return undefined;
}

/** The text content of `el`. */
export function textOf(el: SigElement): string {
  return el.children.map((c) => (typeof c === "string" ? c : textOf(c))).join("");
}

/** Every element of the tree, in document order. */
export function* allElements(el: SigElement): Generator<SigElement> {
  yield el;
  for (const c of el.children) if (typeof c !== "string") yield* allElements(c);
}
