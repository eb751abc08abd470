/**
 * The test form of an operation page, and what it posts to. The form posts to the page itself
 * (`?op=Name`); that request, from a loopback address unless the handler allows any, is turned into
 * an HTTP POST request of the operation when a port has one, else a SOAP 1.1 request built from the
 * fields, and handed to the service's own listener in process. The result page shows the answer as
 * escaped XML, or the fault; it never shows what was typed into a password field.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { parseScalar, ValueFormatError, type ScalarKind } from "../../scalars/scalars.js";
import type {
  HttpOperationDesc,
  PortDesc,
  SoapOperationDesc,
} from "../../descriptors/operations.js";
import { parseContentType } from "../../http/content-type.js";
import { decodeText } from "../body.js";
import { HttpProblem } from "../respond.js";
import { SoapFault } from "../../errors.js";
import { bodyXml, decodeEnvelope, envelope, faultFromNode } from "../../soap/envelope.js";
import { escapeText } from "../../xml/escape.js";
import { escapeHtml, type HelpResponse } from "./html.js";
import { indentXml } from "./samples.js";
import { pathBase } from "../routes.js";
import { isLoopbackHost } from "../hosts.js";

/** One field of the test form. */
export interface FormField {
  readonly name: string;
  readonly kind: ScalarKind;
  readonly required: boolean;
  /** Typed as a password: shown masked, never echoed. */
  readonly password: boolean;
  /** The property of the SOAP request element's value it fills (SOAP 1.1 forms). */
  readonly prop: string;
}

/** Whether an address is the local machine's (IPv4 127/8, IPv6 ::1, or 127/8 mapped to IPv6). */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return v4.startsWith("127.") || address === "::1";
}

/**
 * Headers a proxy writes the client it relays for into: a request that passed one came from there.
 * `Via` names no address, but says a proxy relayed the request all the same.
 */
const FORWARDING = [
  "forwarded",
  "x-forwarded-for",
  "x-real-ip",
  "x-client-ip",
  "x-cluster-client-ip",
  "true-client-ip",
  "cf-connecting-ip",
  "fastly-client-ip",
  "x-original-forwarded-for",
  "via",
];

/**
 * The addresses of a forwarding header's hops (`Forwarded`'s `for=`, else the list's items), each
 * without its port. `Via` names none.
 */
function forwardedHops(name: string, value: string): string[] {
  if (name === "via") return [];
  const items = value.split(",").map((v) => v.trim());
  if (name !== "forwarded") return items.map(withoutPort);
  return items.flatMap((item) =>
    item.split(";").flatMap((pair) => {
      const [key, v = ""] = pair.split("=", 2).map((x) => x.trim());
      if (key?.toLowerCase() !== "for") return [];
      // `for="[::1]:8080"`, `for=127.0.0.1`: the address without quotes, brackets or port.
      const unquoted = v.replace(/^"|"$/g, "");
      return [
        unquoted.startsWith("[") ? unquoted.slice(1, unquoted.indexOf("]")) : withoutPort(unquoted),
      ];
    }),
  );
}

/** An IPv4 address without the port a proxy may write after it. */
const withoutPort = (hop: string): string => hop.replace(/^([\d.]+):\d+$/, "$1");

/**
 * Whether a request came from the local machine: its peer is loopback, and so is every hop a
 * forwarding header names. A reverse proxy on the same host connects from loopback for clients
 * anywhere; it says so in these headers (nginx only when configured to).
 */
export function isLocalRequest(req: IncomingMessage): boolean {
  if (!isLoopback(req.socket.remoteAddress)) return false;
  for (const name of FORWARDING) {
    const value = req.headers[name];
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    // A header that names no hop (`Via`, a `Forwarded` of `proto=` alone) still says a proxy
    // relayed the request, for a client it does not name.
    for (const v of values) {
      const hops = forwardedHops(name, v);
      if (hops.length === 0 || !hops.every(isLoopback)) return false;
    }
  }
  return true;
}

