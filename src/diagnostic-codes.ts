/**
 * Every diagnostic code, each with what it means, in four tables: the recoveries from defects and
 * the limitations (which src/recovery.ts applies and `--strict` refuses), the errors and the
 * warnings. They make `DiagnosticCode` (src/diagnostics.ts), so a code in no table does not
 * compile.
 */

/** Every recovery the generator makes, by diagnostic code: what it does instead of failing. */
export const RECOVERIES = {
  XSD_UNRESOLVED:
    "a type, element, attribute, group or attribute group reference that resolves to nothing: a complex type or element is read as xs:anyType's content kept raw (text, child elements, attributes), a type where a simple one is expected as xs:string, a missing group's content goes to $any and a missing attribute group's attributes to $attributes, a complexContent restriction's missing base leaves the type its own content, restricting nothing, a soap:header's missing element leaves that header out",
  WSDL_UNRESOLVED:
    "a message, portType or binding reference that resolves to nothing: an operation's missing input or output message is read as a message without parts, a missing fault message leaves that fault out, a port or binding whose binding or portType is missing is left out, a soap:header whose message or part is missing is left out, and so is a name in soap:body's parts that no part of its message has",
  XML_UNBOUND_PREFIX:
    "a QName reference whose prefix no xmlns declaration binds and whose local name matches nothing: recovered as XSD_UNRESOLVED or WSDL_UNRESOLVED would be",
  INPUT_NOT_READABLE: "an xs:import, xs:include or wsdl:import whose file cannot be read: left out",
  INPUT_FETCH_FAILED:
    "an xs:import, xs:include or wsdl:import whose URL cannot be fetched: left out",
  XSD_OBSOLETE_NAMESPACE:
    "the pre-2001 XML Schema namespaces (1999, 2000/10): read as XML Schema 2001",
  XSD_SCHEMA_NAMESPACE:
    "a schema element in wsdl:types outside the XML Schema namespace (a forgotten xmlns): left out, what it declares unresolved",
  XSD_IMPORT_IN_TYPES:
    "an xs:import written straight in wsdl:types, outside any xs:schema: read as if a schema of its own held it",
  XSD_UNKNOWN_ELEMENT:
    "a schema component whose name is misspelt only in case (xs:simpletype): read as the component meant",
  WSDL_NO_SERVICE:
    "a WSDL without a service, or without a port of a supported binding (an abstract fragment): types only, from its messages",
  XSD_RESOLVED_BY_LOCAL_NAME:
    "an XSD reference not declared as written: the only component of that local name",
  WSDL_RESOLVED_BY_LOCAL_NAME:
    "a WSDL reference not declared as written: the only component of that local name",
  XSD_TYPE_NAMES_ELEMENT:
    "a type reference naming a global element and no type: that element's type",
  WSDL_LEFT_OUT:
    "an element in the WSDL namespace that WSDL 1.1 does not define where it stands (wsdl:mesage), or a second wsdl:types, wsdl:input or wsdl:output: left out",
  XSD_LEFT_OUT:
    "XML Schema content its grammar does not allow where it stands (xs:elment in a sequence, a second content model, an inline type beside type=, a foreign element in xs:schema, xs:include without schemaLocation): left out",
  WSDL_ADDRESS_RELATIVE:
    'a port whose address is missing or not an absolute http(s) URL (location="Recruiting"): resolved against the URL the WSDL was read from, as .NET does; read from a file, kept as written, and a client must be given an endpoint',
  XML_LATE_DECLARATION:
    "an XML declaration after white space or a comment (a licence header above it): read as if it started the document",
  XML_PREFIX_ASSUMED: "a conventional prefix nobody declared (soap:, xs:, …): its usual namespace",
  XSD_LOCATION_ATTRIBUTE: "xs:import or xs:include written with location=: read as schemaLocation=",
  INPUT_FOUND_BESIDE:
    "a schema missing at the relative path written but present beside the importing document: that file",
  WSDL_DOCUMENT_PART_TYPE:
    "a document-style part with type=: an unqualified element named after the part",
  WSDL_DUPLICATE:
    "a message, portType, binding or service declared twice under one name, or an operation named twice in one portType or binding (WS-I Basic Profile R2304; gSOAP's soapcpp2 writes such WSDLs): the first is read, the others left out",
  XSD_INVALID_VALUE:
    "an XSD attribute of a few allowed words (use, form, elementFormDefault, attributeFormDefault, nillable, abstract, mixed) with another value: written in another case, read as the word meant; otherwise as its default",
  WSDL_INVALID_VALUE:
    "a WSDL binding's style or use with another value than document/rpc or literal/encoded: written in another case, read as the word meant; otherwise as its default (the binding's style, literal)",
  XSD_DUPLICATE:
    "a global element, type (simple or complex), group, attribute group or attribute declared twice under one name: the first is read, the others left out",
  WSDL_HTTP_INCOMPLETE:
    "an HTTP binding that leaves out what it needs (spyne's HttpRpc WSDLs): http:binding without a GET or POST verb is read as GET, http:operation without a location as /Operation, an output with parts but no mime:mimeXml or mime:content (soap:body instead) as the XML document of its first part's element",
  XSD_CIRCULAR:
    "a type derived from itself, or a group or attribute group that contains itself: the derivation or reference that closes the circle is left out",
  XSD_FACETS_CONTRADICT:
    "a simple type whose facets no value meets (minLength above maxLength, a lower bound above the upper one, fractionDigits above totalDigits): read as written; samples (mocks, help pages) give it its kind's plain value, which the schema refuses",
} as const satisfies Record<string, string>;

