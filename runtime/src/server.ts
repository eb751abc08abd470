/**
 * The generic server a generated `createXHandler` delegates to. At one path it serves SOAP 1.1,
 * SOAP 1.2, HTTP GET and HTTP POST, and `?WSDL`, the way the recorded ASMX service does, except
 * where we deliberately differ: no stack traces or exception names in any response, clear messages,
 * 400 for malformed SOAP bodies with a fault, 415/404/405 with short plain-text bodies.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { isUtf8 } from "node:buffer";
import { parseAsmxDateTime } from "./asmx-dates.js";
import { isUtf8Charset, parseContentType } from "./content-type.js";
import type { BodyDesc } from "./descriptors.js";
import { SoapFault, type SoapVersion } from "./errors.js";
import { decodeHttpParams, HttpParamError, locationPattern } from "./http-binding.js";
import { EMBEDDED_DOCUMENT, type EmbeddedWsdl } from "./embedded-wsdl.js";
import {
  byElement,
  httpOperations,
  preferActionless,
  namedDocument,
  soapOperations,
  wantsDisco,
  wantsWsdl,
  type HttpRoute,
  type Routed,
  type SoapRoutes,
} from "./server-routes.js";
import type { PortDesc, Protocol, ServiceDesc } from "./operations.js";
import { parseScalar, ValueFormatError } from "./scalars.js";
import { bodyXml, decodeEnvelope, envelope, faultCode, faultEnvelope, headerXml } from "./soap.js";
import { discoDocument } from "./disco.js";
import { loggedTarget, messageText } from "./input-text.js";
import { onlyWhiteSpace } from "./xml-chars.js";
import { XmlDecodeError, type DecodeLimits, type XmlNode } from "./xml-reader.js";
import { writeElement, writeField, XSD_NS, XSI_NS } from "./xml-writer.js";
import { HelpPages } from "./help-pages.js";
import type { HelpResponse } from "./help-html.js";
import { isFormPost } from "./help-form.js";

/** What an implementation method receives besides its typed input. */
export interface RequestContext<
  SoapHeaders extends object = Readonly<Record<string, unknown>>,
  ResponseSoapHeaders extends object = SoapHeaders,
> {
  /** The HTTP request headers. */
  readonly headers: IncomingHttpHeaders;
  /**
   * The SOAP header entries the service declares (`soap:header`) that the request carried, by
   * element name; empty over HTTP GET/POST and when none came.
   */
  readonly soapHeaders: SoapHeaders;
  /**
   * The SOAP header entries the service does not declare, as element trees: a `wsse:Security` header
   * (read it with `usernameToken`), WS-Addressing, and the like. Empty over HTTP GET/POST.
   */
  readonly soapHeaderElements: readonly XmlNode[];
  /**
   * Sets the SOAP header entries of the response (merged over earlier calls): the operation's
   * binding declares which ones it carries (`soap:header` in its output); they are sent with faults too.
   */
  setResponseSoapHeaders(headers: ResponseSoapHeaders): void;
  readonly remoteAddress: string | undefined;
  /** The binding the request came over. */
  readonly binding: Protocol;
  /** The `wsdl:port` whose binding matched. */
  readonly port: string;
  readonly operation: string;
}

/**
 * A context for calling an implementation directly, as a unit test does: no request headers, no
 * SOAP headers, over SOAP 1.1, unless `overrides` says otherwise. What the implementation sets with
 * `setResponseSoapHeaders` is collected in `responseSoapHeaders`.
 */
export function requestContext<
  SoapHeaders extends object = Readonly<Record<string, unknown>>,
  ResponseSoapHeaders extends object = SoapHeaders,
>(
  overrides: Partial<
    Omit<RequestContext<SoapHeaders, ResponseSoapHeaders>, "setResponseSoapHeaders">
  > = {},
): RequestContext<SoapHeaders, ResponseSoapHeaders> & {
  readonly responseSoapHeaders: Partial<ResponseSoapHeaders>;
} {
  const responseSoapHeaders: Partial<ResponseSoapHeaders> = {};
  return {
    headers: {},
    soapHeaders: {} as SoapHeaders,
    soapHeaderElements: [],
    remoteAddress: undefined,
    binding: "soap11",
    port: "",
    operation: "",
    ...overrides,
    setResponseSoapHeaders: (h) => void Object.assign(responseSoapHeaders, h),
    responseSoapHeaders,
  };
}

/** One operation's implementation; `C` is the context type, typed SOAP headers included. */
export type OperationHandler<C extends RequestContext<object, object> = RequestContext> = (
  input: never,
  context: C,
) => unknown;

