/**
 * The documentation the help pages show, read from the WSDL text the server serves: the
 * descriptors carry none, and reading it here keeps generated code unchanged.
 */
import { tokenizeXml } from "../../xml/tokenizer.js";
import { type XmlTag } from "../../xml/tokens.js";

const WSDL_NS = "http://schemas.xmlsoap.org/wsdl/";

/** The service's documentation and each operation's, by operation name (the portType's first). */
export interface WsdlDocs {
  readonly service: string;
  readonly operations: ReadonlyMap<string, string>;
}

const NONE: WsdlDocs = { service: "", operations: new Map() };

/**
 * The `wsdl:documentation` of the definitions or the named service, and of every operation (a
 * portType's before a binding's). A WSDL that does not read gives none: the pages do without.
 */
export function wsdlDocs(wsdl: string | undefined, serviceName: string): WsdlDocs {
  if (wsdl === undefined) return NONE;
  const operations = new Map<string, string>();
  let service = "";
  // The open elements as wsdl local names with their `name` attribute ("" for others).
  const stack: { local: string; name: string }[] = [];
  let text: string[] | undefined;
  const parent = (i: number) => stack[stack.length - i];
  const open = (tag: XmlTag) => {
    const local = tag.uri === WSDL_NS ? tag.local : "";
    const name = tag.attributes.find((a) => a.name === "name")?.value ?? "";
    stack.push({ local, name });
    if (local === "documentation" && text === undefined) text = [];
  };
  const close = () => {
    const el = stack.pop();
    if (el?.local !== "documentation" || text === undefined || stack.some(isDoc)) return;
    const doc = text.join("").trim();
    text = undefined;
    const owner = parent(1);
    if (!owner || !doc) return;
    if (owner.local === "definitions" || (owner.local === "service" && owner.name === serviceName))
      service ||= doc;
    else if (owner.local === "operation" && !operations.has(owner.name)) {
      const kind = parent(2)?.local;
      if (kind === "portType" || kind === "binding") operations.set(owner.name, doc);
    }
  };
  try {
    tokenizeXml(wsdl, {
      open,
      close,
      text: (t) => void text?.push(t),
    });
  } catch {
    return NONE;
  }
  return { service, operations };
}

const isDoc = (e: { local: string }) => e.local === "documentation";
