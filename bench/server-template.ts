/**
 * The "template" server of the server benchmark: node:http building our response bytes for every
 * request from the same messages with a hand-written template (string concatenation, the four
 * escapes, UTF-8 encoding) and nothing else: no request parsing, routing, validation or
 * descriptors. A floor for what a JavaScript server that builds this response per request can
 * expect to spend. Shared by server-worker.ts (over sockets) and server-count.ts (in-process).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BenchMessage } from "./data.js";

/** A response as our server sends it: status, the headers that matter, body bytes. */
export interface Recorded {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** Element text escaped as our writer escapes it (`&`, `<`, `>`, CR), one match to the next. */
const SPECIAL = /[&<>\r]/g;
function escapeText(s: string): string {
  SPECIAL.lastIndex = 0;
  if (!SPECIAL.test(s)) return s;
  let out = "";
  let last = 0;
  do {
    const i = SPECIAL.lastIndex - 1;
    const c = s.charCodeAt(i);
    out +=
      s.slice(last, i) + (c === 38 ? "&amp;" : c === 60 ? "&lt;" : c === 62 ? "&gt;" : "&#xD;");
    last = i + 1;
  } while (SPECIAL.test(s));
  return out + s.slice(last);
}

/** `<name>value</name>`, `<name />` for "", nothing when absent: as our writer writes fields. */
function field(name: string, v: string | number | undefined | null): string {
  if (v === undefined || v === null) return "";
  if (v === "") return `<${name} />`;
  return `<${name}>${typeof v === "string" ? escapeText(v) : String(v)}</${name}>`;
}

/** The messages as XML, built anew on every call. */
function messagesXml(list: readonly BenchMessage[]): string {
  let s = "";
  for (const m of list) {
    s +=
      "<Messages>" +
      field("DateArrived", m.DateArrived) +
      field("UserId", m.UserId) +
      field("Sender", m.Sender) +
      field("MessageText", m.MessageText) +
      field("MessageUrl", m.MessageUrl) +
      field("Transcription", m.Transcription) +
      field("Id", m.Id) +
      "</Messages>";
  }
  return s;
}

const encoder = new TextEncoder();
let scratch = new Uint8Array(256 * 1024);
/** UTF-8 bytes in one pass, as our server encodes a response. */
function utf8(s: string): Buffer {
  if (scratch.length < s.length * 3) scratch = new Uint8Array(s.length * 3);
  const { written } = encoder.encodeInto(s, scratch);
  return Buffer.from(scratch.subarray(0, written));
}

/**
 * Serves `answer`'s envelope (our server's answer) around messages written anew per request; throws
 * if the bytes differ from ours, since the comparison would then mean nothing.
 */
export function templateListener(
  list: readonly BenchMessage[],
  answer: Recorded,
): (req: IncomingMessage, res: ServerResponse) => void {
  const text = answer.body.toString("utf8");
  const from = text.indexOf("<Messages>");
  const to = text.lastIndexOf("</Messages>") + "</Messages>".length;
  if (from < 0 || to < from) throw new Error("our answer holds no <Messages> element");
  const f = { ...answer, head: text.slice(0, from), tail: text.slice(to) };
  if (!utf8(f.head + messagesXml(list) + f.tail).equals(f.body))
    throw new Error("the hand-written template does not write our server's bytes");
  return (req, res) => {
    req.resume();
    req.on("end", () => {
      const body = utf8(f.head + messagesXml(list) + f.tail);
      res.writeHead(f.status, {
        "Cache-Control": f.headers["cache-control"] ?? "",
        "Content-Length": body.length,
        "Content-Type": f.headers["content-type"] ?? "",
      });
      res.end(body);
    });
  };
}
