/**
 * R1 and R5 of issue 42. A SignedInfo is canonicalized before its signature value is checked, and
 * the certificate it names is public, so a forger with no key could make the verifier canonicalize
 * whatever SignedInfo it sent: thousands of elements times thousands of PrefixList prefixes cost
 * seconds. SignedInfo is now read strictly first (its schema's children, Santuario's limits, a
 * capped PrefixList): each hostile form is refused, by name, without one canonicalization, by the
 * server's verifier and by a client verifying a hostile server's answer. And a KeyInfo reference
 * never names a token that has no wsu:Id.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ApiClient } from "../../generated-samples/message-service/index.js";
import { envelope } from "../../runtime/src/internal.js";
import { SecurityRefusal } from "../../runtime/src/index.js";
import { signEnvelope, signer, Verifier, x509Security } from "../../runtime/src/wss/index.js";
import { recordingServer, rejection } from "../support/loopback.js";
import { makeKeys, opensslMissing, type TestKeys } from "../support/wss-keys.js";

type Signer = ReturnType<typeof signer>;

/** How many canonicalizations were made: the cost a keyless forger must not reach. */
const c14n = vi.hoisted(() => ({ calls: 0 }));
vi.mock("../../runtime/src/wss/c14n.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../runtime/src/wss/c14n.js")>();
  return {
    ...real,
    excC14n: (...args: Parameters<typeof real.excC14n>) => {
      c14n.calls++;
      return real.excC14n(...args);
    },
  };
});

const missing = opensslMissing();
if (missing) console.log(`wss signed-info: ${missing}; skipped.`);

const NS = "http://api.example.com/messages/";
const EXC = "http://www.w3.org/2001/10/xml-exc-c14n#";
const TRANSFORM = `<ds:Transform Algorithm="${EXC}"></ds:Transform>`;

const request = (): string =>
  envelope(
    "1.1",
    `<GetMessages xmlns="${NS}"><email>a</email><password>b</password></GetMessages>`,
  );

/** `n` distinct prefixes, for a PrefixList. */
const prefixes = (n: number): string => Array.from({ length: n }, (_, i) => `p${i}`).join(" ");

/** A SignedInfo of more elements than its schema allows within the limits, refused as read. */
const STUFFED = "the message is refused: the SignedInfo has more elements than its schema allows";

const inclusive = (list: string): string =>
  `<ec:InclusiveNamespaces xmlns:ec="${EXC}" PrefixList="${list}"/>`;

/** `xml` with `what` put in its CanonicalizationMethod. */
const inC14nMethod = (xml: string, what: string): string =>
  xml.replace("></ds:CanonicalizationMethod>", `>${what}</ds:CanonicalizationMethod>`);

/** `xml` with `what` after its SignatureMethod. */
const afterMethod = (xml: string, what: string): string =>
  xml.replace("</ds:SignatureMethod>", `</ds:SignatureMethod>${what}`);

/** `xml`'s first reference written `n` times more. */
const moreReferences = (xml: string, n: number): string => {
  const ref = /<ds:Reference .*?<\/ds:Reference>/.exec(xml)![0];
  return afterMethod(xml, ref.repeat(n));
};

