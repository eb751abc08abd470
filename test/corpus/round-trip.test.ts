/**
 * The round trip over every corpus root that generates (scripts/corpus-roundtrip.ts, whose functions
 * this reuses): sample values for every operation of every port through the generated client to the
 * generated server, equal on arrival and on return, and each operation's request mutated (truncated,
 * mistyped, renamed, nested too deep, …), which the server must answer as a request error, never
 * failing inside or showing a stack trace. It found four bugs on 2026-11-23; this keeps them found. Operations whose requests cannot be told apart on the wire (WSDL_AMBIGUOUS_OPERATIONS) are
 * left out, and their number per root is pinned. Without the corpus the suite is skipped with a
 * one-line note.
 */
import { describe, expect, it } from "vitest";
import { problemsOf, roundTripRoot } from "../../scripts/corpus-roundtrip.js";
import { listRoots } from "../../scripts/corpus.js";
import { corpusPresent, SKIP_LINE } from "../../scripts/corpus-goldens.js";
import { tempDir } from "../support/tmp.js";

/** Operations left out per root: each root's operations whose requests are an earlier one's. */
const AMBIGUOUS: Readonly<Record<string, number>> = {
  "WsdlToPhp/PackageGenerator:tests/resources/QueueService.wsdl": 20,
  "mvantellingen/python-zeep:tests/wsdl_files/soap.wsdl": 1,
  "vpulim/node-soap:test/wsdl/binding-exception.wsdl": 1,
};

const present = corpusPresent();
if (!present) console.log(SKIP_LINE);

describe.skipIf(!present)("corpus round trip", () => {
  it("every root that generates round-trips every operation over every port, and refuses its mutated requests cleanly", async () => {
    const failures: string[] = [];
    const skipped: Record<string, number> = {};
    let roundTripped = 0;
    for (const root of listRoots()) {
      const r = await roundTripRoot(root, tempDir(), { runtimeImport: "wsdl-tsgen/runtime", mutate: true });
      if (!r.generated) continue;
      roundTripped++;
      for (const p of problemsOf(r.out).slice(0, 3)) failures.push(`${root.id}: ${p}`);
      if (!(r.out instanceof Error) && r.out.skipped.length > 0) skipped[root.id] = r.out.skipped.length;
    }
    expect(roundTripped).toBeGreaterThan(180);
    expect(failures).toEqual([]);
    expect(skipped).toEqual(AMBIGUOUS);
  }, 900_000);
});
