/**
 * Secure, position-keeping XML loading for the generator, into the located element tree of dom.ts.
 * DTDs are refused outright (no entity expansion of any kind), and size and depth are bounded.
 */
import { fail, type Diagnostic, type SourceLocation } from "../diagnostics.js";
import { recovery } from "../recovery.js";
import { NS } from "./namespaces.js";
import { positionOf } from "@wsdl-tsgen/runtime/internal";
import { XmlDtdError, XmlSyntaxError } from "@wsdl-tsgen/runtime/internal";
import { buildDocument, type XmlDocument, type XmlElement } from "./dom.js";

export interface XmlLimits {
  /** Largest document accepted, in bytes. */
  readonly maxBytes: number;
  /** Deepest element nesting accepted. */
  readonly maxDepth: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = { maxBytes: 64 * 1024 * 1024, maxDepth: 256 };

/** Where an element starts (its `<`). */
export function locOf(file: string, el: XmlElement): SourceLocation {
  return { file, line: el.lineNumber, column: el.columnNumber };
}

/**
 * Prefixes WSDL authors use by convention, and the namespaces they always mean. A document that
 * uses one of them without declaring it (`<soap:binding>` with no `xmlns:soap`) is read as if the
 * root element declared it, with a warning; any other unbound prefix is an error.
 */
const CONVENTIONAL_PREFIXES: Readonly<Record<string, string>> = {
  wsdl: NS.wsdl,
  soap: NS.soap11,
  soap12: NS.soap12,
  http: NS.http,
  mime: NS.mime,
  xs: NS.xsd,
  xsd: NS.xsd,
  s: NS.xsd,
  xsi: NS.xsi,
  soapenc: NS.soapEncoding,
  wsp: "http://schemas.xmlsoap.org/ws/2004/09/policy",
  wsu: "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd",
  wsam: "http://www.w3.org/2007/05/addressing/metadata",
  wsaw: "http://www.w3.org/2006/05/addressing/wsdl",
  xmime: "http://www.w3.org/2005/05/xmlmime",
};

/**
 * Parses one XML document, or fails with a located diagnostic. Recoveries are added to `warnings`.
 */
export function parseXmlDocument(
  text: string,
  file: string,
  limits: XmlLimits = DEFAULT_XML_LIMITS,
  warnings: Diagnostic[] = [],
): XmlDocument {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > limits.maxBytes) {
    fail("XML_TOO_LARGE", `document is ${bytes} bytes; the limit is ${limits.maxBytes} bytes`, {
      file,
      line: 0,
      column: 0,
    });
  }
  if (text.trim() === "") {
    fail("XML_EMPTY", "the document is empty; expected an XML document", {
      file,
      line: 1,
      column: 1,
    });
  }
  const source = modernSchemaNamespace(lateDeclaration(text, file, warnings), file, warnings);
  // Conventional prefixes used but never declared, read as their usual namespaces: given to the
  // tokenizer as bindings above the root, so the text (and every position in it) stays as written.
  const assumed: Record<string, string> = {};
  const located = (offset: number): SourceLocation => ({
    file,
    ...positionOf(text, Math.min(offset, text.length)),
  });
  for (;;) {
    let e: unknown;
    try {
      return buildDocument(
        source,
        limits.maxDepth,
        (line, column) =>
          fail("XML_TOO_DEEP", `element nesting exceeds ${limits.maxDepth} levels`, {
            file,
            line,
            column,
          }),
        assumed,
      );
    } catch (thrown) {
      e = thrown;
    }
    if (e instanceof XmlDtdError) refuseDoctype(text, file, located(e.offset), e.offset);
    if (!(e instanceof XmlSyntaxError)) throw e;
    const u = e.unboundPrefix;
    if (!u) fail("XML_MALFORMED", `malformed XML: ${e.message}`, located(e.offset));
    const what =
      u.element !== undefined ? `the element <${u.element}>` : `the attribute ${u.attribute}`;
    const at = located(e.offset);
    const uri = Object.hasOwn(CONVENTIONAL_PREFIXES, u.prefix)
      ? CONVENTIONAL_PREFIXES[u.prefix]
      : undefined;
    if (uri === undefined || Object.hasOwn(assumed, u.prefix)) {
      fail(
        "XML_UNBOUND_PREFIX",
        `${what} uses the prefix "${u.prefix}", which no xmlns declaration in scope binds; expected xmlns:${u.prefix}="…" on it or an ancestor`,
        at,
      );
    }
    assumed[u.prefix] = uri;
    warnings.push(
      recovery(
        "XML_PREFIX_ASSUMED",
        `${what} uses the prefix "${u.prefix}", which no xmlns declaration binds; reading it as ${uri}, the namespace it conventionally names`,
        at,
      ),
    );
  }
}

