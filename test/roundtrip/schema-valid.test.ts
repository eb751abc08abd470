/**
 * What the generated clients and servers write is valid by the WSDL's own schemas, as an independent
 * validator (the JDK's Xerces, test/support/xsd-validate.ts) reads them: every request and response
 * of the round trip (sample values for every operation over every port, every choice branch and
 * family member, nils, arrays of 0, 1 and 3, declared faults) of the Message Retrieval Service and of
 * the corpus goldens. The round trip alone would pass a mistake made alike by writer and reader
 * (an element out of order, a namespace wrongly qualified, a lexical form the schema refuses).
 * Skipped, saying so, without a JDK; the goldens also without the corpus.
 */
import { describe, expect, it } from "vitest";
import {
  CORPUS_GOLDENS,
  SKIP_LINE,
  corpusPresent,
  goldenRoot,
} from "../../scripts/corpus-goldens.js";
import { loadGenerated, loadGolden, type LoadedGolden } from "../support/golden-services.js";
import { roundTrip, type WireMessage } from "../support/round-trip.js";
import { validateMessages, validatorMissing, valueOnly } from "../support/xsd-validate.js";
import { bodySample } from "../../runtime/src/descriptors/sample-values.js";
import { bodyXml, envelope } from "../../runtime/src/soap/envelope.js";
import { FeaturesDesc } from "../../generated-samples/xsd-features/descriptors.js";
import { MailboxDesc } from "../../generated-samples/choices/descriptors.js";

const missing = validatorMissing();
if (missing) console.log(missing);
const present = corpusPresent();
if (!present && !missing) console.log(SKIP_LINE);

/**
 * Round-trips `golden`, validating every message that holds schema-declared XML. Errors only the
 * sample values can cause (`valueOnly`) are counted apart; every other error is a failure.
 */
async function check(
  wsdl: string,
  golden: LoadedGolden,
  wsdlEmbedded = false,
): Promise<{ requests: number; messages: number; valueOnly: number }> {
  const messages: WireMessage[] = [];
  const out = await roundTrip(golden, { capture: (m) => messages.push(m), wsdlEmbedded });
  expect(out.failures).toEqual([]);
  if (messages.length === 0) return { requests: 0, messages: 0, valueOnly: 0 };
  const verdicts = await validateMessages(wsdl, messages);
  const failures = verdicts.flatMap((v) =>
    v.errors.filter((_, i) => !valueOnly(v.errors, i)).map((e) => `${v.where}: ${e}`),
  );
  expect(failures).toEqual([]);
  const requests = messages.filter((m) => m.where.endsWith(" request")).length;
  return {
    requests,
    messages: messages.length,
    valueOnly: verdicts.filter((v) => v.errors.length > 0).length,
  };
}