const PASSWORD = /pass(word)?|pwd|secret/i;

/** The operation as the form invokes it: over a port's HTTP POST binding, else SOAP 1.1. */
function formTarget(
  ports: readonly PortDesc[],
  name: string,
): { port: PortDesc; op: HttpOperationDesc | SoapOperationDesc } | undefined {
  for (const protocol of ["httpPost", "soap11"] as const) {
    const port = ports.find((p) => p.protocol === protocol && p.operations[name]);
    if (port) return { port, op: port.operations[name]! };
  }
  return undefined;
}

/**
 * The form's fields; undefined when the operation cannot be invoked from one (a complex parameter).
 */
export function formFields(ports: readonly PortDesc[], name: string): FormField[] | undefined {
  const target = formTarget(ports, name);
  if (!target) return undefined;
  const field = (n: string, kind: ScalarKind, required: boolean, prop = n): FormField => ({
    name: n,
    kind,
    required,
    password: PASSWORD.test(n),
    prop,
  });
  const { op } = target;
  if (op.kind === "http") {
    // A urlReplacement operation takes its parameters in its path: not from a form.
    if (op.replace) return undefined;
    return op.params.map((p) => field(p.name, p.type.s, p.required));
  }
  if (!op.request) return [];
  const t = op.request.element.type;
  if (op.request.parts || t.k !== "complex" || t.attrs.length > 0 || t.text) return undefined;
  const out: FormField[] = [];
  for (const f of t.fields) {
    if (f.type.k === "scalar" && f.max <= 1 && !f.type.list)
      out.push(field(f.name, f.type.s, f.min > 0, f.prop));
    else if (f.min > 0) return undefined;
  }
  return out;
}

/** The form: one labelled input per field, posting back to the operation's page. */
export function formHtml(name: string, fields: readonly FormField[]): string {
  const rows = fields
    .map((f, i) => {
      const id = `p${i}`;
      const type = f.password ? "password" : "text";
      const hint = `${f.kind}${f.required ? "" : ", optional"}`;
      return `<tr><td><label for="${id}">${escapeHtml(f.name)}</label></td><td><input id="${id}" type="${type}" name="${escapeHtml(f.name)}" autocomplete="off"></td><td>${escapeHtml(hint)}</td></tr>`;
    })
    .join("\n");
  return `<p>To test the operation, fill in the parameters and click 'Invoke'.</p>
<form class="test" method="POST" action="?op=${encodeURIComponent(name)}" enctype="application/x-www-form-urlencoded">
<table>${rows}
<tr><td></td><td><input type="submit" value="Invoke"></td></tr></table>
</form>`;
}

/** Whether a POST at the endpoint is the test form's (its page's query and a form body). */
export function isFormPost(req: IncomingMessage, url: URL): boolean {
  // A query first: a SOAP request has none, and its parameters are parsed only when asked for.
  if (url.search === "") return false;
  const { type } = parseContentType(req.headers["content-type"]);
  return url.searchParams.has("op") && type === "application/x-www-form-urlencoded";
}

/** What the in-process call answered. */
interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Hands a request to `listener` in process and collects its answer: the request carries the
 * original's socket addresses, so the implementation sees the same caller.
 */