export interface HandlerOptions {
  /**
   * The path the service answers at, for every port. Default: each port at the path of its own
   * address in the WSDL (e.g. `/api.asmx`); ports that share a path are served together there.
   */
  readonly path?: string;
  /** Largest request body accepted, in bytes; larger ones get 413. Default: 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Element depth and count limits for request XML. Default: 64 levels, 100 000 elements. */
  readonly limits?: DecodeLimits;
  /** Time allowed to receive the request body, in milliseconds; then 408. Default: 30 000. */
  readonly requestTimeoutMs?: number;
  /** Where unexpected implementation errors go. Default: `console.error`. */
  readonly logger?: (message: string, error: unknown) => void;
  /** Serve `?WSDL`. Default: true. */
  readonly serveWsdl?: boolean;
  /**
   * The WSDL text served at `?WSDL` (its addresses rewritten per request). Default: the text embedded
   * at generation. Code generated with `embedWsdl: false` embeds none: without this option, `?WSDL`
   * answers 404.
   */
  readonly wsdl?: string;
  /**
   * Header entries marked mustUnderstand that the WSDL does not declare but the implementation
   * processes (from `RequestContext.soapHeaderElements`): without this they get a MustUnderstand
   * fault, as SOAP requires. E.g. `(ns, local) => ns === WSSE_NS && local === "Security"`.
   */
  readonly understands?: (ns: string, local: string) => boolean;
  /**
   * Serve the help pages at GET of the service path: the service page and one page per operation
   * (`?op=Name`) with samples and a test form (docs/help-pages.md). False: that GET answers 404.
   * Default: true.
   */
  readonly helpPages?: boolean;
  /**
   * Let the test form be used from any address. Default: false, only from loopback addresses, as
   * ASMX does: the form invokes the operation with whatever the visitor types.
   */
  readonly helpFormFromAnyAddress?: boolean;
}

/** A Node request listener that also works as Express middleware (`next` for paths it does not serve). */
export interface RequestListener {
  (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void): void;
  /**
   * For node:http's `checkContinue` event (`server.on("checkContinue", handler.checkContinue)`):
   * a request sent with `Expect: 100-continue` then gets `100 Continue` only when its body is
   * wanted, and a body over the limit gets its 413 without being sent.
   */
  readonly checkContinue: (req: IncomingMessage, res: ServerResponse) => void;
}

const SOAP_CT = {
  "1.1": "text/xml; charset=utf-8",
  "1.2": "application/soap+xml; charset=utf-8",
} as const;
const DEFAULT_LIMITS: DecodeLimits = { maxDepth: 64, maxElements: 100_000 };

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const encoder = new TextEncoder();
/** Scratch space for encoding response bodies, grown as needed and reused. */
let scratch = new Uint8Array(64 * 1024);
const SCRATCH_LIMIT = 4 * 1024 * 1024;

/**
 * `body` as UTF-8 bytes, in one pass: `Buffer.from(string)` measures the string and then encodes it,
 * which on a 48 KB response was a third of the encoding time.
 */
function utf8(body: string): Buffer {
  // Three bytes per UTF-16 unit is the most UTF-8 can take; a very large body is not worth keeping space for.
  const most = body.length * 3;
  if (most > SCRATCH_LIMIT) return Buffer.from(body, "utf8");
  if (scratch.length < most)
    scratch = new Uint8Array(Math.min(SCRATCH_LIMIT, Math.max(most, scratch.length * 2)));
  const { written } = encoder.encodeInto(body, scratch);
  const buf = Buffer.allocUnsafe(written);
  buf.set(scratch.subarray(0, written));
  return buf;
}

/** The HTTP status of a fault an implementation threw: 500, as ASMX sends, unless it names another error status. */
function faultStatus(f: SoapFault): number {
  const s = f.httpStatus;
  return s !== undefined && Number.isInteger(s) && s >= 400 && s <= 599 ? s : 500;
}

/** Requests whose `100 Continue` is ours to send, when their body is wanted. */
const awaitingContinue = new WeakSet<IncomingMessage>();

/** Answers hold account data: no cache keeps them. Documents get ASMX's `private, max-age=0`. */
const DOCUMENT_HEADERS = { "Cache-Control": "private, max-age=0" };

/** The HTTP headers a fault an implementation threw asks for: `Retry-After`, if it gave one. */
function faultHeaders(f: SoapFault): Record<string, string> {
  const s = f.retryAfterSeconds;
  return s !== undefined && Number.isInteger(s) && s >= 0 ? { "Retry-After": String(s) } : {};
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  contentType: string | undefined,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  const buf = utf8(body);
  const h: Record<string, string | number> = {
    "Cache-Control": "no-store",
    "Content-Length": buf.length,
    ...headers,
  };
  if (contentType) h["Content-Type"] = contentType;
  res.writeHead(status, h);
  res.end(buf);
}

