/**
 * The generic client a generated client class delegates to: it builds requests for the chosen
 * port's binding, sends them with `fetch`, and decodes responses, faults and errors.
 */
import type { BodyDesc, ComplexDesc } from "../descriptors/types.js";
import {
  AuthenticationError,
  fetchFailure,
  HttpBindingError,
  OperationUnavailableError,
  ResponseFormatError,
  TransportError,
  type SoapFault,
  type SoapVersion,
} from "../errors.js";
import { encodeHttpParams, replaceInLocation } from "../http/binding.js";
import { DEFAULT_MAX_RESPONSE_BYTES } from "../http/body.js";
import type {
  HttpOperationDesc,
  OperationDesc,
  PortDesc,
  ServiceDesc,
  SoapOperationDesc,
} from "../descriptors/operations.js";
import {
  bodyXml,
  envelope,
  envelopeReader,
  faultFromNode,
  headerXml,
  type DecodedEnvelope,
  type EnvelopeReader,
} from "../soap/envelope.js";
import { receive, type Received } from "./received.js";
import { decodeDocument, documentReader } from "../xml/reader.js";
import { clark, type XmlNode } from "../support/xml-node.js";
import { XmlDecodeError, type CustomFrame, type DecodeOptions } from "../xml/decode-options.js";
import { ownValue } from "../support/own-props.js";
import { keepUndescribed, undescribedOf } from "../xml/undescribed.js";
import { takeUserinfo, withAuthorization } from "../http/userinfo.js";
import { securityHeaderXml, withoutPasswords } from "../soap/ws-security.js";
import {
  checkedFault,
  checkAnswer,
  faultInit,
  faultThrown,
  type FaultCheck,
} from "./fault-check.js";
import { writeNode } from "../xml/write-tree.js";
import { withXsiTypes } from "../xml/xsi-types.js";
import type { CallOptions, ClientOptions } from "./options.js";
import { mtomPolicy } from "./mtom-policy.js";
import { securing } from "../soap/message-security.js";
import { writeMtom, type MtomPolicy } from "../mime/xop.js";
import { packaged, packagedRequest, swaRequest, withResponseAttachments } from "./packaged.js";
import { clientSender, type Sender } from "../transport/select.js";

/**
 * The result, keeping on it the elements the operation does not describe around it: in its
 * wrapper, or in the Body after it (see `undescribedOf`). A result that is no object cannot keep
 * them, and the response is refused.
 */
function withBodyExtras(
  value: unknown,
  extras: readonly XmlNode[],
  res: { status: number; text: string },
): unknown {
  if (extras.length === 0) return value;
  if (typeof value !== "object" || value === null) {
    const first = extras[0]!;
    throw new ResponseFormatError(
      `the response holds ${clark(first.ns, first.local)}, which the operation does not describe, ` +
        "beside a result that cannot keep it",
      res.status,
      res.text,
    );
  }
  for (const node of extras) keepUndescribed(value, node);
  return value;
}

/** `CallOptions.onSoapHeaders`, as the client calls it with the headers it decoded. */
type OnSoapHeaders = (headers: Record<string, unknown>) => void;

/** Sends the operations of one service over the port chosen at construction. */
export class ServiceClient {
  readonly port: PortDesc;
  readonly endpoint: string;
  private readonly fetchImpl: Sender;
  private readonly options: ClientOptions;
  private readonly headerType: ComplexDesc | undefined;
  /** Read once: a bad threshold, or MTOM beside security that cannot sign parts, fails here. */
  private readonly mtom: MtomPolicy | undefined;
  /** Basic authorization from the endpoint's user and password; headers given win over it. */
  private readonly authorization: string | undefined;

  constructor(service: ServiceDesc, options: ClientOptions = {}) {
    this.headerType = service.soapHeaders;
    const name = options.port ?? service.defaultPort;
    const port = service.ports[name];
    if (!port) {
      throw new Error(
        `unknown port '${name}' of service ${service.name}; expected one of ${Object.keys(service.ports).join(", ")}`,
      );
    }
    this.port = port;
    if (options.endpoint === undefined && !/^https?:\/\//i.test(port.address)) {
      throw new Error(
        `port ${name} of service ${service.name} has no absolute address in its WSDL (${JSON.stringify(port.address)}); expected the endpoint option, e.g. { endpoint: "https://host/path" }`,
      );
    }
    this.mtom = mtomPolicy(options.mtom, port, options.security);
    if (options.wsSecurity && options.security)
      throw new Error(
        "wsSecurity and security each write a wsse:Security header, and a message may carry one; expected one of them",
      );
    // user:password@ in the endpoint (which fetch refuses) is sent as Basic authorization instead.
    const { url, authorization } = takeUserinfo(options.endpoint ?? port.address);
    // As given: an address ending in "/" is posted to with its slash (see httpUrl for HTTP).
    this.endpoint = url;
    this.authorization = authorization;
    this.fetchImpl = clientSender(options, url);
    this.options = options;
  }