function dispatch(
  listener: Listener,
  from: IncomingMessage,
  url: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<Answer> {
  return new Promise((resolve) => {
    const { remoteAddress, localAddress, localPort } = from.socket;
    const req = Object.assign(Readable.from([body]), {
      method: "POST",
      url,
      headers: {
        ...headers,
        host: from.headers.host ?? "localhost",
        "content-length": String(body.length),
      },
      socket: { remoteAddress, localAddress, localPort },
    });
    const sent: Record<string, unknown> = {};
    let status = 200;
    const chunks: Buffer[] = [];
    const res = {
      headersSent: false,
      statusCode: 200,
      setHeader: (k: string, v: unknown) => void (sent[k.toLowerCase()] = v),
      getHeader: (k: string) => sent[k.toLowerCase()],
      removeHeader: (k: string) => void delete sent[k.toLowerCase()],
      writeHead(s: number, h: Record<string, unknown> = {}) {
        status = s;
        res.headersSent = true;
        for (const [k, v] of Object.entries(h)) sent[k.toLowerCase()] = v;
        return res;
      },
      write: (c: string | Uint8Array) => void chunks.push(Buffer.from(c)),
      end(c?: string | Uint8Array) {
        if (c !== undefined) chunks.push(Buffer.from(c));
        resolve({
          status: res.headersSent ? status : res.statusCode,
          contentType: String(sent["content-type"] ?? ""),
          body: Buffer.concat(chunks).toString("utf8"),
        });
      },
      on: () => res,
      once: () => res,
    };
    listener(req as unknown as IncomingMessage, res as unknown as ServerResponse);
  });
}

/**
 * Why a form post is refused, if it is: one from another machine (unless `anywhere`); one that
 * another site's page made the visitor's browser send (the browser says so in `Origin` and
 * `Sec-Fetch-Site`); and, for the loopback-only form, one to a host name that is not a loopback
 * one: another site's name resolved to this machine (DNS rebinding).
 */
function refusal(req: IncomingMessage, anywhere: boolean): string | undefined {
  if (!anywhere && !isLocalRequest(req))
    return "The test form is only available for requests from the local machine.";
  const host = req.headers.host ?? "";
  const origin = req.headers.origin;
  const site = req.headers["sec-fetch-site"];
  if (site === "cross-site" || site === "same-site" || (origin && !sameHost(origin, host)))
    return "The test form only accepts posts from its own page.";
  if (!anywhere && !isLoopbackHost(host))
    return "The test form is only available at a loopback address (localhost, 127.0.0.1, [::1]).";
  return undefined;
}

function sameHost(origin: string, host: string): boolean {
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** The largest form body read: a form of simple fields is small. */
const MAX_FORM_BYTES = 64 * 1024;

/**
 * The form body, read as the server reads any body (`body`: its time limit, `100 Continue`), in
 * its charset; undefined when it is larger than a form needs to be.
 */
async function readForm(
  req: IncomingMessage,
  body: ReadBody,
): Promise<URLSearchParams | undefined> {
  let bytes: Buffer;
  try {
    bytes = await body(MAX_FORM_BYTES);
  } catch (e) {
    if (e instanceof HttpProblem && e.status === 413) return undefined;
    throw e;
  }
  const { charset } = parseContentType(req.headers["content-type"]).params;
  return new URLSearchParams(decodeText(bytes, charset));
}

/**
 * Reads the request's body, up to `maxBytes` (server/body.ts's `readBody`, bound to the request).
 */
export type ReadBody = (maxBytes: number) => Promise<Buffer>;

/** The request the form's values make, as the target binding carries it. */
function requestOf(
  target: NonNullable<ReturnType<typeof formTarget>>,
  path: string,
  fields: readonly FormField[],
  form: URLSearchParams,
): { url: string; headers: Record<string, string>; body: Buffer } {
  const { op } = target;
  if (op.kind === "http") {
    const params = new URLSearchParams();
    for (const f of fields) {
      const v = form.get(f.name) ?? "";
      // An optional non-string left empty is left out, as a client leaves it out.
      if (v !== "" || f.required || f.kind === "string") params.append(f.name, v);
    }
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    return {
      url: pathBase(path) + op.location,
      headers,
      body: Buffer.from(params.toString()),
    };
  }
  const value: Record<string, unknown> = {};
  for (const f of fields) {
    const v = form.get(f.name) ?? "";
    if (v === "" && !f.required) continue;
    try {
      value[f.prop] = parseScalar(f.kind, v);
    } catch (e) {
      // The parser quotes the value: a password's is not shown again.
      const why = f.password ? `not a valid xs:${f.kind} value` : (e as Error).message;
      throw new ValueFormatError(`${f.name}: ${why}`);
    }
  }
  const xml = envelope("1.1", op.request ? bodyXml(op.request, value) : "");
  const headers = { "content-type": "text/xml; charset=utf-8", soapaction: `"${op.action ?? ""}"` };
  return { url: path, headers, body: Buffer.from(xml) };
}

/** Builds a page of the given status around HTML content (the pages' frame). */
type Frame = (status: number, main: string) => HelpResponse;

/**
 * Answers the test form's POST for operation `op=` of the endpoint at `path`: refused (403) to a
 * remote address unless `anywhere`, else invoked through `listener` and shown on a result page.
 */
export async function submitForm(
  req: IncomingMessage,
  url: URL,
  path: string,
  ports: readonly PortDesc[],
  listener: Listener,
  anywhere: boolean,
  frame: Frame,
  body: ReadBody,
): Promise<HelpResponse> {
  const name = url.searchParams.get("op") ?? "";
  const refused = refusal(req, anywhere);
  if (refused) {
    req.resume();
    return frame(403, `<p>${escapeHtml(refused)}</p>`);
  }
  const target = formTarget(ports, name);
  const fields = formFields(ports, name);
  if (!target || !fields) {
    req.resume();
    return frame(404, `<p>No test form is available for ${escapeHtml(name)}.</p>`);
  }
  const form = await readForm(req, body);
  if (!form) return frame(413, "<p>The form is larger than a test form can be.</p>");
  const back = `<p><a href="?op=${encodeURIComponent(name)}">Back to ${escapeHtml(name)}</a></p>`;
  let request;
  try {
    request = requestOf(target, path, fields, form);
  } catch (e) {
    if (!(e instanceof ValueFormatError)) throw e;
    return frame(
      400,
      `<h2>${escapeHtml(name)}</h2><p class="fault">${escapeHtml(e.message)}</p>${back}`,
    );
  }
  const answer = await dispatch(listener, req, request.url, request.headers, request.body);
  const secrets = fields.filter((f) => f.password).map((f) => form.get(f.name) ?? "");
  return frame(200, `<h2>${escapeHtml(name)}</h2>${answerHtml(answer, secrets)}${back}`);
}

/** The answer as HTML: its status, the fault's text if it is one, and the body as escaped text. */
function answerHtml(answer: Answer, secrets: readonly string[]): string {
  let body = answer.body;
  // Whatever was typed as a password is not shown again, even if the service repeats it.
  for (const s of secrets)
    if (s !== "") body = body.split(s).join("(hidden)").split(escapeXml(s)).join("(hidden)");
  const xml = /xml/.test(answer.contentType);
  const shown =
    body === "" ? "" : `<pre class="code result">${escapeHtml(xml ? indentXml(body) : body)}</pre>`;
  if (answer.status >= 200 && answer.status < 300)
    return `<p class="ok">The service answered with HTTP ${answer.status}${body === "" ? " and an empty body: the operation succeeded" : ""}.</p>${shown}`;
  const reason = faultText(answer.contentType, body);
  return `<p class="fault">The service answered with a fault (HTTP ${answer.status}): <span class="reason">${escapeHtml(reason)}</span></p>${shown}`;
}

/** `s` as the writer writes it in element text; one it cannot write was never sent. */
function escapeXml(s: string): string {
  try {
    return escapeText(s);
  } catch {
    return s;
  }
}

/** A fault's message: a plain-text body as it is, a SOAP fault's as the client reads it. */
function faultText(contentType: string, body: string): string {
  if (contentType.startsWith("text/plain")) return body;
  try {
    const d = decodeEnvelope(body, () => undefined);
    const f = d.fault && faultFromNode(d.fault, d.version, 500);
    if (f instanceof SoapFault) return f.message;
  } catch {
    // Not an envelope: the answer is shown whole below the notice.
  }
  return "(no fault message)";
}