/** White space and comments before an XML declaration, which XML allows nowhere but at offset 0. */
const LATE_DECLARATION = /^\uFEFF?(?:\s|<!--(?:(?!-->)[\s\S])*-->)+(<\?xml[\s?][\s\S]*?\?>)/;

/**
 * An XML declaration after white space or a comment (a licence header above it), blanked out
 * with a recovery warning, newlines kept so positions stay exact. Requests stay strict.
 */
function lateDeclaration(text: string, file: string, warnings: Diagnostic[]): string {
  const m = LATE_DECLARATION.exec(text);
  if (!m) return text;
  const decl = m[1]!;
  const offset = m[0].length - decl.length;
  warnings.push(
    recovery(
      "XML_LATE_DECLARATION",
      "found an XML declaration (<?xml … ?>) after white space or a comment; expected it at the very start of the document, or none. Read as if it were there",
      { file, ...positionOf(text, offset) },
    ),
  );
  return text.slice(0, offset) + decl.replace(/[^\n]/g, " ") + text.slice(m[0].length);
}

const OBSOLETE_XSD =
  /(\bxmlns(?::[\w.-]+)?\s*=\s*)(["'])(http:\/\/www\.w3\.org\/(?:1999|2000\/10)\/XMLSchema)\2/g;

/**
 * Declarations of the pre-2001 XML Schema namespaces (the 1999 and 2000/10 drafts), rewritten to
 * the 2001 namespace with a warning each: the drafts' components carry the same names. The text
 * keeps its length (spaces pad the shorter URI after the closing quote), so positions stay exact.
 */
function modernSchemaNamespace(text: string, file: string, warnings: Diagnostic[]): string {
  return text.replace(
    OBSOLETE_XSD,
    (whole: string, decl: string, quote: string, uri: string, offset: number) => {
      warnings.push(
        recovery(
          "XSD_OBSOLETE_NAMESPACE",
          `${decl.replace(/\s*=\s*$/, "")} names the pre-2001 XML Schema namespace ${uri}; reading it as ${NS.xsd}`,
          { file, ...positionOf(text, offset) },
        ),
      );
      const replaced = `${decl}${quote}${NS.xsd}${quote}`;
      return replaced + " ".repeat(whole.length - replaced.length);
    },
  );
}

/**
 * A `name` attribute (an NCName): schema processors collapse its whitespace, so `name="Code "`
 * names the element `Code`.
 */
export function nameAttr(el: XmlElement): string | undefined {
  return attr(el, "name")?.trim();
}

/** An attribute's value, or undefined when absent. */
export function attr(el: XmlElement, name: string): string | undefined {
  return el.getAttribute(name) ?? undefined;
}

/**
 * A document with a DOCTYPE, refused. An HTML page is said to be one: most often an ASMX or WCF
 * service's help page, whose address lacks the `?WSDL` that gives its WSDL.
 */
function refuseDoctype(text: string, file: string, at: SourceLocation, offset: number): never {
  if (/^<!DOCTYPE\s+html[\s>]/i.test(text.slice(offset, offset + 20))) {
    const asked = /^https?:/i.test(file) && !new URL(file).search ? `; try ${file}?WSDL` : "";
    const message = `found an HTML page, not a WSDL or schema: a service's help page, or a login or error page${asked}`;
    fail("INPUT_HTML_PAGE", message, at);
  }
  fail(
    "XML_DTD_REFUSED",
    "found a DOCTYPE declaration; DTDs and entity declarations are refused, expected a plain XML document",
    at,
  );
}