  /** Calls operation `name` with its typed input and resolves to its typed result. */
  async call(name: string, input: unknown, callOptions: CallOptions = {}): Promise<unknown> {
    const op: OperationDesc | undefined = this.port.operations[name];
    if (!op) throw new OperationUnavailableError(name, this.port.name);
    return op.kind === "soap"
      ? this.callSoap(name, op, input, callOptions)
      : this.callHttp(name, op, input, callOptions);
  }

  private decodeOptions(): DecodeOptions {
    return {
      strict: this.options.strict ?? true,
      undescribed: this.options.undescribed ?? "keep",
      multiRefs: this.port.encoded === true,
    };
  }

  /**
   * Sends a request and reads the response. With `decoding`, a UTF-8 body is decoded into that
   * frame as it arrives (see Received.decode), rather than after it has all come.
   */
  private async send(
    operation: string,
    url: string,
    init: RequestInit,
    callOptions: CallOptions,
    decoding?: CustomFrame,
  ): Promise<Received> {
    const started = performance.now();
    const headers = withAuthorization(this.authorization, {
      ...(init.headers as Record<string, string>),
      ...this.options.headers,
      ...callOptions.headers,
    });
    const trace = this.options.trace;
    const request = () => {
      const body =
        typeof init.body === "string" ? init.body : (packaged.get(init.body as object) ?? "");
      const shown = this.options.traceCredentials === true;
      return {
        port: this.port.name,
        operation,
        method: init.method ?? "GET",
        url,
        requestHeaders: shown ? headers : redactedHeaders(headers),
        requestBody: shown ? body : withoutPasswords(body, REDACTED),
      };
    };
    try {
      const received = await this.exchange(url, { ...init, headers }, callOptions, decoding);
      trace?.({
        ...request(),
        response: { status: received.status, headers: received.headers, body: received.text },
        durationMs: performance.now() - started,
      });
      return received;
    } catch (e) {
      if (trace && e instanceof TransportError)
        trace({ ...request(), error: e.cause, durationMs: performance.now() - started });
      throw e;
    }
  }

  /**
   * Sends one request and reads its response (see send); failures of either are TransportErrors.
   */
  private async exchange(
    url: string,
    init: RequestInit,
    callOptions: CallOptions,
    decoding: CustomFrame | undefined,
  ): Promise<Received> {
    const timeoutMs = callOptions.timeoutMs ?? this.options.timeoutMs ?? 60_000;
    const signals = [AbortSignal.timeout(timeoutMs)];
    if (callOptions.signal) signals.push(callOptions.signal);
    try {
      const res = await this.fetchImpl(url, init, AbortSignal.any(signals), callOptions);
      return await receive(
        res,
        this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        "the client's maxResponseBytes",
        decoding,
        this.decodeOptions(),
        this.options.maxAttachmentBytes,
      );
    } catch (e) {
      if (e instanceof AuthenticationError) throw e;
      const timedOut = e instanceof Error && e.name === "TimeoutError";
      const what = timedOut ? `timed out after ${timeoutMs} ms` : `failed: ${fetchFailure(e, url)}`;
      throw new TransportError(`${init.method ?? "GET"} ${url} ${what}`, e);
    }
  }

