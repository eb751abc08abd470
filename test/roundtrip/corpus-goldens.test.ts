/**
 * Round-trip property tests over the corpus goldens: for every operation of every golden service,
 * sample inputs and outputs built from the descriptors (test/support/sample-values.ts: every choice
 * branch, every member of a derivation family, optional fields absent and present, nils, arrays of
 * 0, 1 and 3 items, edge scalar values)
 * go through the generated client to the generated server over every port the WSDL declares, and
 * must be equal on arrival and on return. This checks that the serializer and the parser agree on
 * everything the types allow. Each declared fault, thrown with a sample detail, must arrive as its
 * generated class with the same detail. Skipped, saying so, when the corpus is absent.
 */
import { describe, expect, it } from "vitest";
import { CORPUS_GOLDENS, SKIP_LINE, corpusPresent } from "../../scripts/corpus-goldens.js";
import { loadGolden } from "../support/golden-services.js";
import { MIN_VARIANTS, roundTrip } from "../support/round-trip.js";

const present = corpusPresent();
if (!present) console.log(SKIP_LINE);

describe.skipIf(!present)("corpus goldens round trip", () => {
  for (const g of CORPUS_GOLDENS) {
    it(`${g.name}: every operation, every port, values equal on arrival and on return`, async () => {
      const out = await roundTrip(await loadGolden(g));
      expect(out.operations).toBeGreaterThan(0);
      expect(out.calls).toBeGreaterThanOrEqual(out.operations * MIN_VARIANTS);
      // Every branch of every choice met, and every member of every derivation family met, was sent at least once.
      expect(out.missed).toEqual([]);
      expect(out.failures).toEqual([]);
      // No golden has operations whose requests cannot be told apart: none was left out.
      expect(out.skipped).toEqual([]);
    }, 120_000);
  }
});
