/** What scripts/attack/round2.ts sends with: SOAP 1.1 over node:http, from any loopback address. */
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const SEED_FILE = fileURLToPath(
  new URL("../../fixtures/message-service/asmx/seed.json", import.meta.url),
);

/** A database file in a temporary folder removed when the script exits. */
export function scratchDb(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "mrs-round2-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, "messages.db");
}

export interface Call {
  /** 0 when no answer came. */
  readonly status: number;
  readonly body: string;
  /** The Retry-After header, if any. */
  readonly retryAfter: string | undefined;
  /** Milliseconds from sending to the whole answer. */
  readonly ms: number;
}

const NS = "http://api.example.com/messages/";
const agent = new Agent({ keepAlive: true, maxSockets: 512 });

/**
 * `operation` over SOAP 1.1 with `fields`, as client `forwardedFor` (X-Forwarded-For) and from
 * `localAddress`; resolves (never rejects) with what came back.
 */
export function soapCall(
  url: string,
  operation: string,
  fields: Record<string, string>,
  forwardedFor?: string,
  localAddress?: string,
): Promise<Call> {
  const parts = Object.entries(fields).map(([k, v]) => `<${k}>${v}</${k}>`);
  const body =
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
    `<${operation} xmlns="${NS}">${parts.join("")}</${operation}></soap:Body></soap:Envelope>`;
  const headers: Record<string, string | number> = {
    "Content-Type": "text/xml; charset=utf-8",
    SOAPAction: `"${NS}${operation}"`,
    "Content-Length": Buffer.byteLength(body),
  };
  if (forwardedFor !== undefined) headers["X-Forwarded-For"] = forwardedFor;
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status: number, text: string, retryAfter?: string) =>
      resolve({ status, body: text, retryAfter, ms: performance.now() - started });
    const req = request(
      url,
      { method: "POST", headers, ...(localAddress ? { localAddress } : { agent }) },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => done(res.statusCode ?? 0, text, res.headers["retry-after"]));
        res.on("error", () => done(0, text));
      },
    );
    req.setTimeout(60_000, () => req.destroy());
    req.on("error", () => done(0, ""));
    req.end(body);
  });
}
