/**
 * The diagnostic codes that are neither a recovery nor a limitation (src/recovery.ts), each with
 * what it means. With those two tables they make `DiagnosticCode` (src/diagnostics.ts), so a code
 * missing from every table does not compile.
 */

/** Input or usage the generator cannot go on with: the stage stops. */
export const ERRORS = {
  INPUT_TOO_MANY_DOCUMENTS: "a WSDL whose imports and includes reach more than 1,000 documents",
  INPUT_TOO_MANY_REDIRECTS: "a URL that redirected more times than allowed (5 by default)",
  XML_EMPTY: "a document with no content",
  XML_MALFORMED: "a document that is not well-formed XML",
  XML_DTD_REFUSED: "a document with a DOCTYPE declaration (DTDs and entities are refused)",
  XML_TOO_LARGE: "a document, or a body fetched, past the size limit (64 MiB)",
  XML_TOO_DEEP: "a document whose elements nest past the depth limit",
  WSDL_NOT_DEFINITIONS: "a root document that is not a WSDL 1.1 wsdl:definitions",
  WSDL_MISSING_ATTRIBUTE: "a WSDL element without an attribute it needs (a name, a message)",
  WSDL_PART_WITHOUT_TYPE: "a message part with neither an element nor a type attribute",
  XSD_NOT_SCHEMA: "an imported or included schema document whose root is not xs:schema",
  XSD_MISSING_ATTRIBUTE: "an XSD component without an attribute it needs (a name, a base)",
  XSD_BAD_OCCURS: "minOccurs or maxOccurs that is not a non-negative integer (or unbounded)",
  XSD_BAD_CONTENT: "simpleContent or complexContent without an xs:extension or xs:restriction",
  XSD_GROUP_WITHOUT_REF: "a local xs:group without a ref attribute",
  XSD_EXPECTED_SIMPLE: "a complex type where only a simple type can stand",
  XSD_TOO_DEEP: "types nested too deeply to map or generate (thousands, each holding the next)",
  OPTION_INVALID: "a generation option with a value it does not take",
  SCAFFOLD_USAGE: "scaffold run with arguments it cannot use (an --out that is not its project)",
  SCAFFOLD_NO_SERVICE: "scaffold on a WSDL with no service to implement",
  SCAFFOLD_TEMPLATES: "a --templates folder that does not exist",
  SCAFFOLD_TEMPLATE: "a template that failed to compile or render, located in its file",
  SCAFFOLD_SERVICE_MISSING:
    "scaffold --update without the implementation (src/service.ts or its service object) it wrote",
} as const satisfies Record<string, string>;

/** Said, never refused (`--strict` leaves them warnings): nothing the WSDL describes is lost. */
export const WARNINGS = {
  INPUT_HEADERS_UNUSED: "request headers given for a WSDL read from a file, where none are sent",
  SCAFFOLD_SHARED_PATH: "two services served at one path, where the first one's handler answers",
  SCAFFOLD_OPERATION_REMOVED: "scaffold --update: a method whose operation the WSDL no longer has",
  SCAFFOLD_SIGNATURE_CHANGED: "scaffold --update: a method whose operation's types changed",
  SCAFFOLD_IMPORT_CONFLICT:
    "scaffold --update: a name the added methods import already bound to something else",
} as const satisfies Record<string, string>;
