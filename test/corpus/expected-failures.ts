/**
 * The corpus roots (../shared/corpus, not part of this repository) that do not generate, each with
 * the first error code it gives and why. `test/corpus/corpus.test.ts` fails when a root fails that
 * is not listed here (or with another code), and when a listed root generates (remove it then);
 * `test/corpus/expected-failures.test.ts` keeps the table in docs/coverage.md in step with this one.
 *
 * category "defect": the WSDL or XSD itself is wrong or incomplete (a component declared nowhere, a
 * file missing from the corpus, malformed XML); no reading a toolkit could justify makes it whole.
 * category "out-of-scope": valid input that uses something this generator does not do.
 */
export interface ExpectedFailure {
  /** The first error diagnostic's code. */
  readonly code: string;
  readonly category: "defect" | "out-of-scope";
  /** One sentence naming the defect or the feature: file and component. */
  readonly reason: string;
}

const NS = "vpulim/node-soap:test/";
const RR = `${NS}request-response-samples/`;

export const EXPECTED_FAILURES: Readonly<Record<string, ExpectedFailure>> = {
  "dderevjanik/wsdl-tsclient:test/resources-public/sm_Synccom_senior_g5_rh_sm_historicos.wsdl": {
    code: "INPUT_FETCH_FAILED", category: "defect",
    reason: "Its only schema is an xs:import of a placeholder URL (someserver.in.the.web), which the corpus has no copy of.",
  },
  "fiorix/wsdl2go:wsdlgo/testdata/data.wsdl": {
    code: "XSD_UNRESOLVED", category: "defect",
    reason: "Type {http://host.com/xsd}ClientIdentification, used by BaseReq, is declared in none of its schemas.",
  },
  "fiorix/wsdl2go:wsdlgo/testdata/memcache.wsdl": {
    code: "XML_UNBOUND_PREFIX", category: "defect",
    reason: "Port MemoryService names binding tns:MemoryService, but the binding is named Memory.Service and xmlns:tns stands as text after the definitions start tag, so tns is unbound.",
  },
  [`${RR}Dummy__ref_element_should_have_correct_namespace/soap.wsdl`]: {
    code: "XSD_UNKNOWN_ELEMENT", category: "defect",
    reason: "common.xsd spells a component xs:simpletype (XML names are case-sensitive), so the simple type it declares does not exist.",
  },
  [`${RR}Dummy__ref_element_should_have_correct_namespace_with_overrideElementKey/soap.wsdl`]: {
    code: "XSD_UNKNOWN_ELEMENT", category: "defect",
    reason: "common.xsd spells a component xs:simpletype (XML names are case-sensitive), so the simple type it declares does not exist.",
  },
  [`${RR}GetSubscription__should_handle_ref_minOccurs_and_maxOccurs/soap.wsdl`]: {
    code: "XSD_UNRESOLVED", category: "defect",
    reason: "Message SubscribeResponseMessage names element EVT:SubscribeResponse, which EventService.xsd does not declare (nor the message FaultMessage the operations' faults name).",
  },
  [`${RR}RetrieveFareQuoteDateRange__should_handle_child_namespaces/soap.wsdl`]: {
    code: "XSD_UNRESOLVED", category: "defect",
    reason: "childs/childxs7.wsdl uses types Enums.FareFilterMethodType (and its siblings) in namespace http://tempuri.org/Service/Pricing.Request, which no schema of the sample declares.",
  },
  [`${RR}SetResource__should_correctly_set_element_if_complex-type_has_same_name/soap.wsdl`]: {
    code: "XSD_UNRESOLVED", category: "defect",
    reason: "Message SetResourceResponse names element n:SetResourceResponse, but Name.xsd declares it misspelt as SetResourceRespone.",
  },
  [`${RR}attachments__should_send_binary_data/soap.wsdl`]: {
    code: "WSDL_NOT_DEFINITIONS", category: "defect",
    reason: "Its default namespace is http://www.example.com/v1, so definitions and every unprefixed WSDL and XSD element are in that namespace, not WSDL's or XML Schema's.",
  },
  [`${RR}createData__should_generate_complex_type_request/soap.wsdl`]: {
    code: "XSD_UNRESOLVED", category: "defect",
    reason: "Complex type DataRow uses type tns:DataField, which the WSDL's schema does not declare.",
  },
  [`${NS}wsdl/attachments.wsdl`]: {
    code: "WSDL_NOT_DEFINITIONS", category: "defect",
    reason: "Its default namespace is http://www.example.com/v1, so definitions and every unprefixed WSDL and XSD element are in that namespace, not WSDL's or XML Schema's.",
  },
  [`${NS}wsdl/builtin_types.wsdl`]: {
    code: "WSDL_UNSUPPORTED", category: "out-of-scope",
    reason: "Its document/literal messages have several body parts (one element each); multi-part document/literal is not implemented.",
  },
  [`${NS}wsdl/complex/registration.wsdl`]: {
    code: "WSDL_UNRESOLVED", category: "defect",
    reason: "The imported registration-common.wsdl gives its operation a fault with message tns:errorDetailMessage, which no document declares.",
  },
  [`${NS}wsdl/connection/econnrefused.wsdl`]: {
    code: "XSD_OBSOLETE_NAMESPACE", category: "out-of-scope",
    reason: "Its schema is in the pre-2001 XML Schema namespace http://www.w3.org/2000/10/XMLSchema.",
  },
  [`${NS}wsdl/json_response.wsdl`]: {
    code: "XSD_UNRESOLVED", category: "defect",
    reason: "Message OutputMessage names element Response, which its schema does not declare.",
  },
  [`${NS}wsdl/marketo.wsdl`]: {
    code: "XSD_UNRESOLVED", category: "defect",
    reason: "Complex type ParamsGetLeadChanges uses tns:StreamPosition (and ActivityTypeFilter, LeadSelector, SuccessGetLeadChanges), which its schema does not declare.",
  },
  [`${NS}wsdl/missing_message_definition.wsdl`]: {
    code: "WSDL_UNRESOLVED", category: "defect",
    reason: "Operation GetWeather's output names message tns:GetWeatherResponse, which is declared nowhere.",
  },
  [`${NS}wsdl/recursive/file.wsdl`]: {
    code: "XML_MALFORMED", category: "defect",
    reason: "recursive/A.xsd is truncated: its xs:schema element is never closed.",
  },
  [`${NS}wsdl/schemas_without_targetnamespace.wsdl`]: {
    code: "XML_UNBOUND_PREFIX", category: "defect",
    reason: "Message DummyRequest names element n:DummyRequest with the prefix n bound nowhere, and no schema declares DummyRequest or DummyResponse.",
  },
  [`${NS}wsdl/strict/ImportSample.wsdl`]: {
    code: "XSD_UNRESOLVED", category: "defect",
    reason: "Message beerpByLocationResponse uses type tns:beers, which ImportSample.xsd does not declare.",
  },
  [`${NS}wsdl/strict/stockquote-url.wsdl`]: {
    code: "XSD_OBSOLETE_NAMESPACE", category: "out-of-scope",
    reason: "Its schema is in the pre-2001 XML Schema namespace http://www.w3.org/2000/10/XMLSchema.",
  },
  [`${NS}wsdl/strict/stockquote.wsdl`]: {
    code: "XSD_OBSOLETE_NAMESPACE", category: "out-of-scope",
    reason: "Its schema is in the pre-2001 XML Schema namespace http://www.w3.org/2000/10/XMLSchema.",
  },
  [`${NS}wsdl/typeof_null_extend_check.wsdl`]: {
    code: "XSD_UNRESOLVED", category: "defect",
    reason: "Element QASearch uses type qas:QAConfigType (and QALocator, QAPicklistType, QAAddressType), which its schema does not declare.",
  },
  [`${NS}wsdl/wsdlImport/overridden.wsdl`]: {
    code: "WSDL_NO_SERVICE", category: "out-of-scope",
    reason: "An abstract fragment (types, messages, portType IUserRemoteService; no binding, no service) meant to be imported by wsdlImport/main.wsdl: nothing to generate a client or server for.",
  },
  [`${NS}wsdl/wsdl_with_attributes.wsdl`]: {
    code: "XSD_OBSOLETE_NAMESPACE", category: "out-of-scope",
    reason: "Its schema is in the pre-2001 XML Schema namespace http://www.w3.org/2000/10/XMLSchema.",
  },
  [`${NS}wsdl/xsdinclude/xsd_include.wsdl`]: {
    code: "XSD_UNRESOLVED", category: "defect",
    reason: "Element DummyResponse uses type dummy:DummyList, which neither the inline schema nor the included types.xsd declares.",
  },
  [`${NS}wsdl/xsdinclude/xsd_include_http.wsdl`]: {
    code: "INPUT_FETCH_FAILED", category: "defect",
    reason: "Its xs:include names http://localhost:50000/Platform.asmx?xsd, served only by node-soap's test server; the corpus has no copy.",
  },
  [`${NS}wsdl/xsdinclude/xsd_include_inline_xmlns.wsdl`]: {
    code: "XSD_UNRESOLVED", category: "defect",
    reason: "types_inline_xmlns.xsd's element DummyResponse uses type dummy:DummyList, which neither it nor the included types.xsd declares.",
  },
};

/** How many listed roots are defects of their input (they are not counted as valid inputs). */
export const DEFECT_COUNT = Object.values(EXPECTED_FAILURES).filter((f) => f.category === "defect").length;

const cell = (s: string) => s.replace(/\|/g, "\\|");

/** The table of docs/coverage.md, "The corpus": one row per listed root, in the order above. */
export function expectedFailuresMarkdown(): string {
  const rows = Object.entries(EXPECTED_FAILURES).map(([id, f]) => `| \`${cell(id)}\` | \`${f.code}\` | ${f.category} | ${cell(f.reason)} |`);
  return ["| root | first error | category | reason |", "|---|---|---|---|", ...rows].join("\n");
}
