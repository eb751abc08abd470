/**
 * The SOAP 1.1 and 1.2 bindings: the envelope read and routed to an operation by SOAPAction (or the
 * 1.2 action) and body element, the implementation called, its result or fault sent back.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BodyDesc, ComplexDesc, FieldDesc } from "../descriptors/types.js";
import type { SoapFault, SoapVersion } from "../errors.js";
import { parseContentType } from "../http/content-type.js";
import { messageText } from "../support/input-text.js";
import { bodyXml, decodeEnvelope, envelope, faultEnvelope, headerXml } from "../soap/envelope.js";
import type { DecodedEnvelope } from "../soap/envelope.js";
import { readBody, xmlBody } from "./body.js";
import { bodyValue, context, implementationError, invoke, type Served } from "./call.js";
import { answerStreamed, streamedResult } from "./stream.js";
import {
  faultHeaders,
  faultStatus,
  secureFaults,
  sendFaultEnvelope,
  HttpProblem,
  send,
  serverFault,
  SOAP_CT,
  soapFault,
} from "./respond.js";
import { byElement, preferActionless, type Routed, type SoapRoutes } from "./routes.js";
import type { Endpoint } from "./table.js";
import { onlyWhiteSpace } from "../support/xml-space.js";
import { clark } from "../support/xml-node.js";
import { XmlDecodeError } from "../xml/decode-options.js";
import { writeField } from "../xml/writer.js";
import { withXsiTypes } from "../xml/xsi-types.js";
import type { X509Certificate } from "node:crypto";
import {
  SecurityRefusal,
  securing,
  type CheckedRequest,
  type ServerMessageSecurity,
} from "../soap/message-security.js";
import type { DecodeOptions, XopAttachments } from "../xml/decode-options.js";
import { writeMtom, type MtomBody } from "../mime/xop.js";
import { readPackage, responsePolicy, sendPackage, soapAction } from "./mtom.js";
import { requestAttachments, responsePackage, withAttachments } from "./swa.js";
import type { BodyPart } from "../mime/multipart.js";

/**
 * A SOAP request's body as read: the version its Content-Type declares, its action and its text.
 */
interface SoapRequest {
  readonly declared: SoapVersion;
  readonly action: string | undefined;
  readonly body: string | Uint8Array;
  /** The attachments of an MTOM request's envelope. */
  readonly xop?: XopAttachments;
  /** A package's parts besides the envelope, by Content-ID (SOAP with Attachments). */
  readonly parts?: ReadonlyMap<string, BodyPart>;
}

/**
 * Route by SOAPAction / action, then by the body element: among the operations the action names
 * (several may share one), or among all of them when no action is given.
 */
class SoapRouting {
  routed: Routed | undefined;
  /** The operations the action names, once looked up (when an action is given). */
  named: readonly Routed[] | undefined;
  unknownAction = false;

  constructor(
    readonly ep: Endpoint,
    readonly action: string | undefined,
  ) {}

  byAction(routes: SoapRoutes): void {
    const action = this.action;
    if (this.named !== undefined || routes.ports.length === 0 || !action) return;
    const found = routes.byAction.get(action) ?? [];
    this.named = found;
    if (found.length === 0) this.unknownAction = true;
    else if (found.length === 1) this.routed = found[0];
  }

  /**
   * The description of the body element {ns}local; the envelope's namespace decides the version.
   */
  readonly pick = (
    ns: string,
    local: string,
    version: SoapVersion,
  ): FieldDesc | ComplexDesc | undefined => {
    const routes = this.ep.soap[version];
    this.byAction(routes);
    if (this.routed) {
      const el = this.routed.op.request?.element;
      return el && el.ns === ns && el.name === local
        ? (this.routed.op.request!.parts ?? el)
        : undefined;
    }
    if (this.unknownAction) return undefined;
    this.routed = byElement(this.named ?? routes.operations, ns, local);
    return this.routed
      ? (this.routed.op.request!.parts ?? this.routed.op.request!.element)
      : undefined;
  };
}

