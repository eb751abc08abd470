/**
 * The server's verification (HandlerOptions.security with x509Security) against the forgeries of
 * the OWASP and WS-Attacker catalogues: each forged request is refused with a Client fault that
 * names what failed, before the implementation sees it, and each passes through when the one check
 * it tests is switched off, so that the refusal is that check's doing. A genuine request reaches
 * the implementation, which reads the certificate that signed it.
 */
import { X509Certificate } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createApiHandler,
  type ApiService,
} from "../../generated-samples/message-service/index.js";
import { WSU_NS } from "../../runtime/src/index.js";
import type { SoapVersion } from "../../runtime/src/index.js";
import { envelope as soapEnvelope } from "../../runtime/src/internal.js";
import {
  signEnvelope,
  signer,
  x509Security,
  type SignOptions,
  type VerifyChecks,
} from "../../runtime/src/wss/index.js";
import { serverPerTest } from "../support/loopback.js";
import { makeKeys, opensslMissing, type TestKeys } from "../support/wss-keys.js";

const missing = opensslMissing();
if (missing) console.log(`wss: ${missing}; the forgery suite is skipped.`);

const NS = "http://api.example.com/messages/";
const DAY = 86_400_000;
const servers = serverPerTest(afterEach);

/** A GetMessages request naming `email`, unsigned. */
const request = (email: string, version: SoapVersion = "1.1"): string =>
  soapEnvelope(
    version,
    `<GetMessages xmlns="${NS}"><email>${email}</email><password>pw</password></GetMessages>`,
  );

interface Seen {
  readonly emails: string[];
  readonly signers: (X509Certificate | undefined)[];
}

function implementation(seen: Seen): ApiService {
  return {
    getMessages: (input, ctx) => {
      seen.emails.push(input.email ?? "");
      seen.signers.push(ctx.signer);
      return [];
    },
    getMessagesInDateRange: () => [],
    deleteMessage: () => undefined,
  };
}

interface Answer {
  readonly status: number;
  readonly text: string;
}