  private async callSoap(
    name: string,
    op: SoapOperationDesc,
    input: unknown,
    callOptions: CallOptions,
  ): Promise<unknown> {
    const version: SoapVersion = this.port.protocol === "soap12" ? "1.2" : "1.1";
    const reader = envelopeReader(
      (ns, local) =>
        op.response && op.response.element.ns === ns && op.response.element.name === local
          ? (op.response.parts ?? op.response.element)
          : undefined,
      this.decodeOptions(),
      this.headerType,
    );
    const request = this.soapRequest(name, op, input, callOptions, version);
    const res = await this.send(name, this.endpoint, request, callOptions, reader.root);
    if (op.oneWay && res.blank && res.status < 300) return undefined;
    if (res.blank) {
      if (res.status >= 300) throw new HttpBindingError(res.status, res.text);
      if (!op.response) return undefined;
      throw new ResponseFormatError(
        `the response to ${this.port.name} has an empty body; expected a SOAP envelope`,
        res.status,
        res.text,
      );
    }
    const decoded = this.decodeSoap(res, reader, version);
    // A fault is given signed or not, marked verified or not (see fault-check.ts); the headers of
    // one whose signature failed are no more to be trusted than its body.
    const faultCheck = checkAnswer(this.options.security, !!decoded.fault, res, version);
    const onHeaders = callOptions.onSoapHeaders as OnSoapHeaders | undefined;
    if (!faultCheck.refusal) onHeaders?.(decoded.headers);
    return withResponseAttachments(op, soapResult(op, decoded, res, faultCheck), res);
  }

  /** The POST of a SOAP call: its envelope, with declared and undeclared header entries. */
  private soapRequest(
    name: string,
    op: SoapOperationDesc,
    input: unknown,
    callOptions: CallOptions,
    version: SoapVersion,
  ): RequestInit {
    const elementValue =
      op.request?.prop !== undefined
        ? input === undefined || input === null
          ? undefined
          : ownValue(input as Record<string, unknown>, op.request.prop)
        : input;
    const soapHeaders =
      callOptions.soapHeaders === undefined
        ? this.options.soapHeaders
        : { ...this.options.soapHeaders, ...callOptions.soapHeaders };
    const extra = this.options.extraSoapHeaders;
    // Header entries the WSDL does not declare come first: WS-Security, then the caller's own.
    const undeclared =
      (this.options.wsSecurity ? securityHeaderXml(this.options.wsSecurity) : "") +
      (typeof extra === "function"
        ? extra({
            operation: name,
            action: op.action,
            endpoint: this.endpoint,
            soapVersion: version,
          })
        : (extra ?? ""));
    const write = () =>
      envelope(
        version,
        withXsiTypes(this.options.xsiType === "always", () => bodyXml(op.request, elementValue)),
        undeclared +
          headerXml(
            this.headerType,
            op.headers,
            soapHeaders as Readonly<Record<string, unknown>> | undefined,
          ),
      );
    const mtom = this.mtom;
    const secure = securing(this.options.security, this.options.security?.secureRequest, version);
    if (op.attachments)
      return swaRequest(name, op.attachments, op.action, version, input, write, secure);
    const pkg = mtom && writeMtom(mtom, version, op.action, write, secure);
    if (pkg) return packagedRequest(pkg, version, op.action);
    const secured = secure(write());
    const headers: Record<string, string> =
      version === "1.1"
        ? { "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${op.action ?? ""}"` }
        : {
            "Content-Type": `application/soap+xml; charset=utf-8${op.action !== undefined ? `; action="${op.action}"` : ""}`,
          };
    return { method: "POST", headers, body: secured };
  }

  /** The envelope of a non-empty response; an HTTP error or ResponseFormatError when it is none. */
  private decodeSoap(res: Received, reader: EnvelopeReader, version: SoapVersion): DecodedEnvelope {
    try {
      res.decode(reader.root, this.decodeOptions());
      return reader.result();
    } catch (e) {
      if (res.status >= 300) throw new HttpBindingError(res.status, res.text);
      throw new ResponseFormatError(
        `the response is not a valid SOAP ${version} message: ${(e as Error).message}`,
        res.status,
        res.text,
        e,
      );
    }
  }

  private async callHttp(
    name: string,
    op: HttpOperationDesc,
    input: unknown,
    callOptions: CallOptions,
  ): Promise<unknown> {
    let params = encodeHttpParams(op, input);
    let url = httpUrl(this.endpoint, op.location);
    if (op.replace) {
      // http:urlReplacement: each parameter in place of its (name) in the location, and no query or
      // form.
      const values = params;
      const location = replaceInLocation(op.location, (name) => values.get(name) ?? "");
      url = httpUrl(this.endpoint, location);
      params = new URLSearchParams();
    }
    const reader = op.response ? documentReader([op.response.element]) : undefined;
    const res =
      this.port.protocol === "httpGet"
        ? await this.send(
            name,
            `${url}${params.size > 0 ? `?${params}` : ""}`,
            { method: "GET" },
            callOptions,
            reader?.root,
          )
        : await this.send(
            name,
            url,
            {
              method: "POST",
              headers: { "Content-Type": "application/x-www-form-urlencoded" },
              body: params.toString(),
            },
            callOptions,
            reader?.root,
          );
    if (res.status < 200 || res.status >= 300) throw new HttpBindingError(res.status, res.text);
    if (!op.response || !reader) return undefined;
    try {
      res.decode(reader.root, this.decodeOptions());
      const { value } = reader.result();
      // A nil document element is a null result, read as the typed result admits it.
      if (value === null)
        return op.response.nil === "null" ? null : op.response.nil === "empty" ? [] : undefined;
      return picked(op.response, value, [], res);
    } catch (e) {
      if (e instanceof XmlDecodeError)
        throw new ResponseFormatError(
          `the response of ${url} is not the expected XML: ${e.message}`,
          res.status,
          res.text,
          e,
        );
      throw e;
    }
  }
}

/** A decoded SOAP response's typed result: its fault thrown, else its value and what it kept. */
function soapResult(
  op: SoapOperationDesc,
  decoded: DecodedEnvelope,
  res: Received,
  check: FaultCheck = {},
): unknown {
  if (decoded.fault) {
    const received = faultFromNode(decoded.fault, decoded.version, res.status);
    if (typeof received === "string")
      throw new ResponseFormatError(
        `the response's SOAP ${decoded.version} Fault ${received}; expected a fault code and a reason`,
        res.status,
        res.text,
      );
    const fault = checkedFault(received, check);
    throw faultThrown(typedFault(op, fault) ?? fault, check);
  }
  if (res.status >= 300) throw new HttpBindingError(res.status, res.text);
  if (!op.response) return withBodyExtras(undefined, decoded.undescribed, res);
  if (!decoded.body?.field) {
    const got = decoded.body ? clark(decoded.body.ns, decoded.body.local) : "an empty Body";
    const expected = clark(op.response.element.ns, op.response.element.name);
    throw new ResponseFormatError(
      `the response holds ${got}; expected ${expected}`,
      res.status,
      res.text,
    );
  }
  return picked(op.response, decoded.body.value, decoded.undescribed, res);
}