function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes: number,
  timeoutMs: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? "0");
    const continues = awaitingContinue.delete(req);
    if (declared > maxBytes) {
      reject(
        new HttpProblem(413, `The request body is larger than ${maxBytes} bytes.`, {
          Connection: "close",
        }),
      );
      // A client waiting for 100 Continue sends nothing more: there is nothing to drain.
      if (!continues) req.resume();
      return;
    }
    if (continues) res.writeContinue();
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err: Error | undefined, body?: Buffer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(body!);
    };
    const timer = setTimeout(() => {
      finish(
        new HttpProblem(408, "The request body did not arrive in time.", { Connection: "close" }),
      );
      req.resume();
    }, timeoutMs);
    req.on("data", (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > maxBytes) {
        finish(
          new HttpProblem(413, `The request body is larger than ${maxBytes} bytes.`, {
            Connection: "close",
          }),
        );
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => finish(undefined, Buffer.concat(chunks)));
    // A client that goes away or breaks its chunked encoding mid-body: its problem, not ours.
    req.on("error", () =>
      finish(new HttpProblem(400, "The request body was cut short.", { Connection: "close" })),
    );
  });
}

const decoders = new Map<string, InstanceType<typeof TextDecoder>>();

/** An XML request body for the decoder: UTF-8 bytes as they are (checked), another charset as text. */
function xmlBody(body: Buffer, charset: string | undefined): string | Uint8Array {
  if (!isUtf8Charset(charset)) return decodeText(body, charset);
  if (looksUtf16(body))
    throw new HttpProblem(
      400,
      "The request body looks like UTF-16 but is declared or taken as UTF-8; send UTF-8, or declare charset=utf-16.",
    );
  if (!isUtf8(body))
    throw new HttpProblem(400, "The request body is not valid text in its declared charset.");
  return body;
}

/** A UTF-16 byte order mark, or a NUL byte among the first two (XML starts with '<' or a BOM). */
function looksUtf16(body: Buffer): boolean {
  const [a, b] = body;
  return (a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff) || a === 0 || b === 0;
}

function decodeText(body: Buffer, charset: string | undefined): string {
  try {
    const label = (charset || "utf-8").toLowerCase();
    let decoder = decoders.get(label);
    if (!decoder) {
      decoder = new TextDecoder(label, { fatal: true });
      // Bounded: charset labels come from requests.
      if (decoders.size < 64) decoders.set(label, decoder);
    }
    return decoder.decode(body);
  } catch (e) {
    if (e instanceof RangeError)
      throw new HttpProblem(415, `The charset '${charset}' is not supported.`);
    throw new HttpProblem(400, "The request body is not valid text in its declared charset.");
  }
}

/**
 * Builds the request listener for one service from its descriptors, WSDL text and implementation.
 * `embeddedWsdl` is undefined when the code was generated without the WSDL (`embedWsdl: false`).
 */
