/**
 * Secure, position-keeping XML loading for the generator (xmldom with its locator on).
 * DTDs are refused outright (no entity expansion of any kind), and size and depth are bounded.
 */
import { DOMParser, type Document, type Element, type Node } from "@xmldom/xmldom";
import { fail, type SourceLocation } from "../diagnostics.js";
import { positionOf } from "../runtime/text-position.js";

export { positionOf };

export interface XmlLimits {
  /** Largest document accepted, in bytes. */
  readonly maxBytes: number;
  /** Deepest element nesting accepted. */
  readonly maxDepth: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = { maxBytes: 64 * 1024 * 1024, maxDepth: 256 };

export const XMLNS_NS = "http://www.w3.org/2000/xmlns/";

/** Where an xmldom node starts; xmldom records it because the locator is on. */
export function locOf(file: string, node: Node): SourceLocation {
  const n = node as Node & { lineNumber?: number; columnNumber?: number };
  return { file, line: n.lineNumber ?? 0, column: n.columnNumber ?? 0 };
}

/** Parses one XML document, or fails with a located diagnostic. */
export function parseXmlDocument(
  text: string,
  file: string,
  limits: XmlLimits = DEFAULT_XML_LIMITS,
): Document {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > limits.maxBytes) {
    fail("XML_TOO_LARGE", `document is ${bytes} bytes; the limit is ${limits.maxBytes} bytes`, {
      file,
      line: 0,
      column: 0,
    });
  }
  const doctype = /<!DOCTYPE/i.exec(text);
  if (doctype) {
    fail(
      "XML_DTD_REFUSED",
      "found a DOCTYPE declaration; DTDs and entity declarations are refused, expected a plain XML document",
      { file, ...positionOf(text, doctype.index) },
    );
  }
  if (text.trim() === "") {
    fail("XML_EMPTY", "the document is empty; expected an XML document", { file, line: 1, column: 1 });
  }
  let firstError: { message: string; line: number; column: number } | undefined;
  const parser = new DOMParser({
    locator: true,
    onError: (level, message, context: { locator?: { lineNumber?: number; columnNumber?: number } } | undefined) => {
      if (level === "warning") return;
      firstError ??= {
        message: message.trim(),
        line: context?.locator?.lineNumber ?? 0,
        column: context?.locator?.columnNumber ?? 0,
      };
      throw new Error(message);
    },
  });
  let doc: Document;
  try {
    doc = parser.parseFromString(text, "text/xml");
  } catch (e) {
    const err = firstError ?? { message: e instanceof Error ? e.message : String(e), line: 0, column: 0 };
    fail("XML_MALFORMED", `malformed XML: ${err.message}`, { file, line: err.line, column: err.column });
  }
  const root = doc.documentElement;
  if (!root) fail("XML_EMPTY", "no root element; expected an XML document", { file, line: 1, column: 1 });
  checkDepth(root, file, limits.maxDepth);
  return doc;
}

function checkDepth(root: Element, file: string, maxDepth: number): void {
  const stack: Array<[Element, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [el, depth] = stack.pop()!;
    if (depth > maxDepth) {
      fail("XML_TOO_DEEP", `element nesting exceeds ${maxDepth} levels`, locOf(file, el));
    }
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1) stack.push([c as Element, depth + 1]);
    }
  }
}

/** The element children of an element, in document order. */
export function childElements(el: Element): Element[] {
  const out: Element[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) out.push(c as Element);
  return out;
}

/**
 * A `name` attribute (an NCName): schema processors collapse its whitespace, so `name="Code "` names
 * the element `Code`.
 */
export function nameAttr(el: Element): string | undefined {
  return attr(el, "name")?.trim();
}

/** An attribute's value, or undefined when absent (xmldom returns "" or null for absent ones). */
export function attr(el: Element, name: string): string | undefined {
  return el.hasAttribute(name) ? (el.getAttribute(name) ?? undefined) : undefined;
}
