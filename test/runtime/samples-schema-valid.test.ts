/**
 * The samples a mock answers with and a help page shows (descriptors/sample-values.ts) are valid by
 * the WSDL's own schemas, as the JDK's validator (test/support/xsd-validate.ts) reads them: every
 * request and response body of every SOAP operation over every port, of the fixtures and of the
 * corpus goldens, deterministic and seeded (issue #45). Nothing is excused: facets, built-in
 * lexical forms, occurrences and required wildcards all count.
 */
import { describe, expect, it } from "vitest";
import * as corpus from "../../scripts/corpus-goldens.js";
import { loadGenerated, loadGolden, type LoadedGolden } from "../support/golden-services.js";
import type { WireMessage } from "../support/round-trip.js";
import { validateMessages, validatorMissing } from "../support/xsd-validate.js";
import { bodySample } from "../../runtime/src/descriptors/sample-values.js";
import { bodyXml, envelope } from "../../runtime/src/soap/envelope.js";

const missing = validatorMissing();
const present = corpus.corpusPresent();
// One line says what is skipped: the JDK's absence skips all, the corpus's the goldens.
if (missing || !present) console.log(missing ?? corpus.SKIP_LINE);

const FIXTURES = [
  ["fixtures/message-service/api.wsdl", "message-service"],
  ["fixtures/xsd-features/features.wsdl", "xsd-features"],
  ["fixtures/multipart/multipart.wsdl", "multipart"],
  ["fixtures/choices/choices.wsdl", "choices"],
  ["fixtures/documents/documents.wsdl", "documents"],
  ["fixtures/swa/scans.wsdl", "swa"],
] as const;

/** The sample messages of every SOAP operation whose body a schema declares, with `seed`. */
function sampleMessages(golden: LoadedGolden, seed: number | undefined): WireMessage[] {
  const out: WireMessage[] = [];
  for (const s of golden.services)
    for (const [portName, port] of Object.entries(s.desc.ports)) {
      if (port.protocol !== "soap11" && port.protocol !== "soap12") continue;
      const version = port.protocol === "soap11" ? "1.1" : "1.2";
      for (const [opName, op] of Object.entries(port.operations)) {
        if (op.kind !== "soap") continue;
        const modes = s.wire.get(portName)?.get(opName);
        const sides = [
          ["request", op.request, modes?.request],
          ["response", op.oneWay ? undefined : op.response, modes?.response],
        ] as const;
        for (const [side, b, mode] of sides) {
          if (!b || mode === undefined || mode === "none" || mode === "document") continue;
          const value = bodySample(b, seed === undefined ? {} : { seed });
          out.push({
            where: `${s.name} ${portName} ${opName} ${side}`,
            mode,
            xml: envelope(version, bodyXml(b, value)),
          });
        }
      }
    }
  return out;
}

/** Validates the samples of `golden`; returns the invalid messages' errors and the counts. */
async function check(wsdl: string, golden: LoadedGolden, seed?: number) {
  const messages = sampleMessages(golden, seed);
  if (messages.length === 0) return { messages: 0, invalid: [] as string[] };
  const verdicts = await validateMessages(wsdl, messages);
  const invalid = verdicts
    .filter((v) => v.errors.length > 0)
    .map((v) => `${v.where}: ${v.errors.slice(0, 3).join(" | ")}`);
  return { messages: messages.length, invalid };
}

describe.skipIf(missing !== undefined)("samples valid by the WSDL's own schemas", () => {
  for (const [wsdl, out] of FIXTURES)
    it(`${out}: every SOAP operation's request and response, unseeded and seeded`, async () => {
      const golden = await loadGenerated(wsdl, `generated-samples/${out}`, out);
      for (const seed of [undefined, 1, 7]) {
        const r = await check(wsdl, golden, seed);
        expect(r.invalid, `seed ${seed}`).toEqual([]);
      }
    }, 120_000);

  for (const g of corpus.CORPUS_GOLDENS)
    it.skipIf(!present)(
      `${g.name}: every SOAP operation's request and response, unseeded and seeded`,
      async () => {
        const golden = await loadGolden(g);
        for (const seed of [undefined, 3]) {
          const r = await check(corpus.goldenRoot(g), golden, seed);
          console.log(
            `${g.name} seed ${seed}: ${r.messages - r.invalid.length} of ${r.messages} valid`,
            ...r.invalid.map((e) => `\n  ${e}`),
          );
          expect(r.invalid, `seed ${seed}`).toEqual([]);
        }
      },
      300_000,
    );
});
