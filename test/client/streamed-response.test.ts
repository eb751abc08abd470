/**
 * The client decodes a UTF-8 response as its chunks arrive (in pieces of MIN_PIECE bytes and more):
 * the values, the errors and where they are said to be, and the body kept for an error, are those
 * of the body read whole, however the chunks cut it.
 */
import { describe, expect, it } from "vitest";
import {
  ApiClient,
  ResponseFormatError,
  TransportError,
} from "../../generated-samples/message-service/index.js";
import { MIN_PIECE } from "../../runtime/src/xml/pieces.js";

const ALICE = { email: "alice@example.com", password: "alice-pass" };

interface Msg {
  readonly Id: number;
  readonly Sender: string;
  readonly MessageText: string;
}

/** Message `i`: multi-byte characters of every UTF-8 length, references and markup characters. */
function message(i: number): Msg {
  return {
    Id: i,
    Sender: `caller ${i} «Ω» 日本 😀`,
    MessageText: `text ${i}: a & b < c > d ${"é".repeat(i % 7)}`,
  };
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** One message per line, so that a line number names a message: line 1 is the envelope's start, message i is on line i + 2. */
function response(
  count: number,
  edit?: (i: number, line: string) => string,
): { text: string; messages: Msg[] } {
  const messages = Array.from({ length: count }, (_, i) => message(i));
  const lines = messages.map((m, i) => {
    const line = `<Messages><DateArrived>2024-01-15T08:30:00.1234567</DateArrived><UserId>1</UserId><Sender>${esc(m.Sender)}</Sender><MessageText>${esc(m.MessageText)}</MessageText><Id>${m.Id}</Id></Messages>`;
    return edit ? edit(i, line) : line;
  });
  const text =
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>\n' +
    '<GetMessagesResponse xmlns="http://api.example.com/messages/"><GetMessagesResult>\n' +
    lines.join("\n") +
    "\n</GetMessagesResult></GetMessagesResponse></soap:Body></soap:Envelope>\n";
  return { text, messages };
}

/** Enough messages for a body of several pieces. */
const MANY = Math.ceil((2.5 * MIN_PIECE) / 200);

/** A client answered with `body` cut into chunks of `size` bytes (a prime: cuts fall inside characters and tags). */
function clientAnswering(
  body: Uint8Array,
  size: number,
  contentType = "text/xml; charset=utf-8",
): ApiClient {
  return new ApiClient({
    endpoint: "http://127.0.0.1:9/api.asmx",
    fetch: async () => {
      let at = 0;
      const stream = new ReadableStream<Uint8Array>({
        // One chunk per pull, each after a turn of the event loop, as a socket delivers them.
        async pull(controller) {
          await new Promise((resolve) => setImmediate(resolve));
          if (at >= body.length) return controller.close();
          controller.enqueue(body.slice(at, at + size));
          at += size;
        },
      });
      return new Response(stream, { status: 200, headers: { "Content-Type": contentType } });
    },
  });
}

const lineOf = (text: string, needle: string) =>
  text.slice(0, text.indexOf(needle)).split("\n").length;

describe("a response decoded as it arrives", () => {
  const { text, messages } = response(MANY);
  const bytes = Buffer.from(text, "utf8");

  it("gives every value, whatever the chunks", async () => {
    expect(bytes.length).toBeGreaterThan(2 * MIN_PIECE);
    for (const size of [7919, 65_537, bytes.length]) {
      const got = await clientAnswering(bytes, size).getMessages(ALICE);
      expect(got?.length, `chunks of ${size}`).toBe(MANY);
      expect(
        got?.map((m) => ({ Id: m?.Id, Sender: m?.Sender, MessageText: m?.MessageText })),
        `chunks of ${size}`,
      ).toEqual(messages);
      expect(got?.[MANY - 1]?.DateArrived.lexical).toBe("2024-01-15T08:30:00.1234567");
    }
  });

  it("two calls in flight at once decode each its own response", async () => {
    const other = response(MANY, (i, line) =>
      line.replace(`<UserId>1</UserId>`, `<UserId>2</UserId>`),
    );
    const [a, b] = await Promise.all([
      clientAnswering(bytes, 9973).getMessages(ALICE),
      clientAnswering(Buffer.from(other.text, "utf8"), 8191).getMessages(ALICE),
    ]);
    expect(a?.map((m) => m?.UserId)).toEqual(Array(MANY).fill(1));
    expect(b?.map((m) => m?.UserId)).toEqual(Array(MANY).fill(2));
    expect(b?.map((m) => m?.Id)).toEqual(messages.map((m) => m.Id));
  });

  it("says where malformed XML is, line and column, and keeps the whole body for the error", async () => {
    const late = MANY - 3;
    const broken = response(MANY, (i, line) =>
      i === late ? line.replace("</Sender>", "</Sendr>") : line,
    ).text;
    const line = lineOf(broken, "</Sendr>");
    expect(line).toBe(late + 3);
    const lineText = broken.split("\n")[line - 1]!;
    // Columns count UTF-16 code units, as in the body's text (the emoji before counts two).
    const column = lineText.indexOf("</Sendr>") + 1;
    for (const size of [7919, 1_000_003]) {
      const e = await clientAnswering(Buffer.from(broken, "utf8"), size)
        .getMessages(ALICE)
        .catch((x: unknown) => x);
      expect(e, `chunks of ${size}`).toBeInstanceOf(ResponseFormatError);
      expect((e as Error).message).toContain(
        `malformed XML at line ${line}, column ${column}: the end tag </Sendr> does not match <Sender>`,
      );
      expect((e as ResponseFormatError).body).toBe(broken);
    }
  });

  it("says where an invalid value's element starts, far into the body", async () => {
    const late = MANY - 10;
    const bad = response(MANY, (i, line) =>
      i === late ? line.replace("<UserId>1</UserId>", "<UserId>one</UserId>") : line,
    ).text;
    const line = lineOf(bad, "<UserId>one");
    const lineText = bad.split("\n")[line - 1]!;
    const column = lineText.indexOf("<UserId>one") + 1;
    const e = await clientAnswering(Buffer.from(bad, "utf8"), 7919)
      .getMessages(ALICE)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ResponseFormatError);
    expect((e as Error).message).toContain(`(at line ${line}, column ${column})`);
    expect((e as Error).message).toContain("UserId");
  });

  it("a body cut short is malformed at its end; one too long for maxResponseBytes is a transport error", async () => {
    const end = text.lastIndexOf("</Messages>") + "</Messages>".length;
    const cut = Buffer.from(text.slice(0, end), "utf8");
    const e = await clientAnswering(cut, 7919)
      .getMessages(ALICE)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ResponseFormatError);
    const last = text.slice(0, end).split("\n");
    expect((e as Error).message).toContain(
      `malformed XML at line ${last.length}, column ${last[last.length - 1]!.length + 1}: the element <GetMessagesResult> is not closed`,
    );
    expect((e as ResponseFormatError).body).toBe(text.slice(0, end));
    const limited = await new ApiClient({
      endpoint: "http://127.0.0.1:9/api.asmx",
      maxResponseBytes: MIN_PIECE + 5,
      fetch: async () =>
        new Response(bytes, {
          status: 200,
          headers: { "Content-Type": "text/xml; charset=utf-8" },
        }),
    })
      .getMessages(ALICE)
      .catch((x: unknown) => x);
    expect(limited).toBeInstanceOf(TransportError);
    expect((limited as Error).message).toContain("maxResponseBytes");
  });

  it("a blank body in chunks is empty, a byte order mark cut in two included; half a mark is not", async () => {
    for (const body of [
      [0xef],
      [0xef, 0xbb],
      [0xef, 0xbb, 0xbf],
      [0xef, 0xbb, 0xbf, 0x20, 0x0a, 0x0d, 0x09],
    ]) {
      const bytes = Uint8Array.from(body);
      for (const size of [1, 2, 5]) {
        const e = await clientAnswering(bytes, size)
          .getMessages(ALICE)
          .catch((x: unknown) => x);
        expect(e, `${body} in chunks of ${size}`).toBeInstanceOf(ResponseFormatError);
        const blank = body.length >= 3;
        expect((e as Error).message, `${body} in chunks of ${size}`).toMatch(
          blank ? /has an empty body/ : /malformed XML/,
        );
      }
    }
  });
});