/** Answers a SOAP request posted to an endpoint. */
export async function handleSoap(
  s: Served,
  req: IncomingMessage,
  res: ServerResponse,
  ep: Endpoint,
): Promise<void> {
  const request = await readSoap(s, req, res);
  if (!request) return;
  const checked = await checkSecurity(s, res, request);
  if (!checked) return;
  const routing = new SoapRouting(ep, request.action);
  const decoded = decode(s, res, request, routing);
  if (!decoded) return;
  const version = decoded.version;
  if (request.declared === "1.2" && version === "1.1") {
    throw new HttpProblem(
      415,
      "A SOAP 1.1 envelope was sent as application/soap+xml; send it as text/xml.",
    );
  }
  if (notUnderstood(s, res, decoded)) return;
  const routes = ep.soap[version];
  if (routes.ports.length === 0)
    throw new HttpProblem(415, `This service does not accept SOAP ${version}.`);
  routing.byAction(routes);
  // An empty Body is the request of an operation whose input has no body content.
  if (!routing.routed && !routing.unknownAction && !decoded.body)
    routing.routed = preferActionless(
      (routing.named ?? routes.operations).filter((r) => !r.op.request),
    );
  const routed = routing.routed;
  if (!routed) return unrouted(res, version, routing, decoded);
  if (!bodyFits(res, version, routed, decoded)) return;
  const attached = requestAttachments(res, version, routed.op, request.parts);
  if (!attached) return;
  return call(s, req, res, version, routed, decoded, checked.signer, attached);
}

/**
 * What the handler's security found in the request, before anything in it is read; undefined when
 * it refused the request, which a Client/Sender fault then answers.
 */
/** What a request without security configured is: checked by nothing, signed by nobody. */
const UNCHECKED: CheckedRequest = Object.freeze({});

async function checkSecurity(
  s: Served,
  res: ServerResponse,
  request: SoapRequest,
): Promise<CheckedRequest | undefined> {
  if (!s.security) return UNCHECKED;
  try {
    const parts = request.parts;
    // A check that cannot see the attachments would vouch for parts nothing signed.
    if (parts && parts.size > 0 && s.security.securesAttachments !== true)
      throw new SecurityRefusal("its attachments cannot be checked", "unsigned-attachment");
    // Spooled parts are hashed as they are read: the implementation waits for the whole check.
    const checked = await s.security.checkRequest(request.body, request.declared, parts);
    if (s.security.secureResponse)
      secureFaults(res, faultSecuring(s.security.secureResponse.bind(s.security)));
    return checked;
  } catch (e) {
    if (!(e instanceof SecurityRefusal)) throw e;
    const message = `The security of the request could not be verified: ${e.message}.`;
    soapFault(res, request.declared, 500, "Client", message);
    return undefined;
  }
}

/** How a fault is secured: synchronously, a fault's envelope having no parts to read first. */
function faultSecuring(
  secure: NonNullable<ServerMessageSecurity["secureResponse"]>,
): (xml: string, version: SoapVersion) => string {
  return (xml, version) => {
    const secured = secure(xml, version);
    if (typeof secured !== "string")
      throw new Error("a security's secureResponse of a fault (no parts) gave a promise");
    return secured;
  };
}

