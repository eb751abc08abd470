/**
 * The example server on a real socket, for the attack tests: started on port 0 over a fresh
 * seeded SQLite file (or a given database), closed after each test, and SOAP 1.1 calls sent
 * with fetch, from a forwarded client address when the test asks for one.
 */
import * as path from "node:path";
import { afterEach } from "vitest";
import {
  startServer,
  type RunningServer,
  type ServerOptions,
} from "../../examples/message-service/server.js";
import { SEED_PATH, tempDir } from "./helpers.js";
import { scryptKdf, type Kdf } from "../../examples/message-service/passwords.js";

const running: RunningServer[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
});

/** Starts the server; `127.0.0.1` is a trusted proxy, so X-Forwarded-For names the client. */
export async function serveOnSocket(options: Partial<ServerOptions> = {}) {
  const dbPath = options.dbPath ?? path.join(tempDir(), "m.db");
  const server = await startServer({
    port: 0,
    host: "127.0.0.1",
    dbPath,
    seedPath: SEED_PATH,
    trustedProxies: ["127.0.0.1"],
    ...options,
  });
  running.push(server);
  return { url: server.url, dbPath, server };
}

const NS = "http://api.example.com/messages/";

/** A SOAP 1.1 request body for `operation` with `fields` as child elements, in order. */
export function soap11(operation: string, fields: Record<string, string | number>): string {
  const parts = Object.entries(fields).map(([k, v]) => `<${k}>${v}</${k}>`);
  return (
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope ' +
    'xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
    `<${operation} xmlns="${NS}">${parts.join("")}</${operation}></soap:Body></soap:Envelope>`
  );
}

export interface Answer {
  readonly status: number;
  readonly text: string;
  readonly headers: Headers;
}

/** Calls `operation` over SOAP 1.1, as `client` (an address sent as X-Forwarded-For). */
export async function callSoap(
  url: string,
  operation: string,
  fields: Record<string, string | number>,
  client?: string,
): Promise<Answer> {
  const headers: Record<string, string> = {
    "Content-Type": "text/xml; charset=utf-8",
    SOAPAction: `"${NS}${operation}"`,
  };
  if (client !== undefined) headers["X-Forwarded-For"] = client;
  const res = await fetch(url, { method: "POST", headers, body: soap11(operation, fields) });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** GetMessages with `creds`, as `client`. */
export const getMessages = (
  url: string,
  creds: { readonly email: string; readonly password: string },
  client?: string,
) => callSoap(url, "GetMessages", { email: creds.email, password: creds.password }, client);

/** A clock the test moves by hand. */
export function manualClock(): { now: () => number; advance(ms: number): void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

/** scrypt, counting its calls. */
export function countingKdf(): Kdf & { calls: number } {
  const kdf = Object.assign((p: string, s: Buffer) => (kdf.calls++, scryptKdf(p, s)), { calls: 0 });
  return kdf;
}
