/**
 * The client reads a response in the charset its Content-Type declares: UTF-8 bytes go straight to
 * the decoder, other charsets are decoded to text first.
 */
import { describe, expect, it } from "vitest";
import { ApiClient, ResponseFormatError } from "../../generated-samples/message-service/index.js";

const ALICE = { email: "alice@example.com", password: "alice-pass" };

function envelope(sender: string): string {
  return (
    '<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
    '<GetMessagesResponse xmlns="http://api.example.com/messages/"><GetMessagesResult><Messages>' +
    `<DateArrived>2024-01-15T08:30:00.1234567</DateArrived><UserId>1</UserId><Sender>${sender}</Sender><Id>7</Id>` +
    "</Messages></GetMessagesResult></GetMessagesResponse></soap:Body></soap:Envelope>"
  );
}

/** A client whose every call is answered with `body` and `contentType`. */
function clientAnswering(body: Uint8Array, contentType: string): ApiClient {
  return new ApiClient({
    endpoint: "http://127.0.0.1:9/api.asmx",
    fetch: async () =>
      new Response(body, { status: 200, headers: { "Content-Type": contentType } }),
  });
}

describe("response charsets", () => {
  const sender = "Grüße, 日本 & «Ω» 😀";
  const xml = envelope(sender.replace("&", "&amp;"));

  it("UTF-8, declared or not, with or without a byte order mark", async () => {
    for (const ct of ["text/xml; charset=utf-8", "text/xml", 'text/xml; charset="UTF-8"']) {
      const m = (await clientAnswering(Buffer.from(xml, "utf8"), ct).getMessages(ALICE))?.[0];
      expect(m?.Sender).toBe(sender);
    }
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml, "utf8")]);
    expect((await clientAnswering(bom, "text/xml").getMessages(ALICE))?.[0]?.Sender).toBe(sender);
  });

  it("ISO-8859-1 and UTF-16 as declared", async () => {
    const latin = "Grüße «café»";
    const m = (
      await clientAnswering(
        Buffer.from(envelope(latin), "latin1"),
        "text/xml; charset=iso-8859-1",
      ).getMessages(ALICE)
    )?.[0];
    expect(m?.Sender).toBe(latin);
    const u = (
      await clientAnswering(
        Buffer.from(xml.replace('<?xml version="1.0"?>', ""), "utf16le"),
        "text/xml; charset=utf-16le",
      ).getMessages(ALICE)
    )?.[0];
    expect(u?.Sender).toBe(sender);
  });

  it("a malformed response says where, in characters, and keeps its text for the error", async () => {
    const broken = xml.replace("</Sender>", "</Sendr>");
    const e = await clientAnswering(Buffer.from(broken, "utf8"), "text/xml; charset=utf-8")
      .getMessages(ALICE)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ResponseFormatError);
    expect((e as ResponseFormatError).message).toMatch(
      new RegExp(`line 1, column ${broken.indexOf("</Sendr>") + 1}\\b`),
    );
    expect((e as ResponseFormatError).body).toBe(broken);
  });

  it("an empty body is empty whatever its charset, a byte order mark and white space included", async () => {
    const bodies: [Uint8Array, string][] = [
      [Buffer.from([0xef, 0xbb, 0xbf, 0x20, 0x0a]), "text/xml; charset=utf-8"],
      [Buffer.from(" \r\n ", "utf16le"), "text/xml; charset=utf-16le"],
      [new Uint8Array(0), "text/xml"],
    ];
    for (const [body, ct] of bodies) {
      const e = await clientAnswering(body, ct)
        .getMessages(ALICE)
        .catch((x: unknown) => x);
      expect(e, ct).toBeInstanceOf(ResponseFormatError);
      expect((e as Error).message).toMatch(/has an empty body; expected a SOAP envelope/);
    }
  });
});