/**
 * What the generator does not fully support in valid input, and says so: something is left out or
 * handled partly. Not defects of the input, but `--strict` refuses them too, since a pipeline that
 * asks for it wants nothing the WSDL describes left out.
 */
export const LIMITATIONS = {
  WSDL_ENCODED:
    "SOAP encoding (use=\"encoded\") with values it cannot write as rpc/encoded peers may expect: those of an anonymous complex type, of a plain array (ArrayOfX), of a derivation family's declared type (not abstract) or of a document-style body are sent without xsi:type, each named; in SOAP 1.2, encoding's arrays and references (enc:itemType, enc:arraySize, enc:ref) are not read or written as such. A SOAP 1.1 binding without such values gets no warning",
  XSD_ENCODED_ARRAY_DIMENSIONS:
    "a SOAP-encoded array of more than one dimension (`Item[,]`) or of arrays (`Item[][]`): its content kept as raw XML ($any, $attributes), not as an array",
  XSD_REDEFINE:
    "xs:redefine or xs:override with redefinitions: the schema document is read as it is, the redefinitions left out",
  WSDL_MIME_PART_SKIPPED:
    "a mime:multipartRelated part that is neither the soap:body part nor an attachment (mime:content naming one message part, bound nowhere else), or SOAP bindings of one operation that bind other attachment parts: left out",
  WSDL_UNSUPPORTED_BINDING: "a port whose binding is neither SOAP 1.1, SOAP 1.2 nor HTTP: left out",
  WSDL_HTTP_UNSUPPORTED:
    "an HTTP operation whose input or output this generator cannot write or read: left out of that binding",
  WSDL_HEADER_SKIPPED: "a soap:header whose part uses type= rather than element=: left out",
  WSDL_FAULT_UNTYPED:
    "a fault message without an element part (a type= part, or no part at all): it arrives as an untyped SoapFault",
  WSDL_AMBIGUOUS_OPERATIONS:
    "operations of one binding whose requests cannot be told apart: the server serves the first",
  SAMPLE_PATTERN_UNMET:
    "a simple type whose pattern the sample builder cannot meet within its other facets (or cannot read: an unknown Unicode block), or with a facet it does not meet (exclusive bounds of a date, a union's length, a list's pattern): samples (mocks, help pages) give it a value the schema refuses",
  XSD_SUBSTITUTE_SKIPPED:
    "a substitution group member of a simple type, whose values could not be told apart: not read or written in its head's place",
} as const satisfies Record<string, string>;

/** Input or usage the generator cannot go on with: the stage stops. */
export const ERRORS = {
  INPUT_TOO_MANY_DOCUMENTS: "a WSDL whose imports and includes reach more than 1,000 documents",
  INPUT_TOO_MANY_REDIRECTS: "a URL that redirected more times than allowed (5 by default)",
  XML_EMPTY: "a document with no content",
  XML_MALFORMED: "a document that is not well-formed XML",
  XML_DTD_REFUSED: "a document with a DOCTYPE declaration (DTDs and entities are refused)",
  INPUT_HTML_PAGE: "an HTML page where a WSDL or schema was expected (a help, login or error page)",
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
  INPUT_HEADERS_UNUSED:
    "request headers or credentials (--auth) given for a WSDL read from a file, where none are sent",
  SCAFFOLD_GATEWAY_ONE_SERVICE:
    "scaffold --gateway on a WSDL of several services: it serves the first",
  SCAFFOLD_SHARED_PATH: "two services served at one path, where the first one's handler answers",
  SCAFFOLD_OPERATION_REMOVED: "scaffold --update: a method whose operation the WSDL no longer has",
  SCAFFOLD_SIGNATURE_CHANGED: "scaffold --update: a method whose operation's types changed",
  SCAFFOLD_IMPORT_UNUSED:
    "scaffold --update: an import from the generated SDK that no method of a present operation uses (only removed operations' methods, or nothing)",
  SCAFFOLD_IMPORT_CONFLICT:
    "scaffold --update: a name the added methods import already bound to something else",
} as const satisfies Record<string, string>;