export function createServiceHandler<C extends RequestContext<object, object> = RequestContext>(
  service: ServiceDesc,
  embeddedWsdl: string | EmbeddedWsdl | undefined,
  handlers: Readonly<Record<string, OperationHandler<C>>>,
  options: HandlerOptions = {},
): RequestListener {
  const ports = Object.values(service.ports);
  const normalise = (path: string) => path.replace(/\/+$/, "") || "/";
  const addressPath = (address: string) =>
    normalise(new URL(address || "/", "http://localhost").pathname);
  // The paths served: each port's own (or options.path for all), ports sharing a path served together.
  const endpoints: Endpoint[] = [];
  for (const p of ports) {
    const path = options.path !== undefined ? normalise(options.path) : addressPath(p.address);
    const found = endpoints.find((e) => e.lower === path.toLowerCase());
    if (found) found.ports.push(p);
    else endpoints.push({ path, lower: path.toLowerCase(), ports: [p] });
  }
  if (endpoints.length === 0)
    endpoints.push({
      path: normalise(options.path ?? "/"),
      lower: normalise(options.path ?? "/").toLowerCase(),
      ports: [],
    });
  // A request for a path not served says which are, for whoever mistyped one.
  const notFound = () =>
    new HttpProblem(
      404,
      `Not found. This service is served at ${endpoints.map((e) => e.path).join(", ")}.`,
    );
  // Longest path first, so that /a/b is not taken for an operation of /a.
  endpoints.sort((a, b) => b.path.length - a.path.length);
  /**
   * The SOAP operations of one version at an endpoint, and by action: every port of the version, in
   * WSDL order (a service may have several, with different bindings).
   */
  const routesOf = (ep: Endpoint, v: SoapVersion): SoapRoutes => {
    const ports = ep.ports.filter((p) => p.protocol === (v === "1.1" ? "soap11" : "soap12"));
    const operations = soapOperations(ports);
    const byAction = new Map<string, Routed[]>();
    for (const r of operations)
      if (r.op.action !== undefined && r.op.action !== "")
        byAction.set(r.op.action, [...(byAction.get(r.op.action) ?? []), r]);
    return { ports, operations, byAction };
  };
  const soapRouteTable = new Map(
    endpoints.map(
      (ep) => [ep, { "1.1": routesOf(ep, "1.1"), "1.2": routesOf(ep, "1.2") }] as const,
    ),
  );
  const soapRoutes = (ep: Endpoint, v: SoapVersion): SoapRoutes => soapRouteTable.get(ep)![v];
  const httpPort = (ep: Endpoint, verb: "GET" | "POST"): PortDesc | undefined =>
    ep.ports.find((p) => p.protocol === (verb === "GET" ? "httpGet" : "httpPost"));
  // The URL path of every HTTP operation: its port's path followed by its location, joined as
  // clients join them (ASMX's /Service.asmx + /Op, but also a location of "/" or one without a
  // leading slash: zeep and .NET append the location to the address).
  const httpRoutes = new Map<string, HttpRoute[]>();
  // http:urlReplacement operations: a pattern of their path, parameters in its groups.
  const patternRoutes: {
    readonly pattern: RegExp;
    readonly names: readonly string[];
    readonly route: HttpRoute;
  }[] = [];
  for (const ep of endpoints) {
    for (const route of [
      ...httpOperations(ep.ports, "httpGet"),
      ...httpOperations(ep.ports, "httpPost"),
    ]) {
      const base = ep.path === "/" ? "" : ep.path;
      if (route.op.replace) {
        patternRoutes.push({ ...locationPattern(base, route.op.location), route });
        continue;
      }
      const full = new URL(base + route.op.location, "http://localhost").pathname;
      httpRoutes.set(full, [...(httpRoutes.get(full) ?? []), route]);
    }
  }
  /** The urlReplacement operation of this verb whose pattern the path matches, with its parameters. */
  const byPattern = (
    path: string,
    protocol: string | undefined,
  ): { route: HttpRoute; params: URLSearchParams } | undefined => {
    for (const { pattern, names, route } of patternRoutes) {
      if (route.port.protocol !== protocol) continue;
      const m = pattern.exec(path);
      if (!m) continue;
      const params = new URLSearchParams();
      try {
        names.forEach((name, i) => params.append(name, decodeURIComponent(m[i + 1]!)));
      } catch {
        throw new HttpProblem(400, "The URL path holds a malformed percent-encoding.");
      }
      return { route, params };
    }
    return undefined;
  };
  const addresses = [...new Set(ports.map((p) => p.address).filter(Boolean))];
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const limits = options.limits ?? DEFAULT_LIMITS;
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const wsdl =
    options.wsdl ?? (typeof embeddedWsdl === "string" ? embeddedWsdl : embeddedWsdl?.root);
  const importedDocuments = typeof embeddedWsdl === "object" ? embeddedWsdl.imports : {};
  /** The imported document a query names (`?xsd=1`), if any. */
  const importedDocument = (url: URL): string | undefined => {
    for (const [k, v] of url.searchParams) {
      const key = `${k.toLowerCase()}=${v}`;
      if (Object.hasOwn(importedDocuments, key)) return importedDocuments[key];
    }
    return undefined;
  };
  const log =
    options.logger ?? ((message: string, error: unknown) => console.error(message, error));
  const help =
    options.helpPages === false
      ? undefined
      : new HelpPages(service, {
          wsdl: options.serveWsdl !== false ? wsdl : undefined,
          imports: options.serveWsdl !== false ? Object.keys(importedDocuments) : [],
          formAnywhere: options.helpFormFromAnyAddress === true,
        });
  const sendHelp = (res: ServerResponse, page: HelpResponse): void =>
    send(res, page.status, page.body, "text/html; charset=utf-8", page.headers);

  /** The context of one call; `response` collects the SOAP header entries the implementation sets. */
  const context = (
    req: IncomingMessage,
    port: PortDesc,
    operation: string,
    soapHeaders: Readonly<Record<string, unknown>> = {},
    response: Record<string, unknown> = {},
    soapHeaderElements: readonly XmlNode[] = [],
  ): RequestContext => ({
    headers: req.headers,
    soapHeaders,
    soapHeaderElements,
    setResponseSoapHeaders: (h) => void Object.assign(response, h),
    remoteAddress: req.socket.remoteAddress,
    binding: port.protocol,
    port: port.name,
    operation,
  });

  /** Runs the implementation; unexpected errors are logged and become a generic Server fault. */
  const invoke = async (name: string, input: unknown, ctx: RequestContext): Promise<unknown> => {
    const h = handlers[name];
    if (!h)
      throw new SoapFault({ code: "Server", message: `The operation ${name} is not implemented.` });
    try {
      return await (h as (i: unknown, c: RequestContext) => unknown)(input, ctx);
    } catch (e) {
      if (e instanceof SoapFault) throw e;
      log(`wsdl-tsgen: ${service.name}.${name} failed`, e);
      throw new SoapFault({ code: "Server", message: "Server was unable to process request." });
    }
  };

  const wsdlFor = (req: IncomingMessage, wsdl: string, ep: Endpoint): string => {
    const origin = originOf(req);
    let text = wsdl;
    for (const a of addresses) {
      const url = `${origin}${options.path !== undefined ? normalise(options.path) : addressPath(a)}`;
      text = text.split(`location="${a}"`).join(`location="${url}"`);
    }
    // Imports of embedded documents: at this endpoint's URL.
    return text.split(EMBEDDED_DOCUMENT).join(`${origin}${ep.path}?`);
  };
  /** `?WSDL`, `?disco` or an imported document (`?xsd=1`), if the request asks for one. */
  const document = (req: IncomingMessage, url: URL, ep: Endpoint): string | undefined => {
    if (options.serveWsdl === false) return undefined;
    if (wantsWsdl(url) || wantsDisco(url)) {
      if (wsdl === undefined) {
        throw new HttpProblem(
          404,
          "No WSDL is available: this service was generated without embedding it (embedWsdl: false); pass its text in the handler's `wsdl` option to serve it here.",
        );
      }
      const served = wsdlFor(req, wsdl, ep);
      return wantsWsdl(url) ? served : discoDocument(served, `${originOf(req)}${ep.path}`);
    }
    const imported = importedDocument(url);
    if (imported !== undefined) return wsdlFor(req, imported, ep);
    const named = namedDocument(url);
    if (named !== undefined) throw new HttpProblem(404, `This service has no document ${named}.`);
    return undefined;
  };

  // ---- SOAP ----
  const soapFault = (
    res: ServerResponse,
    version: SoapVersion,
    status: number,
    side: "Client" | "Server",
    message: string,
    detail = "",
    header = "",
    headers: Record<string, string> = {},
  ): void =>
    send(
      res,
      status,
      faultEnvelope(version, faultCode(version, side), messageText(message), detail, header),
      SOAP_CT[version],
      headers,
    );

  const handleSoap = async (
    req: IncomingMessage,
    res: ServerResponse,
    ep: Endpoint,
  ): Promise<void> => {
    const ct = parseContentType(req.headers["content-type"]);
    if (ct.type !== "text/xml" && ct.type !== "application/soap+xml") {
      throw new HttpProblem(
        415,
        `The Content-Type '${ct.type || "(none)"}' is not supported here; expected text/xml (SOAP 1.1) or application/soap+xml (SOAP 1.2).`,
      );
    }
    const declared: SoapVersion = ct.type === "text/xml" ? "1.1" : "1.2";
    let request: string | Uint8Array;
    try {
      request = xmlBody(await readBody(req, res, maxBody, timeoutMs), ct.params["charset"]);
    } catch (e) {
      // A body that is not text in its charset is malformed too: a fault, as for bad XML.
      if (!(e instanceof HttpProblem) || e.status !== 400) throw e;
      return soapFault(res, declared, 400, "Client", e.message, "", "", e.headers);
    }
    if (onlyWhiteSpace(request))
      return soapFault(
        res,
        declared,
        400,
        "Client",
        "The request body is empty; expected a SOAP envelope.",
      );

    // Route by SOAPAction / action, then by the body element: among the operations the action names
    // (several may share one), or among all of them when no action is given.
    const action =
      declared === "1.1" ? soapActionHeader(req.headers["soapaction"]) : ct.params["action"];
    let decoded;
    let routed: Routed | undefined;
    /** The operations the action names, once looked up (when an action is given). */
    let named: readonly Routed[] | undefined;
    let unknownAction = false;
    const byAction = (routes: SoapRoutes): void => {
      if (named !== undefined || routes.ports.length === 0 || action === undefined || action === "")
        return;
      const found = routes.byAction.get(action) ?? [];
      named = found;
      if (found.length === 0) unknownAction = true;
      else if (found.length === 1) routed = found[0];
    };
    try {
      decoded = decodeEnvelope(
        request,
        (ns, local, envVersion) => {
          // The envelope's namespace decides the version; pick the request element among that version's ports.
          const routes = soapRoutes(ep, envVersion);
          byAction(routes);
          if (routed) {
            const el = routed.op.request?.element;
            return el && el.ns === ns && el.name === local
              ? (routed.op.request!.parts ?? el)
              : undefined;
          }
          if (unknownAction) return undefined;
          routed = byElement(named ?? routes.operations, ns, local);
          return routed ? (routed.op.request!.parts ?? routed.op.request!.element) : undefined;
        },
        { limits, strict: true, undescribed: "refuse" },
        service.soapHeaders,
        true,
      );
    } catch (e) {
      if (e instanceof XmlDecodeError) {
        const version = declared;
        if (e.kind === "malformed" || e.kind === "limit" || e.kind === "unexpected") {
          return soapFault(
            res,
            version,
            400,
            "Client",
            `The request is not a valid SOAP message: ${e.message}.`,
          );
        }
        const what =
          e.kind === "missing"
            ? `Missing required element ${e.element}.`
            : `Invalid request: ${e.message}.`;
        return soapFault(res, version, 500, "Client", what);
      }
      throw e;
    }
    const version = decoded.version;
    if (declared === "1.2" && version === "1.1") {
      throw new HttpProblem(
        415,
        "A SOAP 1.1 envelope was sent as application/soap+xml; send it as text/xml.",
      );
    }
    const notUnderstood = decoded.notUnderstood.filter(
      (h) => !options.understands?.(h.ns, h.local),
    );
    if (notUnderstood.length > 0) {
      // SOAP's rule, as ASMX applies it: a header entry marked mustUnderstand that is not declared is not processed.
      const names = notUnderstood.map((h) => (h.ns ? `{${h.ns}}${h.local}` : h.local)).join(", ");
      return send(
        res,
        500,
        faultEnvelope(
          version,
          "soap:MustUnderstand",
          messageText(`SOAP header ${names} was not understood.`),
        ),
        SOAP_CT[version],
      );
    }
    const routes = soapRoutes(ep, version);
    if (routes.ports.length === 0)
      throw new HttpProblem(415, `This service does not accept SOAP ${version}.`);
    byAction(routes);
    // An empty Body is the request of an operation whose input has no body content.
    if (!routed && !unknownAction && !decoded.body)
      routed = preferActionless((named ?? routes.operations).filter((r) => !r.op.request));
    if (!routed) {
      if (unknownAction) {
        return version === "1.1"
          ? soapFault(
              res,
              version,
              500,
              "Client",
              `Server did not recognize the value of HTTP Header SOAPAction: ${action}.`,
            )
          : soapFault(
              res,
              version,
              500,
              "Client",
              `Unable to handle request. The action '${action}' was not recognized.`,
            );
      }
      const what = decoded.body
        ? `the body element {${decoded.body.ns}}${decoded.body.local}`
        : "an empty SOAP Body";
      if (named !== undefined) {
        const expected = named
          .map((r) =>
            r.op.request
              ? `{${r.op.request.element.ns}}${r.op.request.element.name}`
              : "an empty Body",
          )
          .join(" or ");
        return soapFault(
          res,
          version,
          500,
          "Client",
          `The action names the operations ${named.map((r) => r.name).join(", ")}, but the request holds ${what}; expected ${expected}.`,
        );
      }
      return version === "1.1"
        ? soapFault(
            res,
            version,
            500,
            "Client",
            `Server did not recognize the request: ${what} matches no operation and no SOAPAction was given.`,
          )
        : soapFault(
            res,
            version,
            500,
            "Client",
            `Unable to handle request without a valid action parameter: ${what} matches no operation.`,
          );
    }
    const expected = routed.op.request?.element;
    // A multi-part body is read by its parts' own fields: the first one stands for the element.
    const first = routed.op.request?.parts?.fields[0] ?? expected;
    if (expected && (!decoded.body || decoded.body.field !== first)) {
      const got = decoded.body ? `{${decoded.body.ns}}${decoded.body.local}` : "an empty SOAP Body";
      return soapFault(
        res,
        version,
        500,
        "Client",
        `The action names ${routed.name}, but the body holds ${got}; expected {${expected.ns}}${expected.name}.`,
      );
    }
    let input: unknown = decoded.body?.value ?? {};
    if (routed.op.request?.prop !== undefined)
      input = { [routed.op.request.prop]: decoded.body?.value };
    let result: unknown;
    const responseHeaders: Record<string, unknown> = {};
    // The response's header entries, as the implementation set them; one that does not fit its type is the server's fault.
    const header = (): string | undefined => {
      try {
        return headerXml(service.soapHeaders, routed!.op.responseHeaders, responseHeaders);
      } catch (e) {
        log(
          `wsdl-tsgen: ${service.name}.${routed!.name} set SOAP response headers that do not fit their type`,
          e,
        );
        return undefined;
      }
    };
    try {
      result = await invoke(
        routed.name,
        input,
        context(
          req,
          routed.port,
          routed.name,
          decoded.headers,
          responseHeaders,
          decoded.otherHeaders,
        ),
      );
    } catch (e) {
      const f = e as SoapFault;
      let detail = typeof f.detail === "string" ? f.detail : "";
      const declared = routed.op.faults?.find((d) => f instanceof d.type);
      if (declared) {
        try {
          const out: string[] = [];
          writeField(out, declared.element, declared.detailOf(f), "", "");
          detail = out.join("");
        } catch (err) {
          log(`wsdl-tsgen: the detail of ${declared.name} does not fit its type`, err);
          return soapFault(res, version, 500, "Server", "Server was unable to process request.");
        }
      }
      const h = header();
      if (h === undefined)
        return soapFault(res, version, 500, "Server", "Server was unable to process request.");
      const status = faultStatus(f);
      return soapFault(res, version, status, f.side, f.message, detail, h, faultHeaders(f));
    }
    if (routed.op.oneWay) return send(res, 202, "", undefined);
    let xml: string;
    const h = header();
    if (h === undefined)
      return soapFault(res, version, 500, "Server", "Server was unable to process request.");
    try {
      xml = envelope(version, responseXml(routed.op.response, result), h);
    } catch (e) {
      log(
        `wsdl-tsgen: ${service.name}.${routed.name} returned a value that does not fit its type`,
        e,
      );
      return soapFault(res, version, 500, "Server", "Server was unable to process request.");
    }
    send(res, 200, xml, SOAP_CT[version]);
  };

  // ---- HTTP GET / POST ----
  const handleHttp = async (
    req: IncomingMessage,
    res: ServerResponse,
    ep: Endpoint,
    opName: string,
    query: URLSearchParams,
  ): Promise<void> => {
    const method = req.method ?? "GET";
    const getPort = httpPort(ep, "GET");
    const postPort = httpPort(ep, "POST");
    const allow = [getPort && "GET", postPort && "POST"].filter(Boolean).join(", ");
    if ((method !== "GET" && method !== "POST") || (method === "GET" ? !getPort : !postPort)) {
      if (!getPort && !postPort) throw new HttpProblem(404, "Not found.");
      throw new HttpProblem(405, `The method ${method} is not allowed here; use ${allow}.`, {
        Allow: allow,
      });
    }
    if (opName === "")
      throw new HttpProblem(
        500,
        `Request format is unrecognized: the URL ends in '${ep.path}/' without an operation name.`,
      );
    // Every port of the verb at this path (a service may have several, with different bindings).
    const operations = httpOperations(ep.ports, method === "GET" ? "httpGet" : "httpPost");
    const route = operations.find((r) => r.op.location.replace(/^\//, "") === opName);
    if (!route) {
      const other = operations.find(
        (r) => r.op.location.replace(/^\//, "").toLowerCase() === opName.toLowerCase(),
      );
      if (other)
        throw new HttpProblem(
          500,
          `Invalid method name '${opName}': method names are case sensitive; the method name '${other.name}' is correct.`,
        );
      throw new HttpProblem(500, `${opName} is not a valid Web Service method name.`);
    }
    return serveHttp(req, res, route, query);
  };

  /** Answers a request routed to an HTTP GET or POST operation: its parameters in, its result document out. */
  const serveHttp = async (
    req: IncomingMessage,
    res: ServerResponse,
    route: HttpRoute,
    query: URLSearchParams,
  ): Promise<void> => {
    const { port, name, op } = route;
    let params = query;
    // The parameters of a urlReplacement operation came in its path: a form, if any, is not read.
    if (op.replace) req.resume();
    else if (port.protocol === "httpPost") {
      const ct = parseContentType(req.headers["content-type"]);
      const body = await readBody(req, res, maxBody, timeoutMs);
      if (
        ct.type !== "application/x-www-form-urlencoded" &&
        !(ct.type === "" && body.length === 0)
      ) {
        throw new HttpProblem(
          415,
          `The Content-Type '${ct.type || "(none)"}' is not supported here; expected application/x-www-form-urlencoded.`,
        );
      }
      params = new URLSearchParams(decodeText(body, ct.params["charset"]));
    }
    let input: unknown;
    try {
      input = decodeHttpParams(op, params, (p, text) => {
        if (p.type.s === "dateTime") {
          const lexical = parseAsmxDateTime(text);
          if (lexical === undefined) throw new ValueFormatError(`'${text}' is not a date and time`);
          return parseScalar("dateTime", lexical);
        }
        return parseScalar(p.type.s, text);
      });
    } catch (e) {
      if (e instanceof HttpParamError) throw new HttpProblem(500, e.message);
      throw e;
    }
    let result: unknown;
    try {
      result = await invoke(name, input, context(req, port, name));
    } catch (e) {
      const f = e as SoapFault;
      throw new HttpProblem(faultStatus(f), f.message, faultHeaders(f));
    }
    if (!op.response || op.response.void) return send(res, 200, "", undefined);
    const el = op.response.element;
    let xml: string;
    try {
      const out: string[] = ['<?xml version="1.0" encoding="utf-8"?>\n'];
      const value = result === undefined ? null : result;
      writeElement(
        out,
        el.name,
        el.ns,
        "",
        el.type,
        value,
        true,
        el.prop,
        ` xmlns:xsd="${XSD_NS}" xmlns:xsi="${XSI_NS}"`,
      );
      xml = out.join("");
    } catch (e) {
      log(`wsdl-tsgen: ${service.name}.${name} returned a value that does not fit its type`, e);
      throw new HttpProblem(500, "Server was unable to process request.");
    }
    send(res, 200, xml, "text/xml; charset=utf-8");
  };

  const listener = (
    req: IncomingMessage,
    res: ServerResponse,
    next?: (err?: unknown) => void,
  ): void => {
    const run = async (): Promise<void> => {
      const url = requestUrl(req.url);
      const path = url.pathname;
      const lower = path.toLowerCase();
      // An HTTP operation at exactly this path, for this verb, unless the request is for a document
      // served at a port's own path (?WSDL, ?xsd=N), where an operation may sit too (location "/").
      const protocol =
        req.method === "GET" ? "httpGet" : req.method === "POST" ? "httpPost" : undefined;
      const exact = httpRoutes.get(path)?.find((r) => r.port.protocol === protocol);
      if (
        exact &&
        !(
          protocol === "httpGet" &&
          endpoints.some((e) => e.lower === lower) &&
          (wantsWsdl(url) || importedDocument(url) !== undefined)
        )
      ) {
        return serveHttp(req, res, exact, url.searchParams);
      }
      const replaced = patternRoutes.length > 0 ? byPattern(path, protocol) : undefined;
      if (replaced) return serveHttp(req, res, replaced.route, replaced.params);
      const ep = endpoints.find(
        (e) => lower === e.lower || lower.startsWith(e.lower === "/" ? "/" : `${e.lower}/`),
      );
      if (!ep) {
        if (next) return next();
        throw notFound();
      }
      const baseLower = ep.lower;
      if (
        lower === baseLower ||
        (lower === `${baseLower}/` && req.method !== "GET" && req.method !== "POST")
      ) {
        if (req.method === "GET" || req.method === "HEAD") {
          const doc = document(req, url, ep);
          if (doc !== undefined)
            return send(res, 200, doc, "text/xml; charset=utf-8", DOCUMENT_HEADERS);
          if (!help) throw new HttpProblem(404, "Not found.");
          return sendHelp(res, help.page(req, url, ep.path, ep.ports));
        }
        if (req.method === "POST") {
          if (help && isFormPost(req, url))
            return sendHelp(res, await help.submit(req, url, ep.path, ep.ports, listener));
          if (soapRoutes(ep, "1.1").ports.length === 0 && soapRoutes(ep, "1.2").ports.length === 0)
            throw new HttpProblem(404, "Not found.");
          return handleSoap(req, res, ep);
        }
        throw new HttpProblem(
          405,
          `The method ${req.method} is not allowed here; use GET or POST.`,
          { Allow: "GET, POST" },
        );
      }
      if (lower.startsWith(baseLower === "/" ? "/" : `${baseLower}/`)) {
        let opName: string;
        try {
          opName = decodeURIComponent(path.slice(baseLower === "/" ? 1 : ep.path.length + 1));
        } catch {
          throw new HttpProblem(400, "The URL path holds a malformed percent-encoding.");
        }
        return handleHttp(req, res, ep, opName, url.searchParams);
      }
      if (next) return next();
      throw notFound();
    };
    run().catch((e: unknown) => {
      if (e instanceof HttpProblem) {
        send(res, e.status, messageText(e.message), "text/plain; charset=utf-8", e.headers);
        if (e.headers["Connection"] === "close") res.on("finish", () => req.socket.destroySoon?.());
        return;
      }
      log(`wsdl-tsgen: unexpected error serving ${req.method} ${loggedTarget(req.url)}`, e);
      send(res, 500, "Server was unable to process request.", "text/plain; charset=utf-8");
    });
  };
  const checkContinue = (req: IncomingMessage, res: ServerResponse): void => {
    awaitingContinue.add(req);
    listener(req, res);
  };
  return Object.assign(listener, { checkContinue });
}

/** `http://host:port` as the client reached this server: its Host header when that is a host. */
function originOf(req: IncomingMessage): string {
  const local = req.socket.localAddress ?? "localhost";
  const host = /^[A-Za-z0-9.\-:[\]]+$/.test(req.headers.host ?? "")
    ? req.headers.host!
    : `${local.includes(":") ? `[${local}]` : local}:${req.socket.localPort ?? 80}`;
  return `${(req.socket as { encrypted?: boolean }).encrypted ? "https" : "http"}://${host}`;
}

/** The request target as a URL; one that is not a URL (`//[/`) is the client's error. */
function requestUrl(target: string | undefined): URL {
  try {
    return new URL(target ?? "/", "http://localhost");
  } catch {
    throw new HttpProblem(400, "The request URL is malformed.");
  }
}

/** A path the handler serves, with the ports whose address has it. */
interface Endpoint {
  readonly path: string;
  readonly lower: string;
  readonly ports: PortDesc[];
}

/** `"urn:x"` → `urn:x`; a missing header stays undefined, an empty one is "". */
function soapActionHeader(v: string | string[] | undefined): string | undefined {
  if (v === undefined) return undefined;
  const s = (Array.isArray(v) ? v[0]! : v).trim();
  return s.startsWith('"') && s.endsWith('"') && s.length >= 2 ? s.slice(1, -1) : s;
}

function responseXml(body: BodyDesc | undefined, result: unknown): string {
  if (!body) return "";
  const value = body.void
    ? {}
    : body.prop !== undefined
      ? result === undefined
        ? {}
        : { [body.prop]: result }
      : result;
  return bodyXml(body, value);
}
