/**
 * The corpus roots (../shared/corpus, not part of this repository) that do not generate, each with
 * the first error code it gives and why. `test/corpus/corpus.test.ts` fails when a root fails that
 * is not listed here (or with another code), and when a listed root generates (remove it then);
 * `test/corpus/expected-failures.test.ts` keeps the table in docs/coverage.md in step with this one.
 *
 * category "defect": the WSDL or XSD itself is wrong in a way no recovery (src/recovery.ts)
 * can read past: malformed XML, or a document none of whose elements is a WSDL component. Defects
 * that can be read past (a component declared nowhere, a file missing from the corpus, the pre-2001
 * XML Schema namespace, …) generate with located warnings and are not listed.
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
  [`${RR}attachments__should_send_binary_data/soap.wsdl`]: {
    code: "WSDL_NOT_DEFINITIONS",
    category: "defect",
    reason:
      "Its default namespace is http://www.example.com/v1, so definitions and every unprefixed WSDL and XSD element are in that namespace, not WSDL's or XML Schema's: no element of the document is a WSDL or XML Schema component.",
  },
  [`${NS}wsdl/attachments.wsdl`]: {
    code: "WSDL_NOT_DEFINITIONS",
    category: "defect",
    reason:
      "Its default namespace is http://www.example.com/v1, so definitions and every unprefixed WSDL and XSD element are in that namespace, not WSDL's or XML Schema's: no element of the document is a WSDL or XML Schema component.",
  },
  [`${NS}wsdl/recursive/file.wsdl`]: {
    code: "XML_MALFORMED",
    category: "defect",
    reason:
      "recursive/A.xsd is truncated: its xs:schema element is never closed, so the file is not XML.",
  },
};

/** How many listed roots are defects of their input (they are not counted as valid inputs). */
export const DEFECT_COUNT = Object.values(EXPECTED_FAILURES).filter(
  (f) => f.category === "defect",
).length;

const cell = (s: string) => s.replace(/\|/g, "\\|");

/** The table of docs/coverage.md, "The corpus": one row per listed root, in the order above. */
export function expectedFailuresMarkdown(): string {
  const rows = Object.entries(EXPECTED_FAILURES).map(
    ([id, f]) => `| \`${cell(id)}\` | \`${f.code}\` | ${f.category} | ${cell(f.reason)} |`,
  );
  return ["| root | first error | category | reason |", "|---|---|---|---|", ...rows].join("\n");
}
