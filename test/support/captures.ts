/** Reads the recorded ASMX exchanges in fixtures/message-service/asmx/captures. */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CAPTURE_DIR = fileURLToPath(
  new URL("../../fixtures/message-service/asmx/captures/", import.meta.url),
);
export const SEED = JSON.parse(
  readFileSync(
    fileURLToPath(new URL("../../fixtures/message-service/asmx/seed.json", import.meta.url)),
    "utf8",
  ),
) as Seed;
export const WSDL_PATH = fileURLToPath(
  new URL("../../fixtures/message-service/api.wsdl", import.meta.url),
);

export interface SeedMessage {
  Id: number;
  DateArrived: string;
  Sender: string | null;
  MessageText: string | null;
  MessageUrl: string | null;
  Transcription: string | null;
}
export interface Seed {
  accounts: { email: string; password: string; userId: number; messages: SeedMessage[] }[];
}

export interface HttpMessage {
  /** Request: the method; response: the status code as text. */
  readonly startLine: string;
  readonly method: string;
  readonly target: string;
  readonly status: number;
  /** Header names lower-cased, in order. */
  readonly headers: readonly [string, string][];
  readonly body: Buffer;
}

export function header(m: HttpMessage, name: string): string | undefined {
  return m.headers.find(([k]) => k === name.toLowerCase())?.[1];
}

/**
 * An HTTP message's start line, headers (names as written, values trimmed, in order) and body (cut
 * at its Content-Length, if it has one): what `parse` reads, and what the attack scripts change.
 */
export function splitMessage(raw: Buffer): {
  startLine: string;
  headers: [string, string][];
  body: Buffer;
} {
  const sep = raw.indexOf("\r\n\r\n");
  const head = raw.subarray(0, sep === -1 ? raw.length : sep).toString("latin1");
  const body = sep === -1 ? Buffer.alloc(0) : raw.subarray(sep + 4);
  const [startLine, ...lines] = head.split("\r\n");
  const headers = lines.map((l): [string, string] => {
    const i = l.indexOf(":");
    return [l.slice(0, i).trim(), l.slice(i + 1).trim()];
  });
  const length = headers.find(([k]) => k.toLowerCase() === "content-length");
  return {
    startLine: startLine!,
    headers,
    body: length ? body.subarray(0, Number(length[1])) : body,
  };
}

function parse(raw: Buffer): HttpMessage {
  const { startLine, headers, body } = splitMessage(raw);
  const parts = startLine.split(" ");
  const isResponse = parts[0]!.startsWith("HTTP/");
  return {
    startLine,
    method: isResponse ? "" : parts[0]!,
    target: isResponse ? "" : parts[1]!,
    status: isResponse ? Number(parts[1]) : 0,
    headers: headers.map(([k, v]) => [k.toLowerCase(), v]),
    body,
  };
}

export interface Capture {
  readonly name: string;
  readonly request: HttpMessage;
  readonly response: HttpMessage;
}

export function loadCapture(name: string): Capture {
  return {
    name,
    request: parse(readFileSync(`${CAPTURE_DIR}${name}.request.http`)),
    response: parse(readFileSync(`${CAPTURE_DIR}${name}.response.http`)),
  };
}

export function captureNames(prefix?: string): string[] {
  return readdirSync(CAPTURE_DIR)
    .filter((f) => f.endsWith(".request.http"))
    .map((f) => f.slice(0, -".request.http".length))
    .filter((n) => prefix === undefined || n.startsWith(prefix))
    .sort();
}
