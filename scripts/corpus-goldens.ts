/**
 * The corpus goldens: representative roots of ../shared/corpus whose generated output is checked in
 * under generated-samples/corpus/<name>/ (generated with GOLDEN_OPTIONS: corpus text is never
 * committed). `npm run samples` writes them, `samples:check` and test/emit/corpus-goldens.test.ts
 * compare them, test/roundtrip/corpus-goldens.test.ts sends sample values through each.
 * Without the corpus, all of these skip with one line.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { CORPUS_DIR } from "./corpus-dir.js";

export { CORPUS_DIR, REPO_ROOT } from "./corpus-dir.js";
export const GOLDENS_DIR = "generated-samples/corpus";

export interface CorpusGolden {
  /** The folder under generated-samples/corpus/. */
  readonly name: string;
  /** The root WSDL, relative to the corpus folder (`<owner>__<repo>/<path>`). */
  readonly root: string;
  /** Why it is here. */
  readonly why: string;
}

export const CORPUS_GOLDENS: readonly CorpusGolden[] = [
  {
    name: "bing-campaign-management",
    root: "BingAds__BingAds-Python-SDK/bingads/v13/proxies/production/campaignmanagement_service.xml",
    why: "largest root: 191 operations, many ArrayOfX wrappers, xs:list types, enumerations and nillable fields, derived types (xsi:type), long/dateTime/decimal",
  },
  {
    name: "salesforce-partner",
    root: "developerforce__Force.com-Toolkit-for-PHP/soapclient/partner.wsdl.xml",
    why: "Salesforce partner API: xs:any records (sObject), nillable fields, 9 declared faults, base64Binary, plain-array response wrappers",
  },
  {
    name: "fedex-rate",
    root: "JeremyDunn__php-fedex-api-wrapper/src/FedEx/_wsdl/RateService_v31.wsdl",
    why: "FedEx rates: one very wide operation with deep optional trees, 142 enumerations, decimal, date, time, dateTime, bigint integer kinds",
  },
  {
    name: "xsdata-calculator",
    root: "tefra__xsdata/tests/fixtures/calculator/services.wsdl",
    why: "ASMX calculator over SOAP 1.1 and SOAP 1.2",
  },
  {
    name: "currency-convertor",
    root: "wsdl2phpgenerator__wsdl2phpgenerator/tests/fixtures/wsdl/currencyconvertor/CurrencyConvertor.wsdl",
    why: "ASMX with all four bindings: SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST; an enumeration as HTTP parameter",
  },
  {
    name: "weather",
    root: "loopbackio__strong-soap/example/wsdls/weather.wsdl",
    why: "ASMX weather service with all four bindings, ArrayOfX wrappers, xs:short, nillable results",
  },
  {
    name: "evac-sync-rpc-encoded",
    root: "vpulim__node-soap/test/wsdl/strict/EVacSyncService_SPClient.wsdl",
    why: "rpc/encoded with complex parts, nillable soapenc types, element names written with a trailing space",
  },
  {
    name: "multi-service-rpc-encoded",
    root: "vpulim__node-soap/test/wsdl/multi-service.wsdl",
    why: "two services; one with two SOAP 1.1 ports whose bindings declare different operations; rpc/encoded",
  },
  {
    name: "xsdata-hello-rpc-literal",
    root: "tefra__xsdata/tests/fixtures/hello/hello.wsdl",
    why: "rpc/literal with an imported schema and declared faults",
  },
  {
    name: "epcis-query",
    root: "hooklift__gowsdl/fixtures/epcis/EPCglobal-epcis-query-1_2.wsdl",
    why: "the most choices of any root that generates (the corpus has no choice-heavy xsdata root): a choice inside a repeated choice, xs:any and xs:anyAttribute, simpleContent, 12 declared faults",
  },
  {
    name: "mixed-sequence",
    root: "vpulim__node-soap/test/wsdl/complex/mixed-sequence.wsdl",
    why: "a repeated choice inside a sequence (arrays of each branch); a sequence inside a choice in a declared fault",
  },
  {
    name: "cybersource",
    root: "vpulim__node-soap/test/wsdl/strict/CyberSourceTransaction_1.26.wsdl",
    why: "very wide optional types: 666 string and 65 xs:integer (bigint) fields, 36 attributes, xs:any",
  },
  {
    name: "products-asmx",
    root: "dderevjanik__wsdl-tsclient/test/resources-public/products.wsdl",
    why: "ASMX over SOAP 1.1 and SOAP 1.2 with ArrayOfX types, decimal, dateTime, nillable fields",
  },
];

/**
 * How goldens are generated: without the WSDL text and without documentation copied from the corpus,
 * so that nothing of the corpus but names and structure is committed.
 */
export const GOLDEN_OPTIONS = {
  runtimeImport: "@wsdl-tsgen/runtime",
  embedWsdl: false,
  docs: false,
} as const;

export const corpusPresent = (): boolean => existsSync(CORPUS_DIR);
export const goldenRoot = (g: CorpusGolden): string => path.join(CORPUS_DIR, g.root);
export const goldenOut = (g: CorpusGolden): string => path.join(GOLDENS_DIR, g.name);
export const SKIP_LINE = `corpus goldens skipped: no corpus at ${CORPUS_DIR}`;
