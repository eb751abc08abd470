/**
 * The generic server a generated `createXHandler` delegates to. At one path it serves SOAP 1.1,
 * SOAP 1.2, HTTP GET and HTTP POST, and `?WSDL`, the way the recorded ASMX service does, except
 * where we deliberately differ: no stack traces or exception names in any response, clear messages,
 * 400 for malformed SOAP bodies with a fault, 415/404/405 with short plain-text bodies.
 *
 * This module routes a request to its part: the route table (table.ts), the SOAP handler
 * (soap.ts), the HTTP GET/POST handler (http.ts), the documents
 * (documents.ts), the help pages (help/); all answer through respond.ts.
 */
import { DEFAULT_SPOOL_BYTES, spoolsBinaries } from "../mime/spool.js";
import type { ServerMessageSecurity } from "../soap/message-security.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AnyServiceDesc } from "../descriptors/contract.js";
import type { PartialImplementation } from "./contract.js";
import type { EmbeddedWsdl } from "../descriptors/embedded-wsdl.js";
import type { PortDesc } from "../descriptors/operations.js";
import { isFormPost } from "./help/form.js";
import type { HelpResponse } from "./help/html.js";
import { HelpPages } from "./help/pages.js";
import { awaitingContinue, readBody } from "./body.js";
import type { Served } from "./call.js";
import { Documents } from "./documents.js";
import { Origins, publicUrlOf } from "./hosts.js";
import { handleHttp, serveHttp } from "./http.js";
import { DOCUMENT_HEADERS, HttpProblem, send, sendError } from "./respond.js";
import { handleSoap } from "./soap.js";
import { isAt, protocolOf, RouteTable, type Endpoint } from "./table.js";
import type { DecodeLimits } from "../xml/decode-options.js";

/** The header entries the handler lets through: those the options name, and the security's. */
function understanding(o: HandlerOptions): Served["understands"] {
  const { understands, security } = o;
  if (!security) return understands;
  return (ns, local) => security.understands(ns, local) || understands?.(ns, local) === true;
}

