/**
 * The round trip over every corpus root that generates (scripts/corpus-roundtrip.ts, whose functions
 * this reuses): sample values for every operation of every port through the generated client to the
 * generated server, equal on arrival and on return, and each operation's request mutated (truncated,
 * mistyped, renamed, nested too deep, …), which the server must answer as a request error, never
 * failing inside or showing a stack trace. It found four bugs on 2026-11-23; this keeps them found. Operations whose requests cannot be told apart on the wire (WSDL_AMBIGUOUS_OPERATIONS) are
 * left out, and their number per root is pinned. With a JDK, every message written is also validated
 * against the root's own schemas (test/support/xsd-validate.ts). Without the corpus the suite is
 * skipped with a one-line note.
 */
import { describe, expect, it } from "vitest";
import { problemsOf, roundTripRoot } from "../../scripts/corpus-roundtrip.js";
import { listRoots } from "../../scripts/corpus.js";
import { corpusPresent, SKIP_LINE } from "../../scripts/corpus-goldens.js";
import { tempDir } from "../support/tmp.js";
import { validatorMissing } from "../support/xsd-validate.js";

/** Operations left out per root: each root's operations whose requests are an earlier one's. */
const AMBIGUOUS: Readonly<Record<string, number>> = {
  "WsdlToPhp/PackageGenerator:tests/resources/QueueService.wsdl": 20,
  "mvantellingen/python-zeep:tests/wsdl_files/soap.wsdl": 1,
  "vpulim/node-soap:test/wsdl/binding-exception.wsdl": 1,
};

const present = corpusPresent();
if (!present) console.log(SKIP_LINE);
/** With a JDK, every message written is also validated against the root's schemas (scripts/corpus-roundtrip.ts, Validation). */
const validator = validatorMissing() === undefined;
if (present && !validator) console.log(`corpus round trip: ${validatorMissing()}`);
/** Roots whose messages the validator found valid on 2026-11-25: 92 of 183 (60 roots' schemas refused, 8 defective, the rest wrote nothing a schema declares: SOAP encoding). */
const MIN_VALIDATED = 90;

describe.skipIf(!present)("corpus round trip", () => {
  it("every root that generates round-trips every operation over every port, and refuses its mutated requests cleanly", async () => {
    const failures: string[] = [];
    const skipped: Record<string, number> = {};
    const verdicts = { valid: 0, refused: 0, defective: 0 };
    let roundTripped = 0;
    for (const root of listRoots()) {
      const r = await roundTripRoot(root, tempDir(), {
        runtimeImport: "@wsdl-tsgen/runtime",
        mutate: true,
        validate: validator,
      });
      if (!r.generated) continue;
      roundTripped++;
      if (r.validation) verdicts[r.validation.verdict]++;
      for (const p of problemsOf(r.out).slice(0, 3)) failures.push(`${root.id}: ${p}`);
      if (!(r.out instanceof Error) && r.out.skipped.length > 0)
        skipped[root.id] = r.out.skipped.length;
    }
    expect(roundTripped).toBeGreaterThan(180);
    expect(failures).toEqual([]);
    expect(skipped).toEqual(AMBIGUOUS);
    if (validator) {
      // Every message written was validated by the schemas where Xerces accepts them; most of the
      // refused are node-soap's deliberately broken test WSDLs (an import of namespace "common.xsd").
      console.log(`corpus round trip, schemas: ${JSON.stringify(verdicts)}`);
      expect(verdicts.valid).toBeGreaterThanOrEqual(MIN_VALIDATED);
    }
  }, 900_000);
});
