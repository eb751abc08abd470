/**
 * The OASIS WSS SwA Profile 1.1 transforms, checked against digests computed here by hand from the
 * profile's rules (§5.4.1 MIME header canonicalization, §5.4.2 content canonicalization): text with
 * CRLF line ends, XML by exclusive C14N, anything else as it is; the Complete transform's headers
 * as `Name:value` CRLF lines in the profile's order. The verifier accepts what the signer wrote,
 * refuses it changed, and refuses a cid: reference with another transform or naming no part.
 */
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { cidOf, cidUrl } from "../../runtime/src/mime/headers.js";
import type { MessagePart } from "../../runtime/src/soap/message-security.js";
import {
  SecurityRefusal,
  signEnvelope,
  signer,
  Verifier,
  type SignOptions,
} from "../../runtime/src/wss/index.js";
import { makeKeys, opensslMissing, type TestKeys } from "../support/wss-keys.js";

const missing = opensslMissing();
const ENVELOPE =
  '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><Ping xmlns="urn:x"/></s:Body></s:Envelope>';

const sha256 = (b: string | Buffer) => createHash("sha256").update(b).digest("base64");
const part = (headers: Record<string, string>, content: string): MessagePart => ({
  id: "t@x",
  headers: { "content-id": "<t@x>", ...headers },
  content: Buffer.from(content, "latin1"),
});

/** The DigestValue of the signature's cid:t@x reference. */
function cidDigest(xml: string): string {
  const m = /<ds:Reference URI="cid:t@x">.*?<ds:DigestValue>([^<]+)</.exec(xml);
  return m![1]!;
}