export interface HandlerOptions {
  /**
   * The path the service answers at, for every port. Default: each port at the path of its own
   * address in the WSDL (e.g. `/api.asmx`); ports that share a path are served together there.
   */
  readonly path?: string;
  /** Largest request body accepted, in bytes; larger ones get 413. Default: 1 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * The largest attachment part of an MTOM request, in bytes (`maxBodyBytes` bounds them all).
   * Default: `maxBodyBytes`.
   */
  readonly maxAttachmentBytes?: number;
  /**
   * A request's attachment part (MTOM or SOAP with Attachments) of at least this many bytes is
   * written to a temporary file as it arrives and given to the implementation as a Blob; smaller
   * ones are Uint8Arrays. The files are removed once the response has ended. A security that
   * checks attachment signatures gets the spooled parts when it declares `checksSpooledParts`
   * (`x509Security` does); otherwise the parts stay in memory. Default: 1 MiB.
   */
  readonly attachmentSpoolBytes?: number;
  /**
   * When SOAP responses are MTOM (XOP) packages, base64Binary values of 1 KiB or more as attachment
   * parts: "auto", when the request was one; "always"; "never". MTOM requests are read whatever
   * this says. Default: "always" on a port whose WSDL policy asks for MTOM
   * (`wsoma:OptimizedMimeSerialization`), else "auto".
   */
  readonly mtom?: "auto" | "always" | "never";
  /** Element depth and count limits for request XML. Default: 64 levels, 100 000 elements. */
  readonly limits?: DecodeLimits;
  /** Time allowed to receive the request body, in milliseconds; then 408. Default: 30 000. */
  readonly requestTimeoutMs?: number;
  /** Where unexpected implementation errors go. Default: `console.error`. */
  readonly logger?: (message: string, error: unknown) => void;
  /** Serve `?WSDL`. Default: true. */
  readonly serveWsdl?: boolean;
  /**
   * The WSDL text served at `?WSDL` (its addresses rewritten per request). Default: the text
   * embedded at generation. Code generated with `embedWsdl: false` embeds none: without this
   * option, `?WSDL` answers 404.
   */
  readonly wsdl?: string;
  /**
   * Header entries marked mustUnderstand that the WSDL does not declare but the implementation
   * processes (from `RequestContext.soapHeaderElements`): without this they get a MustUnderstand
   * fault, as SOAP requires. E.g. `(ns, local) => ns === WSSE_NS && local === "Security"`.
   */
  readonly understands?: (ns: string, local: string) => boolean;
  /**
   * Checks each SOAP request before the implementation sees it, and secures each response:
   * `x509Security` of `@wsdl-tsgen/runtime/wss` verifies X.509 signatures (a request it refuses
   * gets a Client/Sender fault naming what failed) and signs responses (docs/ws-security.md). The
   * certificate that signed a request is `RequestContext.signer`.
   */
  readonly security?: ServerMessageSecurity;
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
  /**
   * `xsi:type` on values of types that others extend: "derived", only where a value's type is a
   * derived one; "always", on every such value, as Salesforce's servers write (clients such as zeep
   * read nested polymorphic values only so). Default: "derived".
   */
  readonly xsiType?: "derived" | "always";
  /**
   * The ports (bindings) served, by name, e.g. `["ApiSoap", "ApiSoap12"]` to turn HTTP GET and POST
   * off; requests for the others answer as for an unknown path, and `?WSDL` and `?disco` leave
   * them out. Default: every port.
   */
  readonly ports?: readonly string[];
  /**
   * The URL clients reach the service at, e.g. `https://api.example.com` or, behind a proxy that
   * adds a path, `https://gw.example.com/messages`: written into the addresses of `?WSDL` and
   * `?disco` and the help pages' samples, whatever the request's Host says. Set it when a proxy
   * sits in front. Default: the request's Host when `allowedHosts` allows it (docs/serving.md).
   */
  readonly publicUrl?: string;
  /**
   * Without `publicUrl`, the host names (no ports) a request's Host may name for `?WSDL`, `?disco`
   * and the help pages to be written with it: `api.example.com`, `*.example.com` for its
   * subdomains, `*` for any. Another Host gets 400 there (SOAP and HTTP requests are served as
   * ever). Default: this machine's names (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`,
   * `0.0.0.0`, `[::]`) and the address the request arrived at (docs/serving.md).
   */
  readonly allowedHosts?: readonly string[];
}

/**
 * A Node request listener that also works as Express middleware (`next` for paths it does not
 * serve).
 */
export interface RequestListener {
  (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void): void;
  /**
   * For node:http's `checkContinue` event (`server.on("checkContinue", handler.checkContinue)`):
   * a request sent with `Expect: 100-continue` then gets `100 Continue` only when its body is
   * wanted, and a body over the limit gets its 413 without being sent.
   */
  readonly checkContinue: (req: IncomingMessage, res: ServerResponse) => void;
  /** The largest request body accepted (`maxBodyBytes`): `createServer` refuses larger early. */
  readonly maxBodyBytes: number;
}

const DEFAULT_LIMITS: DecodeLimits = { maxDepth: 64, maxElements: 100_000 };

/** What `createServiceHandler` serves, each by name. */
export interface ServiceHandlerInit<
  S extends AnyServiceDesc,
  I extends object = PartialImplementation<S>,
> {
  /** The service's descriptor (`ApiDesc`). */
  readonly service: S;
  /**
   * The implementation: a method it lacks answers the Server fault of `notImplemented`. Generated
   * code names its written-out interface as `I`, so that tsc need not map it from `S`.
   */
  readonly impl: NoInfer<I>;
  /** The WSDL embedded at generation; absent when generated with `embedWsdl: false`. */
  readonly embeddedWsdl?: string | EmbeddedWsdl;
  readonly options?: HandlerOptions;
}

