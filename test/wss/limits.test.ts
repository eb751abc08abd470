/**
 * A message past the signature tree's limits is well-formed XML: the refusal says which limit it
 * broke, not that the XML is broken.
 */
import { describe, expect, it } from "vitest";
import { Verifier } from "../../runtime/src/wss/index.js";
import { makeKeys, opensslMissing } from "../support/wss-keys.js";

const missing = opensslMissing();
if (missing) console.log(`wss limits: ${missing}; skipped.`);

const SOAP = "http://schemas.xmlsoap.org/soap/envelope/";

describe.skipIf(missing !== undefined)("the verifier's limits", () => {
  it("refuses a too deeply nested message as refused, and broken XML as not well-formed", () => {
    const verifier = new Verifier({ trust: [makeKeys("limits").cert] });
    const deep = `${"<a>".repeat(200)}${"</a>".repeat(200)}`;
    const nested = `<s:Envelope xmlns:s="${SOAP}"><s:Body>${deep}</s:Body></s:Envelope>`;
    const refusal = (xml: string) => {
      try {
        verifier.verify(xml);
      } catch (e) {
        return e as Error & { reason: string };
      }
      throw new Error("not refused");
    };
    expect(refusal(nested)).toMatchObject({ reason: "malformed" });
    expect(refusal(nested).message).toMatch(/refused: .*nested too deeply/);
    expect(refusal(`<s:Envelope xmlns:s="${SOAP}"><s:Body>`).message).toBe(
      "the message is not well-formed XML",
    );
  });
});