describe.skipIf(missing !== undefined)("SignedInfo read before any canonicalization", () => {
  let keys: TestKeys;
  let s: Signer;
  let verifier: Verifier;

  beforeAll(() => {
    keys = makeKeys("signed-info");
    s = signer({ key: keys.key, cert: keys.cert });
    verifier = new Verifier({ trust: [keys.cert], checks: { replay: false } });
  });

  /** The refusal of `xml`, and how many canonicalizations verifying it made. */
  function refusal(xml: string): { reason: string; message: string; c14n: number } {
    c14n.calls = 0;
    try {
      verifier.verify(xml);
    } catch (e) {
      if (!(e instanceof SecurityRefusal)) throw e;
      return { reason: e.reason, message: e.message, c14n: c14n.calls };
    }
    throw new Error("not refused");
  }

  it("verifies a genuine message, canonicalizing SignedInfo and its two references", () => {
    const xml = signEnvelope(request(), s);
    c14n.calls = 0;
    expect(verifier.verify(xml).signer?.subject).toBe("CN=signed-info");
    expect(c14n.calls).toBe(3);
  });

  const HOSTILE: Record<string, [(xml: string) => string, string]> = {
    "thousands of foreign elements beside a PrefixList of thousands (the R1 attack)": [
      (xml) =>
        afterMethod(
          inC14nMethod(xml, inclusive(prefixes(2000))),
          `<x:pad xmlns:x="urn:x"/>`.repeat(2000),
        ),
      STUFFED,
    ],
    "thousands of foreign elements in SignedInfo": [
      (xml) => afterMethod(xml, `<x:pad xmlns:x="urn:x"><x:in/></x:pad>`.repeat(2000)),
      STUFFED,
    ],
    "a foreign element inside a Reference": [
      (xml) => xml.replace("<ds:DigestMethod", `<x:pad xmlns:x="urn:x"/><ds:DigestMethod`),
      "a reference has no DigestMethod",
    ],
    "a foreign element inside a Transform": [
      (xml) => xml.replace("></ds:Transform>", `><x:pad xmlns:x="urn:x"/></ds:Transform>`),
      "the SignedInfo holds an element its schema does not allow",
    ],
    "an element inside SignatureMethod": [
      (xml) =>
        xml.replace("</ds:SignatureMethod>", "<ds:HMACOutputLength>8</ds:HMACOutputLength>$&"),
      "the SignedInfo holds an element its schema does not allow",
    ],
    "31 references, one more than Santuario allows": [
      (xml) => moreReferences(xml, 29),
      "the signature has too many references",
    ],
    "ten thousand references": [(xml) => moreReferences(xml, 10_000), STUFFED],
    "6 transforms, one more than Santuario allows": [
      (xml) => xml.replace(TRANSFORM, TRANSFORM.repeat(6)),
      "a reference has too many transforms",
    ],
    "65 prefixes in a PrefixList": [
      (xml) => inC14nMethod(xml, inclusive(prefixes(65))),
      "the InclusiveNamespaces PrefixList names too many prefixes",
    ],
    "a PrefixList longer than 2,048 characters": [
      (xml) => xml.replace(TRANSFORM, TRANSFORM.replace("><", `>${inclusive("p ".repeat(1100))}<`)),
      "the InclusiveNamespaces PrefixList is too long",
    ],
    "text in SignedInfo": [
      (xml) => afterMethod(xml, "x".repeat(10_000)),
      "the signature's SignedInfo holds text its schema does not allow",
    ],
    "an attribute SignedInfo's schema does not name": [
      (xml) => xml.replace("<ds:SignedInfo>", `<ds:SignedInfo xmlns:x="urn:x" x:pad="1">`),
      "the signature's SignedInfo has an attribute its schema does not allow",
    ],
    "a second SignedInfo": [
      (xml) => xml.replace("<ds:SignatureValue>", "<ds:SignedInfo></ds:SignedInfo>$&"),
      "the signature does not begin with its one SignedInfo",
    ],
    "SignatureMethod before CanonicalizationMethod": [
      (xml) => {
        const c = /<ds:CanonicalizationMethod .*?<\/ds:CanonicalizationMethod>/.exec(xml)![0];
        return afterMethod(xml.replace(c, ""), c);
      },
      "the SignedInfo does not begin with its CanonicalizationMethod and SignatureMethod",
    ],
  };

  for (const [name, [forge, words]] of Object.entries(HOSTILE))
    it(`refuses ${name} as malformed, canonicalizing nothing`, () => {
      const xml = forge(signEnvelope(request(), s));
      expect(refusal(xml)).toEqual({ reason: "malformed", message: words, c14n: 0 });
    });

  it("refuses a stuffed SignedInfo before it reads the rest of the message", () => {
    const stuffed = afterMethod(signEnvelope(request(), s), `<x:pad xmlns:x="urn:x"/>`.repeat(500));
    expect(refusal(stuffed.replace("</soap:Body>", "</soap:Bod>")).message).toBe(STUFFED);
    expect(refusal(signEnvelope(request(), s).replace("</soap:Body>", "</soap:Bod>")).message).toBe(
      "the message is not well-formed XML",
    );
  });

  it("our client refuses a hostile server's answer the same way, canonicalizing nothing", async () => {
    const answer = afterMethod(
      inC14nMethod(signEnvelope(envelope("1.1", `<GetMessagesResponse xmlns="${NS}"/>`), s), ""),
      `<x:pad xmlns:x="urn:x"/>`.repeat(5000),
    );
    const server = await recordingServer((_req, res) => {
      res.setHeader("Content-Type", "text/xml; charset=utf-8");
      res.end(answer);
    });
    const security = x509Security({ verify: { trust: [keys.cert] } });
    const client = new ApiClient({ endpoint: `${server.url}/api.asmx`, security });
    c14n.calls = 0;
    try {
      const e = await rejection(client.getMessages({ email: "a", password: "b" }), SecurityRefusal);
      expect([e.reason, e.message]).toEqual(["malformed", STUFFED]);
      expect(c14n.calls).toBe(0);
    } finally {
      await server.close();
    }
  });

  describe("R5: a KeyInfo reference names only a token with a wsu:Id", () => {
    const NAMES_NONE = "the signature names no X.509 token of the Security header";

    it('refuses "#undefined" naming a token that has no wsu:Id', () => {
      const xml = signEnvelope(request(), s)
        .replace(/(<wsse:BinarySecurityToken [^>]*?) wsu:Id="[^"]*"/, "$1")
        .replace(/(<wsse:Reference URI=")[^"]*"/, '$1#undefined"');
      expect(xml).not.toMatch(/<wsse:BinarySecurityToken [^>]*wsu:Id/);
      expect(refusal(xml)).toMatchObject({ reason: "malformed", message: NAMES_NONE });
    });

    it("refuses a reference to a token that has an Id, but no wsu:Id", () => {
      const xml = signEnvelope(request(), s).replace(
        /(<wsse:BinarySecurityToken [^>]*?) wsu:Id=/,
        "$1 Id=",
      );
      expect(refusal(xml)).toMatchObject({ reason: "malformed", message: NAMES_NONE });
    });
  });
});