describe.skipIf(missing !== undefined)("messages valid by the WSDL's schemas", () => {
  it("the validator refuses what a writer could get wrong, and counts none of it as the values' doing", async () => {
    const wsdl = "fixtures/message-service/api.wsdl";
    const envelope = (body: string) =>
      `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${body}</soap:Body></soap:Envelope>`;
    const verdicts = await validateMessages(wsdl, [
      {
        where: "valid",
        mode: "soap-document",
        xml: envelope(
          '<DeleteMessage xmlns="http://api.example.com/messages/"><email>a</email><MessageId>1</MessageId></DeleteMessage>',
        ),
      },
      {
        where: "out of order",
        mode: "soap-document",
        xml: envelope(
          '<DeleteMessage xmlns="http://api.example.com/messages/"><MessageId>1</MessageId><email>a</email></DeleteMessage>',
        ),
      },
      {
        where: "unqualified",
        mode: "soap-document",
        xml: envelope(
          '<DeleteMessage xmlns="http://api.example.com/messages/"><email xmlns="">a</email><MessageId>1</MessageId></DeleteMessage>',
        ),
      },
      {
        where: "not an int",
        mode: "soap-document",
        xml: envelope(
          '<DeleteMessage xmlns="http://api.example.com/messages/"><MessageId>1.0</MessageId></DeleteMessage>',
        ),
      },
      {
        where: "required missing",
        mode: "document",
        xml: '<ArrayOfMessages xmlns="http://api.example.com/messages/"><Messages><UserId>1</UserId><Id>2</Id></Messages></ArrayOfMessages>',
      },
      {
        where: "rpc wrapper not validated",
        mode: "soap-rpc",
        xml: envelope('<Anything xmlns="urn:x"><a>1</a></Anything>'),
      },
    ]);
    expect(
      verdicts.map((v) => [
        v.where,
        v.elements,
        v.errors.length > 0,
        v.errors.some((_, i) => valueOnly(v.errors, i)),
      ]),
    ).toEqual([
      ["valid", 1, false, false],
      ["out of order", 0, true, false],
      ["unqualified", 0, true, false],
      ["not an int", 0, true, false],
      ["required missing", 0, true, false],
      ["rpc wrapper not validated", 0, false, false],
    ]);
  }, 60_000);

  it("the Message Retrieval Service: every operation over all four ports", async () => {
    const wsdl = "fixtures/message-service/api.wsdl";
    const r = await check(
      wsdl,
      await loadGenerated(wsdl, "generated-samples/message-service", "message-service"),
      true,
    );
    // Requests and responses over SOAP 1.1 and 1.2 (3 operations, 4 variants each), and the HTTP
    // GET/POST responses of the two that return a document.
    expect(r.requests).toBe(24);
    expect(r.messages).toBe(24 + 24 + 16);
    expect(r.valueOnly).toBe(0);
  }, 120_000);

  it("the choices fixture: repeated choices in order, every branch, over the round trip", async () => {
    const wsdl = "fixtures/choices/choices.wsdl";
    const r = await check(
      wsdl,
      await loadGenerated(wsdl, "generated-samples/choices", "choices"),
      true,
    );
    expect(r.requests).toBeGreaterThan(0);
    expect(r.valueOnly).toBe(0);
  }, 120_000);

  it("the samples of the mock and help pages, one branch of each choice (issue #32)", async () => {
    // A sample once held every branch of a choice (`Order`'s Circle, Code, Width and Height).
    const messages: WireMessage[] = [];
    for (const [wsdl, desc] of [
      ["fixtures/xsd-features/features.wsdl", FeaturesDesc],
      ["fixtures/choices/choices.wsdl", MailboxDesc],
    ] as const) {
      for (const [name, port] of Object.entries(desc.ports))
        for (const [opName, op] of Object.entries(port.operations)) {
          if (op.kind !== "soap") continue;
          for (const b of [op.request, op.response])
            if (b)
              messages.push({
                where: `${wsdl} ${name} ${opName}`,
                mode: "soap-document",
                xml: envelope("1.1", bodyXml(b, bodySample(b))),
              });
        }
      const verdicts = await validateMessages(wsdl, messages.splice(0));
      expect(verdicts.flatMap((v) => v.errors.map((e) => `${v.where}: ${e}`))).toEqual([]);
      expect(verdicts.reduce((n, v) => n + v.elements, 0)).toBeGreaterThan(0);
    }
  }, 120_000);

  for (const g of CORPUS_GOLDENS) {
    it.skipIf(!present)(
      `${g.name}: every operation, every port`,
      async () => {
        const golden = await loadGolden(g);
        const r = await check(goldenRoot(g), golden);
        // Validating no message would prove nothing, unless no schema declares any (SOAP encoding).
        const declared = golden.services.some((s) =>
          [...s.wire.values()].some((ops) =>
            [...ops.values()].some((m) => m.request !== "none" || m.response !== "none"),
          ),
        );
        if (declared) expect(r.messages).toBeGreaterThan(0);
        else expect(r.messages).toBe(0);
        if (r.valueOnly > 0)
          console.log(
            `${g.name}: ${r.messages} messages validated, ${r.valueOnly} with errors only the sample values cause`,
          );
      },
      180_000,
    );
  }
});