/**
 * Builds the request listener for one service from its descriptors, WSDL text and implementation:
 * a request for an operation calls the implementation's method the descriptor's `methods` names.
 */
export function createServiceHandler<
  S extends AnyServiceDesc,
  I extends object = PartialImplementation<S>,
>(init: ServiceHandlerInit<S, I>): RequestListener {
  const { service, impl, embeddedWsdl, options = {} } = init;
  const security = options.security;
  if (options.mtom === "always" && security?.secureResponse && !security.securesAttachments)
    throw new RangeError(
      'mtom: "always" cannot go with security that signs responses but not attachment parts: its signature would cover the envelope as written, not its attachments; expected one of them, or security that signs them (x509Security)',
    );
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const served: Served = {
    service,
    impl,
    methods: methodsByOperation(service),
    log: options.logger ?? ((message: string, error: unknown) => console.error(message, error)),
    maxBody,
    limits: options.limits ?? DEFAULT_LIMITS,
    timeoutMs: options.requestTimeoutMs ?? 30_000,
    understands: understanding(options),
    security: options.security,
    xsiTypeAlways: options.xsiType === "always",
    mtom: options.mtom,
    maxAttachment: options.maxAttachmentBytes ?? maxBody,
    spoolBytes: spoolsBinaries(service)
      ? (options.attachmentSpoolBytes ?? DEFAULT_SPOOL_BYTES)
      : Infinity,
  };
  const ports = servedPorts(service, options.ports);
  const table = new RouteTable(ports, options.path);
  const origins = new Origins(publicUrlOf(options.publicUrl), options.allowedHosts);
  const hidden = Object.keys(service.ports).filter((n) => !ports.some((p) => p.name === n));
  const documents = new Documents(ports, embeddedWsdl, options.wsdl, table, origins, hidden);
  const serveWsdl = options.serveWsdl !== false;
  const help =
    options.helpPages === false
      ? undefined
      : new HelpPages(service, {
          wsdl: serveWsdl ? documents.wsdl : undefined,
          imports: serveWsdl ? Object.keys(documents.imports) : [],
          formAnywhere: options.helpFormFromAnyAddress === true,
          origins,
        });
  const server = new Server(served, table, documents, serveWsdl, help);
  const listener = (
    req: IncomingMessage,
    res: ServerResponse,
    next?: (err?: unknown) => void,
  ): void => {
    server
      .route(req, res, listener, next)
      .catch((e: unknown) => sendError(req, res, e, served.log));
  };
  const checkContinue = (req: IncomingMessage, res: ServerResponse): void => {
    awaitingContinue.add(req);
    listener(req, res);
  };
  return Object.assign(listener, { checkContinue, maxBodyBytes: maxBody });
}

/** The ports `names` chooses (all when undefined); an unknown name is refused, naming the ports. */
function servedPorts(service: AnyServiceDesc, names: readonly string[] | undefined): PortDesc[] {
  const all = Object.entries(service.ports as Record<string, PortDesc>);
  if (names === undefined) return all.map(([, p]) => p);
  const unknown = names.filter((n) => !all.some(([name]) => name === n));
  if (unknown.length > 0)
    throw new RangeError(
      `unknown port ${unknown.join(", ")}: ${service.name} has ${all.map(([n]) => n).join(", ")}`,
    );
  return all.filter(([name]) => names.includes(name)).map(([, p]) => p);
}

/** The implementation's method name by operation name (no prototype: `__proto__` is an entry). */
function methodsByOperation(service: AnyServiceDesc): Record<string, string> {
  const byOperation: Record<string, string> = Object.create(null);
  for (const [method, operation] of Object.entries<string>(service.methods))
    byOperation[operation] = method;
  return byOperation;
}

/**
 * The request target as a URL; one that is not a URL (`//[/`) is the client's error. A target
 * without a query (every SOAP request's) is parsed once: the URL is only read.
 */