/**
 * The typed result read from the response's body element `wrapper`, with `extras` and what the
 * wrapper kept (when the result is part of it, or nothing of it) going with it (see
 * withBodyExtras).
 */
function picked(
  body: BodyDesc,
  wrapper: unknown,
  extras: readonly XmlNode[],
  res: { status: number; text: string },
): unknown {
  const value = pick(body, wrapper);
  const kept = value === wrapper ? [] : undescribedOf(wrapper);
  return withBodyExtras(value, [...kept, ...extras], res);
}

/**
 * A declared fault's generated class, with its detail decoded, when the detail holds its element.
 */
function typedFault(op: SoapOperationDesc, fault: SoapFault): SoapFault | undefined {
  const detail = fault.detail;
  if (!op.faults?.length || typeof detail !== "object") return undefined;
  for (const child of detail.children) {
    if (typeof child === "string") continue;
    const desc = op.faults.find((f) => f.element.ns === child.ns && f.element.name === child.local);
    if (!desc) continue;
    try {
      const out: string[] = [];
      writeNode(out, child, "");
      const { value } = decodeDocument(out.join(""), [desc.element]);
      return desc.create(faultInit(fault), value);
    } catch {
      return undefined; // a detail that does not decode stays an untyped SoapFault
    }
  }
  return undefined;
}

function pick(body: BodyDesc, value: unknown): unknown {
  if (body.void) return undefined;
  if (body.prop === undefined) return value;
  if (value === null || value === undefined) return undefined;
  return ownValue(value as Record<string, unknown>, body.prop);
}

/**
 * The URL of an HTTP operation: its location after the address, as .NET and zeep join them, one
 * slash between (an address of /admin/1.3/ and a location of /Op give /admin/1.3/Op).
 */
const httpUrl = (endpoint: string, location: string): string =>
  location.startsWith("/") ? endpoint.replace(/\/+$/, "") + location : endpoint + location;

const REDACTED = "[redacted]";

/** The headers with any Authorization's value redacted. */
function redactedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    out[k] = k.toLowerCase() === "authorization" ? REDACTED : v;
  return out;
}