/** The request's body as text, or undefined when it was answered with a fault instead. */
async function readSoap(
  s: Served,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<SoapRequest | undefined> {
  const ct = parseContentType(req.headers["content-type"]);
  if (ct.type === "multipart/related") return readPackage(s, req, res, ct);
  if (ct.type !== "text/xml" && ct.type !== "application/soap+xml") {
    throw new HttpProblem(
      415,
      `The Content-Type '${ct.type || "(none)"}' is not supported here; expected text/xml (SOAP 1.1) or application/soap+xml (SOAP 1.2).`,
    );
  }
  const declared: SoapVersion = ct.type === "text/xml" ? "1.1" : "1.2";
  let body: string | Uint8Array;
  try {
    body = xmlBody(await readBody(req, res, s.maxBody, s.timeoutMs), ct.params["charset"]);
  } catch (e) {
    // A body that is not text in its charset is malformed too: a fault, as for bad XML.
    if (!(e instanceof HttpProblem) || e.status !== 400) throw e;
    soapFault(res, declared, 400, "Client", e.message, "", "", e.headers);
    return undefined;
  }
  if (onlyWhiteSpace(body)) {
    soapFault(res, declared, 400, "Client", "The request body is empty; expected a SOAP envelope.");
    return undefined;
  }
  const action = declared === "1.1" ? soapAction(req.headers["soapaction"]) : ct.params["action"];
  return { declared, action, body };
}

/**
 * The options requests to an endpoint are decoded with, made once rather than per request (an
 * endpoint belongs to one handler, so to one `Served`).
 */
const endpointOptions = new WeakMap<Endpoint, DecodeOptions>();
function decodeOptions(s: Served, ep: Endpoint): DecodeOptions {
  let o = endpointOptions.get(ep);
  if (o === undefined) {
    o = Object.freeze({
      limits: s.limits,
      strict: true,
      undescribed: "refuse",
      multiRefs: ep.encoded,
    });
    endpointOptions.set(ep, o);
  }
  return o;
}

/** The envelope decoded, or undefined when it was answered with a fault instead. */
function decode(
  s: Served,
  res: ServerResponse,
  request: SoapRequest,
  routing: SoapRouting,
): DecodedEnvelope | undefined {
  try {
    const options = decodeOptions(s, routing.ep);
    return decodeEnvelope(
      request.body,
      routing.pick,
      request.xop ? { ...options, xop: request.xop } : options,
      s.service.soapHeaders,
      true,
    );
  } catch (e) {
    if (!(e instanceof XmlDecodeError)) throw e;
    const version = request.declared;
    if (e.kind === "malformed" || e.kind === "limit" || e.kind === "unexpected") {
      const message = `The request is not a valid SOAP message: ${e.message}.`;
      soapFault(res, version, 400, "Client", message);
      return undefined;
    }
    const what =
      e.kind === "missing"
        ? `Missing required element ${e.element}.`
        : `Invalid request: ${e.message}.`;
    soapFault(res, version, 500, "Client", what);
    return undefined;
  }
}

/**
 * Answers a MustUnderstand fault when a header entry so marked is neither declared nor understood.
 */
function notUnderstood(s: Served, res: ServerResponse, decoded: DecodedEnvelope): boolean {
  if (decoded.notUnderstood.length === 0) return false;
  const not = decoded.notUnderstood.filter((h) => !s.understands?.(h.ns, h.local));
  if (not.length === 0) return false;
  // SOAP's rule, as ASMX applies it: a header entry marked mustUnderstand that is not declared is
  // not processed.
  const names = not.map((h) => clark(h.ns, h.local)).join(", ");
  const message = messageText(`SOAP header ${names} was not understood.`);
  const version = decoded.version;
  sendFaultEnvelope(res, version, 500, faultEnvelope(version, "soap:MustUnderstand", message));
  return true;
}

/** The fault for a request that matches no operation, in ASMX's words where it has some. */
function unrouted(
  res: ServerResponse,
  version: SoapVersion,
  routing: SoapRouting,
  decoded: DecodedEnvelope,
): void {
  const { action, named } = routing;
  if (routing.unknownAction) {
    const message =
      version === "1.1"
        ? `Server did not recognize the value of HTTP Header SOAPAction: ${action}.`
        : `Unable to handle request. The action '${action}' was not recognized.`;
    return soapFault(res, version, 500, "Client", message);
  }
  const what = decoded.body
    ? `the body element ${clark(decoded.body.ns, decoded.body.local)}`
    : "an empty SOAP Body";
  if (named !== undefined) {
    const expected = named
      .map((r) =>
        r.op.request ? clark(r.op.request.element.ns, r.op.request.element.name) : "an empty Body",
      )
      .join(" or ");
    const names = named.map((r) => r.name).join(", ");
    const message = `The action names the operations ${names}, but the request holds ${what}; expected ${expected}.`;
    return soapFault(res, version, 500, "Client", message);
  }
  const message =
    version === "1.1"
      ? `Server did not recognize the request: ${what} matches no operation and no SOAPAction was given.`
      : `Unable to handle request without a valid action parameter: ${what} matches no operation.`;
  soapFault(res, version, 500, "Client", message);
}

/** Whether the body holds the operation's request element; a fault answers it when not. */
function bodyFits(
  res: ServerResponse,
  version: SoapVersion,
  routed: Routed,
  decoded: DecodedEnvelope,
): boolean {
  const expected = routed.op.request?.element;
  // A multi-part body is read by its parts' own fields: the first one stands for the element.
  const first = routed.op.request?.parts?.fields[0] ?? expected;
  if (!expected || (decoded.body && decoded.body.field === first)) return true;
  const got = decoded.body ? clark(decoded.body.ns, decoded.body.local) : "an empty SOAP Body";
  const message =
    `The action names ${routed.name}, but the body holds ${got}; ` +
    `expected ${clark(expected.ns, expected.name)}.`;
  soapFault(res, version, 500, "Client", message);
  return false;
}

/** Calls the implementation and answers with its result, or with the fault it threw. */
async function call(
  s: Served,
  req: IncomingMessage,
  res: ServerResponse,
  version: SoapVersion,
  routed: Routed,
  decoded: DecodedEnvelope,
  signer: X509Certificate | undefined,
  attached: Record<string, Uint8Array | Blob>,
): Promise<void> {
  const request = routed.op.request;
  let input: unknown = decoded.body?.value ?? {};
  if (request?.prop !== undefined) input = { [request.prop]: decoded.body?.value };
  input = withAttachments(input, attached);
  const responseHeaders: Record<string, unknown> = {};
  const { headers, otherHeaders } = decoded;
  let result: unknown;
  try {
    const ctx = context(
      req,
      routed.port,
      routed.name,
      headers,
      responseHeaders,
      otherHeaders,
      signer,
    );
    result = await invoke(s, routed.name, input, ctx);
  } catch (e) {
    return sendFault(s, res, version, routed, e as SoapFault, responseHeaders);
  }
  if (routed.op.oneWay) return send(res, 202, "", undefined);
  const h = header(s, routed, responseHeaders);
  if (h === undefined) return serverFault(res, version);
  const mtom = responsePolicy(s, routed.port, req);
  const streamed = streamedResult(result, routed.op.response);
  if (streamed) {
    const whole = !!mtom || !!s.security?.secureResponse || !!routed.op.responseAttachments;
    const r = await answerStreamed(streamTarget(s, res, version, routed, h), streamed, whole);
    if (r === undefined) return;
    result = r.whole;
  }
  let xml = "";
  let pkg: MtomBody | undefined;
  try {
    const write = () =>
      envelope(
        version,
        withXsiTypes(s.xsiTypeAlways, () => responseXml(routed.op.response, result)),
        h,
      );
    const secure = securing(s.security, s.security?.secureResponse, version);
    pkg = await responsePackage(routed.op, version, result, write, secure);
    if (!pkg && mtom) pkg = await writeMtom(mtom, version, undefined, write, secure);
    else if (!pkg) xml = await secure(write());
  } catch (e) {
    s.log(
      `wsdl-tsgen: ${s.service.name}.${routed.name} returned a value that does not fit its type, or its answer could not be secured`,
      e,
    );
    return serverFault(res, version);
  }
  if (pkg)
    return sendPackage(res, 200, pkg, (e) =>
      s.log(
        `wsdl-tsgen: ${s.service.name}.${routed.name}: an attachment failed to read while its ` +
          "answer was sent: connection closed",
        e,
      ),
    );
  send(res, 200, xml, SOAP_CT[version]);
}

/** Where a streamed result (stream.ts) is written: the envelope around the body element. */
function streamTarget(
  s: Served,
  res: ServerResponse,
  version: SoapVersion,
  routed: Routed,
  header: string,
) {
  const [before, after] = envelope(version, "\0", header).split("\0") as [string, string];
  return {
    res,
    contentType: SOAP_CT[version],
    before,
    after,
    rootExtra: "",
    xsiTypeAlways: s.xsiTypeAlways,
    log: s.log,
    what: `${s.service.name}.${routed.name}`,
    failEarly: (e: unknown) =>
      sendFault(s, res, version, routed, implementationError(s, routed.name, e), {}),
  };
}

/** The fault an implementation threw, its declared detail written by its type. */
function sendFault(
  s: Served,
  res: ServerResponse,
  version: SoapVersion,
  routed: Routed,
  f: SoapFault,
  responseHeaders: Record<string, unknown>,
): void {
  let detail = typeof f.detail === "string" ? f.detail : "";
  const declared = routed.op.faults?.find((d) => f instanceof d.type);
  if (declared) {
    try {
      const out: string[] = [];
      writeField(out, declared.element, declared.detailOf(f), "", "");
      detail = out.join("");
    } catch (err) {
      s.log(`wsdl-tsgen: the detail of ${declared.name} does not fit its type`, err);
      return serverFault(res, version);
    }
  }
  const h = header(s, routed, responseHeaders);
  if (h === undefined) return serverFault(res, version);
  soapFault(res, version, faultStatus(f), f.side, f.message, detail, h, faultHeaders(f));
}

/**
 * The response's header entries, as the implementation set them; one that does not fit its type is
 * the server's fault.
 */
function header(
  s: Served,
  routed: Routed,
  responseHeaders: Record<string, unknown>,
): string | undefined {
  try {
    return headerXml(s.service.soapHeaders, routed.op.responseHeaders, responseHeaders);
  } catch (e) {
    s.log(
      `wsdl-tsgen: ${s.service.name}.${routed.name} set SOAP response headers that do not fit their type`,
      e,
    );
    return undefined;
  }
}

function responseXml(body: BodyDesc | undefined, result: unknown): string {
  return body ? bodyXml(body, bodyValue(body, result)) : "";
}