async function post(url: string, xml: string, version: SoapVersion = "1.1"): Promise<Answer> {
  const headers: Record<string, string> =
    version === "1.1"
      ? { "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${NS}GetMessages"` }
      : { "Content-Type": "application/soap+xml; charset=utf-8" };
  const res = await fetch(`${url}/api.asmx`, { method: "POST", headers, body: xml });
  return { status: res.status, text: await res.text() };
}

describe.skipIf(missing !== undefined)("server verification and the forgery suite", () => {
  let trusted: TestKeys;
  let stranger: TestKeys;
  let shortLived: TestKeys;

  beforeAll(() => {
    trusted = makeKeys("trusted");
    stranger = makeKeys("stranger");
    shortLived = makeKeys("short-lived", { days: 1 });
  });

  /** A server trusting `trusted` and `shortLived`, with `off` switched off and clock `now`. */
  async function serve(seen: Seen, off: Partial<VerifyChecks> = {}, now?: () => Date) {
    const security = x509Security({
      verify: { trust: [trusted.cert, shortLived.cert], checks: off, ...(now && { now }) },
    });
    return servers.serve(createApiHandler(implementation(seen), { security }));
  }

  const signed = (xml: string, keys = trusted, o: SignOptions = {}, refs: string[] = []) =>
    signEnvelope(xml, signer({ key: keys.key, cert: keys.cert }, o), o, { references: refs });

  it("lets a genuine request through, over SOAP 1.1 and 1.2, and tells who signed it", async () => {
    const seen: Seen = { emails: [], signers: [] };
    const server = await serve(seen);
    for (const version of ["1.1", "1.2"] as const) {
      const answer = await post(server.url, signed(request("ok", version)), version);
      expect(answer.status, answer.text).toBe(200);
    }
    expect(seen.emails).toEqual(["ok", "ok"]);
    const expected = new X509Certificate(trusted.cert).fingerprint256;
    expect(seen.signers.map((c) => c?.fingerprint256)).toEqual([expected, expected]);
  });

  /** A forgery: the requests to send (the last is judged), the check it defeats, the words. */
  interface Forgery {
    readonly check: keyof VerifyChecks;
    readonly words: string;
    readonly forge: () => string[];
    /** The server's clock, when it is not now. */
    readonly now?: () => Date;
  }

  const FORGERIES: Record<string, Forgery> = {
    "a missing signature": {
      check: "signature",
      words: "the message is not signed",
      forge: () => [request("evil")],
    },
    "a wrong digest": {
      check: "digest",
      words: "a signed part does not match its digest",
      forge: () => [signed(request("good")).replace("<email>good<", "<email>evil<")],
    },
    "an untrusted certificate": {
      check: "trust",
      words: "the signing certificate is not trusted",
      forge: () => [signed(request("evil"), stranger)],
    },
    "an expired certificate": {
      check: "certificateDates",
      words: "the signing certificate is expired or not yet valid",
      forge: () => [
        signed(request("evil"), shortLived, { now: () => new Date(Date.now() + 3 * DAY) }),
      ],
      now: () => new Date(Date.now() + 3 * DAY),
    },
    "an expired Timestamp": {
      check: "timestamp",
      words: "the Timestamp has expired",
      forge: () => [
        signed(request("evil"), trusted, { now: () => new Date(Date.now() - 600_000) }),
      ],
    },
    "a Timestamp older than its time-to-live, however far its Expires": {
      check: "timestamp",
      words: "the Timestamp has expired",
      forge: () => [
        signed(request("evil"), trusted, {
          now: () => new Date(Date.now() - 600_000),
          timestampSeconds: 100 * 365 * 86_400,
        }),
      ],
    },
    "a Timestamp from the future": {
      check: "timestamp",
      words: "the Timestamp was created in the future",
      forge: () => [
        signed(request("evil"), trusted, { now: () => new Date(Date.now() + 600_000) }),
      ],
    },
    "a Body that is not the signed one (wrapping)": {
      check: "wrapping",
      words: "the SOAP Body is not the signed one",
      forge: () => [wrapped(signed(request("good")))],
    },
    "duplicate Ids": {
      check: "uniqueIds",
      words: "the message has duplicate Ids",
      forge: () => [withDuplicateId(signed(request("evil")))],
    },
    "a reference outside the envelope": {
      check: "referencesInEnvelope",
      words: "a signature reference points outside the envelope",
      forge: () => [signed(request("evil"), trusted, {}, [externalReference()])],
    },
    "an algorithm not allowed": {
      check: "algorithms",
      words: "a signature algorithm not allowed",
      forge: () => [signed(request("evil"), trusted, { signature: "rsa-sha1", digest: "sha1" })],
    },
    "a replayed Timestamp": {
      check: "replay",
      words: "the message was replayed",
      forge: () => {
        const once = signed(request("evil"));
        return [once, once];
      },
    },
  };

  for (const [name, f] of Object.entries(FORGERIES)) {
    it(`refuses ${name} with a Client fault, before the implementation`, async () => {
      const seen: Seen = { emails: [], signers: [] };
      const server = await serve(seen, {}, f.now);
      const messages = f.forge();
      let answer: Answer | undefined;
      for (const m of messages) answer = await post(server.url, m);
      expect(answer!.status).toBe(500);
      expect(answer!.text).toContain("<faultcode>soap:Client</faultcode>");
      expect(answer!.text).toContain(
        `The security of the request could not be verified: ${f.words}.`,
      );
      expect(answer!.text).not.toMatch(/\.ts:|\bat \w+ \(/);
      expect(seen.emails).toEqual(messages.slice(0, -1).map(() => "evil"));
    });

    it(`lets ${name} through when the ${f.check} check is off`, async () => {
      const seen: Seen = { emails: [], signers: [] };
      const server = await serve(seen, { [f.check]: false }, f.now);
      for (const m of f.forge()) {
        const answer = await post(server.url, m);
        expect(answer.status, answer.text).toBe(200);
      }
      expect(seen.emails.at(-1)).toBe("evil");
    });
  }

  it("refuses a replay whose SignatureValue is spelt otherwise (line breaks, unused bits)", async () => {
    const seen: Seen = { emails: [], signers: [] };
    const server = await serve(seen);
    const once = signed(request("evil"));
    const m = /<ds:SignatureValue>([^<]+)==</.exec(once)!;
    const value = m[1]!;
    // The last character before "==" carries 2 bits; the next one in the alphabet differs only in
    // the 4 that are dropped.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const last = alphabet.indexOf(value.at(-1)!);
    const respelt = value.slice(0, -1) + alphabet[(last & ~15) | (~last & 1)]!;
    expect(Buffer.from(`${respelt}==`, "base64")).toEqual(Buffer.from(`${value}==`, "base64"));
    const again = once.replace(value, `${respelt.slice(0, 64)}\n${respelt.slice(64)}`);
    expect((await post(server.url, once)).status).toBe(200);
    const answer = await post(server.url, again);
    expect(answer.status).toBe(500);
    expect(answer.text).toContain("the message was replayed");
    expect(seen.emails).toEqual(["evil"]);
  });

  it("refuses a second Body or Header beside the signed ones, whatever checks are on", async () => {
    const seen: Seen = { emails: [], signers: [] };
    const server = await serve(seen);
    const good = signed(request("good"));
    const secondBody = good.replace(
      "</soap:Envelope>",
      `<soap:Body><GetMessages xmlns="${NS}"><email>evil</email><password>pw</password></GetMessages></soap:Body></soap:Envelope>`,
    );
    const secondHeader = good.replace(
      "<soap:Body",
      '<soap:Header><To xmlns="http://www.w3.org/2005/08/addressing">https://evil</To></soap:Header><soap:Body',
    );
    expect(secondHeader).not.toBe(good);
    for (const forged of [secondBody, secondHeader]) {
      const answer = await post(server.url, forged);
      expect(answer.status).toBe(500);
      expect(answer.text).toContain("other than one optional Header and one Body");
    }
    expect(seen.emails).toEqual([]);
    expect((await post(server.url, good)).status).toBe(200);
  });

  it("refuses an RSA signature labelled ECDSA, which an ECDSA-only server must not take", async () => {
    const seen: Seen = { emails: [], signers: [] };
    const security = x509Security({
      verify: { trust: [trusted.cert], signatures: ["ecdsa-sha256"] },
    });
    const server = await servers.serve(createApiHandler(implementation(seen), { security }));
    const answer = await post(
      server.url,
      signed(request("evil"), trusted, { signature: "ecdsa-sha256" }),
    );
    expect(answer.status).toBe(500);
    expect(answer.text).toContain("the signature algorithm does not fit the certificate's key");
    expect(seen.emails).toEqual([]);
  });

  it("refuses the HTTP GET and POST bindings, which carry no signature", async () => {
    const seen: Seen = { emails: [], signers: [] };
    const server = await serve(seen);
    const query = "email=evil&password=pw";
    const get = await fetch(`${server.url}/api.asmx/GetMessages?${query}`);
    const post = await fetch(`${server.url}/api.asmx/GetMessages`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: query,
    });
    for (const res of [get, post]) {
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("HTTP GET and POST carry none");
    }
    expect(seen.emails).toEqual([]);
  });

  it("refuses over SOAP 1.2 with a Sender fault", async () => {
    const server = await serve({ emails: [], signers: [] });
    const answer = await post(server.url, request("evil", "1.2"), "1.2");
    expect(answer.status).toBe(500);
    expect(answer.text).toContain("<soap:Value>soap:Sender</soap:Value>");
    expect(answer.text).toContain("the message is not signed");
  });
});

/**
 * The signed Body moved into a header entry, where the signature still finds it by Id, and a new
 * Body in its place: XML Signature Wrapping.
 */
function wrapped(xml: string): string {
  const start = xml.indexOf("<soap:Body");
  const end = xml.indexOf("</soap:Body>") + "</soap:Body>".length;
  const body = xml.slice(start, end);
  const evil = `<soap:Body><GetMessages xmlns="${NS}"><email>evil</email><password>pw</password></GetMessages></soap:Body>`;
  const moved = xml.slice(0, start) + evil + xml.slice(end);
  return moved.replace(
    "</soap:Header>",
    `<w:Wrapper xmlns:w="urn:w">${body}</w:Wrapper></soap:Header>`,
  );
}

/** A header entry after the Security header with the Timestamp's Id. */
function withDuplicateId(xml: string): string {
  const id = /<wsu:Timestamp wsu:Id="([^"]+)"/.exec(xml)![1]!;
  const other = `<x:Other xmlns:x="urn:x" xmlns:wsu="${WSU_NS}" wsu:Id="${id}"/>`;
  return xml.replace("</soap:Header>", `${other}</soap:Header>`);
}

/** A reference, signed along with the others, to a document outside the envelope. */
function externalReference(): string {
  return (
    '<ds:Reference URI="http://127.0.0.1:9/elsewhere.xml"><ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"></ds:Transform></ds:Transforms>' +
    '<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"></ds:DigestMethod><ds:DigestValue>AAAA</ds:DigestValue></ds:Reference>'
  );
}
