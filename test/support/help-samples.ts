/**
 * Reads the sample messages of a help page back into the messages they stand for (each
 * placeholder replaced by the value it keeps in `data-value`), and checks them against the service:
 * each request sent to the server must reach the implementation, and each response must be read
 * by the runtime's reader. A sample the server would refuse fails.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { PortDesc, ServiceDesc } from "../../runtime/src/index.js";
import { decodeDocument } from "../../runtime/src/internal.js";
import { decodeEnvelope } from "../../runtime/src/soap/envelope.js";

export interface PageSample {
  /** The section id: `<protocol>-<port>`. */
  readonly id: string;
  readonly protocol: string;
  /** Null when the page wrote no sample for this binding (it says why instead). */
  readonly request: string | null;
  readonly response: string | null;
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

/** The text a sample `<pre>` stands for: placeholders back to their values, HTML unescaped. */
export function plainSample(html: string): string {
  return unescapeHtml(
    html.replace(/<span class="ph[^"]*" data-value="([^"]*)">[^<]*<\/span>/g, (_, v: string) => v),
  );
}

/** The sample sections of an operation page, in page order. */
export function pageSamples(html: string): PageSample[] {
  const out: PageSample[] = [];
  const sections = html.matchAll(
    /<section class="sample" id="([^"]*)" data-protocol="([^"]*)">([\s\S]*?)<\/section>/g,
  );
  for (const [, id, protocol, body] of sections) {
    const pre = (kind: string) => {
      const m = new RegExp(`<pre class="code ${kind}">([\\s\\S]*?)</pre>`).exec(body!);
      return m ? plainSample(m[1]!) : null;
    };
    out.push({ id: id!, protocol: protocol!, request: pre("request"), response: pre("response") });
  }
  return out;
}

/** An HTTP message's parts: its first line, headers (lower-case names) and body. */
export function splitMessage(text: string): {
  line: string;
  headers: Record<string, string>;
  body: string;
} {
  const cut = text.indexOf("\n\n");
  const head = cut < 0 ? text : text.slice(0, cut);
  const [line, ...rest] = head.split("\n");
  const headers: Record<string, string> = {};
  for (const h of rest) {
    const i = h.indexOf(":");
    headers[h.slice(0, i).toLowerCase()] = h.slice(i + 1).trim();
  }
  return { line: line!, headers, body: cut < 0 ? "" : text.slice(cut + 2) };
}

/**
 * Sends a request sample to the server at `origin` (its Host and Content-Length are the page's
 * placeholders).
 */
export async function sendSample(origin: string, text: string): Promise<Response> {
  const { line, headers, body } = splitMessage(text);
  const [method, target] = line.split(" ");
  const sent: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (k !== "host" && k !== "content-length") sent[k] = v;
  return fetch(origin + target!, {
    method: method!,
    headers: sent,
    ...(method === "GET" ? {} : { body }),
  });
}

/**
 * Reads a response sample of operation `op` over `port` with the runtime's reader: a SOAP
 * envelope's body element, or an HTTP response's document. Throws when the reader refuses it.
 */
export function readResponseSample(port: PortDesc, op: string, text: string): void {
  const desc = port.operations[op]!;
  const { body } = splitMessage(text);
  const response = desc.response;
  if (desc.kind === "http") {
    if (response && !response.void) decodeDocument(body, [response.element], { strict: true });
    return;
  }
  const decoded = decodeEnvelope(
    body,
    (ns, local) =>
      response && response.element.ns === ns && response.element.name === local
        ? (response.parts ?? response.element)
        : undefined,
    { strict: true },
  );
  if (response && decoded.body?.field === undefined)
    throw new Error(`the response sample's body is not ${response.element.name}`);
}

/** The port of a sample section, by its id. */
export function portOf(desc: ServiceDesc, id: string): PortDesc {
  const port = Object.values(desc.ports).find((p) => `${p.protocol}-${p.name}` === id);
  if (!port) throw new Error(`no port for sample section ${id}`);
  return port;
}

/**
 * Calls a handler in process with a request from `remoteAddress` (a form body for POST), as a
 * remote browser would send it: the address a test cannot take on a real socket.
 */
export function fromAddress(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  remoteAddress: string,
  method: string,
  url: string,
  body = "",
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = Object.assign(Readable.from([Buffer.from(body)]), {
      method,
      url,
      headers: {
        host: "localhost",
        "content-type": "application/x-www-form-urlencoded",
        ...headers,
      },
      socket: { remoteAddress, localAddress: "192.0.2.1", localPort: 80 },
    });
    let status = 0;
    const res = {
      headersSent: false,
      writeHead: (s: number) => ((status = s), res),
      end: (b?: Buffer) => resolve({ status, body: b ? b.toString("utf8") : "" }),
      on: () => res,
    };
    handler(req as unknown as IncomingMessage, res as unknown as ServerResponse);
  });
}

/** The test form of operation `op` at /api.asmx, posted in process from `remoteAddress`. */
export const postFormFrom = (
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  remoteAddress: string,
  op: string,
  form: string,
  headers: Record<string, string> = {},
) => fromAddress(handler, remoteAddress, "POST", `/api.asmx?op=${op}`, form, headers);