describe.skipIf(missing !== undefined)("the SwA Profile 1.1 transforms", () => {
  let keys: TestKeys;
  beforeAll(() => {
    keys = makeKeys("swa-transforms");
  });

  const sign = (p: MessagePart, o: SignOptions = {}, references?: string[]) =>
    signEnvelope(
      ENVELOPE,
      signer({ key: keys.key, cert: keys.cert }),
      o,
      references ? { references } : {},
      references ? undefined : [p],
    );
  const verify = (xml: string, p: MessagePart) =>
    new Verifier({ trust: [keys.cert] }).verify(xml, new Map([[p.id, p]]));
  const refusal = (xml: string, p: MessagePart): SecurityRefusal => {
    try {
      verify(xml, p);
    } catch (e) {
      if (e instanceof SecurityRefusal) return e;
      throw e;
    }
    throw new Error("verified");
  };

  it("Content: a text part with its line ends made CRLF", () => {
    const p = part({ "content-type": "text/plain; charset=utf-8" }, "a\nb\r\nc\rd");
    const xml = sign(p);
    expect(cidDigest(xml)).toBe(sha256("a\r\nb\r\nc\r\nd"));
    expect(verify(xml, p).signer).toBeDefined();
    // The same text with other line ends is the same canonical content; other text is not.
    expect(verify(xml, { ...p, content: Buffer.from("a\r\nb\nc\nd") }).signer).toBeDefined();
    const changed = { ...p, content: Buffer.from("a\nb\r\nc\re") };
    expect(refusal(xml, changed).message).toBe("an attachment does not match its digest");
  });

  it("Content: an XML part by exclusive C14N; a binary part as it is", () => {
    const p = part({ "content-type": "application/xml" }, "<a  b='1' a=\"2\"><!--c--><x/></a>");
    const xml = sign(p);
    expect(cidDigest(xml)).toBe(sha256('<a a="2" b="1"><x></x></a>'));
    expect(verify(xml, p).signer).toBeDefined();
    const bin = part({ "content-type": "image/png" }, "\r\n\n\x00\xff");
    expect(cidDigest(sign(bin))).toBe(sha256(Buffer.from("\r\n\n\x00\xff", "latin1")));
  });

  it("Content: image/…+xml by C14N as WSS4J has it; text/…+xml as text, as WSS4J has it", () => {
    const svg = part({ "content-type": "image/svg+xml" }, "<svg  b='1'/>");
    expect(cidDigest(sign(svg))).toBe(sha256('<svg b="1"></svg>'));
    const text = part({ "content-type": "text/vnd.x+xml" }, "<a  b='1'/>\n");
    expect(cidDigest(sign(text))).toBe(sha256("<a  b='1'/>\r\n"));
  });

  it("the signer's own malformed XML part is an Error naming it, not a peer's refusal", () => {
    const p = part({ "content-type": "application/xml" }, "<a><b></a>");
    let e: unknown;
    try {
      sign(p);
    } catch (thrown) {
      e = thrown;
    }
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(SecurityRefusal);
    expect((e as Error).message).toMatch(
      /^the attachment part <t@x> of type application\/xml cannot be read as XML: /,
    );
    // A peer's is refused as malformed.
    const ok = part({ "content-type": "application/xml" }, "<a/>");
    expect(refusal(sign(ok), { ...ok, content: Buffer.from("<a>") }).reason).toBe("malformed");
  });

  it("a Content-ID's cid: URL escapes what a URL may not hold, and reads back", () => {
    const id = 'a b%c/d"<>@x';
    expect(cidUrl(id)).toBe("cid:a%20b%25c%2Fd%22%3C%3E@x");
    expect(cidOf(cidUrl(id))).toBe(id);
  });

  it("Complete: the canonical headers, then the content", () => {
    const p = part(
      {
        "content-type": 'Text/Plain; Charset="UTF-8" (a comment); format=flowed',
        "content-description": "A note",
        "content-transfer-encoding": "binary",
        "content-length": "3",
      },
      "x\n",
    );
    const xml = sign(p, { signAttachmentHeaders: true });
    expect(xml).toContain("#Attachment-Complete-Signature-Transform");
    const headers =
      "Content-Description:A note\r\nContent-ID:<t@x>\r\n" +
      'Content-Type:text/plain;charset="utf-8";format="flowed"\r\n';
    expect(cidDigest(xml)).toBe(sha256(headers + "x\r\n"));
    expect(verify(xml, p).signer).toBeDefined();
    // Headers it does not cover may change; a covered one may not.
    expect(verify(xml, { ...p, headers: { ...p.headers, "content-length": "9" } })).toBeDefined();
    const retyped = { ...p, headers: { ...p.headers, "content-type": "text/html" } };
    expect(refusal(xml, retyped).reason).toBe("digest");
  });

  it("refuses an extra part by the attachments check alone", () => {
    const p = part({ "content-type": "image/png" }, "png");
    const xml = sign(p);
    const extra: MessagePart = { id: "e@x", headers: {}, content: Buffer.from("e") };
    const both = new Map([
      [p.id, p],
      [extra.id, extra],
    ]);
    const verifier = (checks = {}) => new Verifier({ trust: [keys.cert], checks });
    expect(() => verifier().verify(xml, both)).toThrow(
      "the attachment <e@x> is not covered by the signature",
    );
    expect(verifier({ attachments: false, replay: false }).verify(xml, both).signer).toBeDefined();
  });

  it("refuses a cid: reference with another transform, or naming no part", () => {
    const p = part({ "content-type": "image/png" }, "png");
    const reference = (transform: string, uri = "cid:t@x") =>
      `<ds:Reference URI="${uri}"><ds:Transforms><ds:Transform Algorithm="${transform}"></ds:Transform></ds:Transforms>` +
      `<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"></ds:DigestMethod>` +
      `<ds:DigestValue>${sha256("png")}</ds:DigestValue></ds:Reference>`;
    const exc = sign(p, {}, [reference("http://www.w3.org/2001/10/xml-exc-c14n#")]);
    expect([refusal(exc, p).reason, refusal(exc, p).message]).toEqual([
      "algorithm",
      "a transform not allowed",
    ]);
    const content =
      "http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Content-Signature-Transform";
    // Written by hand, the same reference verifies: only the transform differed.
    expect(verify(sign(p, {}, [reference(content)]), p).signer).toBeDefined();
    const nowhere = sign(p, {}, [reference(content, "cid:other@x")]);
    expect(refusal(nowhere, p).message).toBe("a signature reference names no part of the message");
  });
});
