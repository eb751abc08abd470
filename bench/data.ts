/** Benchmark data: messages in the recorded service's shape, and the envelopes ASMX would send. */
import type { MessagesInput } from "../generated-samples/message-service/index.js";

/** A message as the service returns it (DateArrived as its lexical string). */
export type BenchMessage = MessagesInput & { DateArrived: string };

export const NS = "http://api.example.com/messages/";
export const WSDL_PATH = "fixtures/message-service/api.wsdl";

export function messages(count: number): BenchMessage[] {
  const out: BenchMessage[] = [];
  for (let i = 0; i < count; i++) {
    const day = String(1 + (i % 28)).padStart(2, "0");
    const m: BenchMessage = {
      DateArrived: `2024-${String(1 + (i % 12)).padStart(2, "0")}-${day}T${String(i % 24).padStart(2, "0")}:30:15.${String(1234567 + i).slice(-7)}`,
      UserId: 1001,
      Id: 100000 + i,
    };
    if (i % 3 !== 0) m.Sender = `+1555${String(i).padStart(6, "0")}`;
    if (i % 4 !== 1) m.MessageText = `Message ${i}: Fish & chips <tonight>? "Yes" 'no' – Grüße, ñandú, 日本`;
    if (i % 2 === 0) m.MessageUrl = `https://media.example.com/m/${i}.wav?x=1&y=2`;
    m.Transcription = i % 5 === 0 ? "" : `line one of ${i}\nline two`;
    out.push(m);
  }
  return out;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function messageXml(m: BenchMessage): string {
  let x = `<Messages><DateArrived>${m.DateArrived}</DateArrived><UserId>${m.UserId}</UserId>`;
  for (const k of ["Sender", "MessageText", "MessageUrl", "Transcription"] as const) {
    const v = m[k];
    if (v !== undefined) x += v === "" ? `<${k} />` : `<${k}>${esc(v)}</${k}>`;
  }
  return `${x}<Id>${m.Id}</Id></Messages>`;
}

/** A SOAP 1.1 GetMessagesResponse, written as ASMX writes it (one line). */
export function soapResponse(list: readonly BenchMessage[]): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body><GetMessagesResponse xmlns="${NS}"><GetMessagesResult>${list.map(messageXml).join("")}</GetMessagesResult></GetMessagesResponse></soap:Body></soap:Envelope>`;
}

export const SOAP_REQUEST = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetMessages xmlns="${NS}"><email>alice@example.com</email><password>alice-pass</password></GetMessages></soap:Body></soap:Envelope>`;