function requestUrl(target: string | undefined): URL {
  const t = target ?? "/";
  const known = t.length <= MAX_PARSED_LENGTH ? parsedTargets.get(t) : undefined;
  if (known !== undefined) return known;
  let url: URL;
  try {
    url = new URL(t, "http://localhost");
  } catch {
    throw new HttpProblem(400, "The request URL is malformed.");
  }
  if (url.search === "" && t.length <= MAX_PARSED_LENGTH) {
    if (parsedTargets.size >= MAX_PARSED) parsedTargets.clear();
    parsedTargets.set(t, url);
  }
  return url;
}
const parsedTargets = new Map<string, URL>();
const MAX_PARSED = 64;
const MAX_PARSED_LENGTH = 200;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

const sendHelp = (res: ServerResponse, page: HelpResponse): void =>
  send(res, page.status, page.body, "text/html; charset=utf-8", page.headers);

/** One handler's parts, and the route from a request to the part that answers it. */
class Server {
  constructor(
    private readonly served: Served,
    private readonly table: RouteTable,
    private readonly documents: Documents,
    private readonly serveWsdl: boolean,
    private readonly help: HelpPages | undefined,
  ) {}

  async route(
    req: IncomingMessage,
    res: ServerResponse,
    listener: Listener,
    next: ((err?: unknown) => void) | undefined,
  ): Promise<void> {
    const url = requestUrl(req.url);
    const path = url.pathname;
    const lower = path.toLowerCase();
    const protocol = protocolOf(req.method);
    // An HTTP operation at exactly this path, for this verb, unless the request is for a document
    // served at a port's own path (?WSDL, ?disco, ?xsd=N), where an operation may sit too ("/").
    const exact = this.table.exactRoute(path, protocol);
    if (
      exact &&
      !(protocol === "httpGet" && this.table.isEndpoint(lower) && this.documents.asked(url))
    )
      return serveHttp(this.served, req, res, exact, url.searchParams);
    const replaced = this.table.byPattern(path, protocol);
    if (replaced) return serveHttp(this.served, req, res, replaced.route, replaced.params);
    const ep = this.table.endpointOf(lower);
    if (!ep) {
      if (next) return next();
      throw this.table.notFound();
    }
    if (isAt(ep, lower) || (lower === `${ep.lowerBase}/` && protocol === undefined))
      return this.atEndpoint(req, res, url, ep, listener);
    let opName: string;
    try {
      opName = decodeURIComponent(path.slice(ep.lowerBase.length + 1));
    } catch {
      throw new HttpProblem(400, "The URL path holds a malformed percent-encoding.");
    }
    return handleHttp(this.served, req, res, ep, opName, url.searchParams);
  }

  /** A request at an endpoint's own path: a document or help page, a SOAP request or a form. */
  private async atEndpoint(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    ep: Endpoint,
    listener: Listener,
  ): Promise<void> {
    const help = this.help;
    if (req.method === "GET" || req.method === "HEAD") {
      const doc = this.serveWsdl ? this.documents.document(req, url, ep) : undefined;
      if (doc !== undefined)
        return send(res, 200, doc, "text/xml; charset=utf-8", DOCUMENT_HEADERS);
      if (!help) throw new HttpProblem(404, "Not found.");
      return sendHelp(res, help.page(req, url, ep.path, ep.ports));
    }
    if (req.method === "POST") {
      if (help && isFormPost(req, url)) {
        const body = (max: number) => readBody(req, res, max, this.served.timeoutMs);
        return sendHelp(res, await help.submit(req, url, ep.path, ep.ports, listener, body));
      }
      if (ep.soap["1.1"].ports.length === 0 && ep.soap["1.2"].ports.length === 0)
        throw new HttpProblem(404, "Not found.");
      return handleSoap(this.served, req, res, ep);
    }
    throw new HttpProblem(405, `The method ${req.method} is not allowed here; use GET or POST.`, {
      Allow: "GET, POST",
    });
  }
}
