/**
 * Benchmark data: messages in the recorded Message Retrieval Service's shape, and the bytes ASMX
 * would send for them. Everything is deterministic (seeded), so a child process that regenerates
 * the data gets the same bytes as its parent.
 */
import { readFileSync } from "node:fs";
import type { MessagesInput } from "../generated-samples/message-service/index.js";

/** A message as the in-memory services hold it: DateArrived as its lexical string, as the example store keeps it. */
export type BenchMessage = MessagesInput & { DateArrived: string };

export const NS = "http://api.example.com/messages/";
export const WSDL_PATH = "fixtures/message-service/api.wsdl";
export const SOAP_ACTION = `"${NS}GetMessages"`;
/** The Message Retrieval Service's seed, whose accounts include ACCOUNT. */
export const SEED_PATH = "fixtures/message-service/asmx/seed.json";
export const ACCOUNT = { email: "alice@example.com", password: "alice-pass" } as const;
export const GET_QUERY = `email=${encodeURIComponent(ACCOUNT.email)}&password=${encodeURIComponent(ACCOUNT.password)}`;

/** mulberry32: a tiny seeded PRNG, so the data is the same in every process. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

const TEXTS = [
  "Fish & chips <tonight>? \"Yes\" 'no' – Grüße, ñandú, 日本",
  "Please call back re: invoice #{n} (amount > $1,000 & < $5,000); ref A<B>C",
  "  leading and trailing spaces  ",
  "Voicemail from the front desk: the parcel for flat {n} is at reception 📦 — pick up before 18:00.",
  "Meeting moved: Mon → Tue, room «Ω-2»; bring the Q3 numbers & the <draft> slides",
  "Tab\tseparated\tfields and a CR\r\nline ending",
  "Zażółć gęślą jaźń; Ελληνικά; русский текст; עברית; 中文消息 {n}",
  "<script>alert('x')</script> & other things that must be escaped &amp; kept literal",
];
const TRANSCRIPTIONS = [
  "line one of {n}\nline two\nline three with a quote \" and an apostrophe '",
  "Hi, it's Bob. I'll be late — traffic on the A{n} is terrible. Call me back on +1 555 0100 if you need anything & see you soon.",
  "Automated message: your appointment on {d} is confirmed. Reply STOP to opt out. <end>",
  "Ça va? Je t'appelle demain matin, vers 9h. Bisous 😘\nP.S. n'oublie pas le pain & le fromage",
];

function fill(template: string, i: number, date: string): string {
  return template.replace(/\{n\}/g, String(i)).replace(/\{d\}/g, date.slice(0, 10));
}

/**
 * `count` messages of one account, in DateArrived order as the service returns them. Ids increase
 * with gaps, dates carry 0–7 fraction digits (trailing zeros dropped, as ASMX writes them), optional
 * strings are sometimes absent or empty, and texts hold markup characters, quotes, tabs, CR LF,
 * non-ASCII and astral characters.
 */
export function messages(count: number, seed = 42): BenchMessage[] {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const out: BenchMessage[] = [];
  let t = Date.UTC(2021, 0, 1, 8, 0, 0);
  let id = 100_000;
  for (let i = 0; i < count; i++) {
    t += 60_000 + Math.floor(rnd() * 6 * 3600_000);
    id += 1 + Math.floor(rnd() * 3);
    const d = new Date(t);
    const digits = pick([0, 0, 2, 3, 7]);
    const frac =
      digits === 0
        ? ""
        : `.${String(Math.floor(rnd() * 10 ** digits)).padStart(digits, "0")}`
            .replace(/0+$/, "")
            .replace(/\.$/, "");
    const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac}`;
    const m: BenchMessage = { DateArrived: date, UserId: 1001, Id: id };
    const r = rnd();
    if (r > 0.15)
      m.Sender = r > 0.5 ? `+1555${pad(Math.floor(rnd() * 1e7), 7)}` : `user.${i}@example.com`;
    if (rnd() > 0.12) m.MessageText = `${fill(pick(TEXTS), i, date)} ${fill(pick(TEXTS), i, date)}`;
    if (rnd() > 0.25)
      m.MessageUrl = `https://media.example.com/m/${id}.wav?x=1&y=2&sig=${Math.floor(rnd() * 1e12).toString(36)}`;
    const tr = rnd();
    if (tr > 0.1) m.Transcription = tr < 0.2 ? "" : fill(pick(TRANSCRIPTIONS), i, date);
    out.push(m);
  }
  // Strings built by concatenation are V8 cons strings, which every later character scan pays for;
  // data loaded from a store or JSON is flat. Hand back flat strings, as a real service would hold.
  return JSON.parse(JSON.stringify(out)) as BenchMessage[];
}

/**
 * Escapes element text as ASMX does (`&amp; &lt; &gt;`, CR as `&#xD;`, quotes and non-ASCII literal).
 * With `refs`, it also uses the forms other servers send (`&quot;`, `&apos;`, decimal and hexadecimal
 * character references for non-ASCII), so the decoders meet every kind of reference.
 */
function esc(s: string, refs: boolean): string {
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === "&") out += "&amp;";
    else if (ch === "<") out += "&lt;";
    else if (ch === ">") out += refs ? "&#62;" : "&gt;";
    else if (ch === "\r") out += "&#xD;";
    else if (refs && ch === '"') out += "&quot;";
    else if (refs && ch === "'") out += "&apos;";
    else if (refs && c > 0x7f)
      out += c > 0xffff ? `&#x${c.toString(16).toUpperCase()};` : `&#${c};`;
    else out += ch;
  }
  return out;
}

