/**
 * What WSDL 1.1 allows where: an element in the WSDL namespace it does not define there
 * (wsdl:mesage), or one it allows once given twice, is said and left out, never dropped in silence.
 */
import type { Diagnostic } from "../diagnostics.js";
import { recovery } from "../recovery.js";
import type { XmlElement } from "./dom.js";
import { NS } from "./namespaces.js";
import { locOf } from "./xml.js";

/**
 * The WSDL 1.1 elements each WSDL element may hold (extension elements in other namespaces aside),
 * and those it may hold once: anything else in the WSDL namespace is left out, said.
 */
const WSDL_CONTENT: Readonly<Record<string, { all: readonly string[]; once: readonly string[] }>> =
  {
    definitions: {
      all: ["import", "documentation", "types", "message", "portType", "binding", "service"],
      once: ["types"],
    },
    message: { all: ["documentation", "part"], once: [] },
    portType: { all: ["documentation", "operation"], once: [] },
    operation: { all: ["documentation", "input", "output", "fault"], once: ["input", "output"] },
    binding: { all: ["documentation", "operation"], once: [] },
    service: { all: ["documentation", "port"], once: [] },
    port: { all: ["documentation"], once: [] },
    part: { all: ["documentation"], once: [] },
  };

/** Says what in `e`'s WSDL content WSDL 1.1 does not define there (see WSDL_CONTENT). */
export function unknownContent(file: string, warnings: Diagnostic[], e: XmlElement): void {
  const content = WSDL_CONTENT[e.localName ?? ""];
  if (!content) return;
  const seen = new Set<string>();
  for (const c of e.elements) {
    if (c.namespaceURI !== NS.wsdl) continue;
    const name = c.localName ?? "";
    const known = content.all.includes(name);
    const repeated = known && content.once.includes(name) && seen.has(name);
    seen.add(name);
    if (known && !repeated) continue;
    const expected = repeated
      ? `one ${c.tagName} in ${e.tagName}`
      : `one of ${content.all.map((n) => "wsdl:" + n).join(", ")} in ${e.tagName}`;
    warnings.push(
      recovery(
        "WSDL_LEFT_OUT",
        `found ${repeated ? "a second " : ""}<${c.tagName}>; expected ${expected}; it is left out`,
        locOf(file, c),
      ),
    );
  }
}