function messageXml(m: BenchMessage, refs: boolean): string {
  let x = `<Messages><DateArrived>${m.DateArrived}</DateArrived><UserId>${m.UserId}</UserId>`;
  for (const k of ["Sender", "MessageText", "MessageUrl", "Transcription"] as const) {
    const v = m[k];
    if (v !== undefined) x += v === "" ? `<${k} />` : `<${k}>${esc(v, refs)}</${k}>`;
  }
  return `${x}<Id>${m.Id}</Id></Messages>`;
}

/** A SOAP 1.1 GetMessagesResponse, written as ASMX writes it (one line); every 10th message uses character references. */
export function soapResponse(list: readonly BenchMessage[]): string {
  const items = list.map((m, i) => messageXml(m, i % 10 === 9)).join("");
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body><GetMessagesResponse xmlns="${NS}"><GetMessagesResult>${items}</GetMessagesResult></GetMessagesResponse></soap:Body></soap:Envelope>`;
}

/** The body of a recorded GetMessages request (curl against the ASMX service), byte for byte. */
function recordedRequest(capture: "soap11" | "soap12" | "httppost"): string {
  const http = readFileSync(
    `fixtures/message-service/asmx/captures/ok-${capture}-GetMessages.request.http`,
    "utf8",
  );
  const body = http.slice(
    http.indexOf("\r\n\r\n") === -1 ? http.indexOf("\n\n") + 2 : http.indexOf("\r\n\r\n") + 4,
  );
  if (!body.includes(capture === "httppost" ? "password=" : "<GetMessages"))
    throw new Error(`the recorded ${capture} GetMessages request is not where expected`);
  return body;
}

/** The recorded SOAP 1.1 GetMessages request body (curl against ASMX), byte for byte. */
export function recordedSoapRequest(): string {
  const body = recordedRequest("soap11");
  if (!body.includes(ACCOUNT.password))
    throw new Error("the recorded GetMessages request is not where expected");
  return body;
}

/** The bindings the server benchmark measures, each with its own recorded GetMessages request. */
export const BINDINGS = ["soap11", "soap12", "get", "post"] as const;
export type Binding = (typeof BINDINGS)[number];
export const BINDING_LABEL: Record<Binding, string> = {
  soap11: "SOAP 1.1",
  soap12: "SOAP 1.2",
  get: "HTTP GET",
  post: "HTTP POST",
};

/**
 * The GetMessages request of a binding at `base` (the service's URL), as ASMX's clients send it.
 */
export function bindingRequest(
  binding: Binding,
  base: string,
): { url: string; method: string; headers?: Record<string, string>; body?: string } {
  switch (binding) {
    case "soap11":
      return {
        url: base,
        method: "POST",
        headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: SOAP_ACTION },
        body: recordedSoapRequest(),
      };
    case "soap12":
      return {
        url: base,
        method: "POST",
        headers: {
          "Content-Type": `application/soap+xml; charset=utf-8; action=${SOAP_ACTION}`,
        },
        body: recordedRequest("soap12"),
      };
    case "get":
      return { url: `${base}/GetMessages?${GET_QUERY}`, method: "GET" };
    case "post":
      return {
        url: `${base}/GetMessages`,
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: recordedRequest("httppost"),
      };
  }
}

/** The recorded SOAP 1.1 GetMessages response: its head lines and body, to check our envelope has the same shape. */
export function recordedSoapResponseBody(): string {
  const http = readFileSync(
    "fixtures/message-service/asmx/captures/ok-soap11-GetMessages.response.http",
    "utf8",
  );
  const sep = http.indexOf("\r\n\r\n");
  return sep === -1 ? http.slice(http.indexOf("\n\n") + 2) : http.slice(sep + 4);
}

/** Order-sensitive FNV-1a over strings: a cheap digest to compare decoded results across processes. */
export class Digest {
  private h = 0x811c9dc5;
  add(s: string): this {
    let h = this.h;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x1f; // field separator
    this.h = Math.imul(h, 0x01000193) >>> 0;
    return this;
  }
  get value(): string {
    return this.h.toString(16).padStart(8, "0");
  }
}

/** The comparable content of one decoded message: every field as text, absent fields as "∅". */
export interface MessageView {
  readonly id: number;
  readonly fields: readonly string[];
}

/** The digest of a list of messages, field by field (DateArrived compared separately, see `dateKey`). */
export function digestOf(list: readonly MessageView[]): string {
  const d = new Digest();
  for (const m of list) {
    d.add(String(m.id));
    for (const f of m.fields) d.add(f);
  }
  return d.value;
}

export const ABSENT = "∅";

/** The view of a source message: what a correct decoder must give back. */
export function viewOf(m: BenchMessage): MessageView {
  const s = (v: string | undefined) => v ?? ABSENT;
  // XML normalizes a literal CR LF to LF; the writer sends CR as &#xD;, so it survives.
  return {
    id: m.Id,
    fields: [
      m.DateArrived,
      String(m.UserId),
      s(m.Sender),
      s(m.MessageText),
      s(m.MessageUrl),
      s(m.Transcription),
    ],
  };
}
