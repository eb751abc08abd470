/**
 * The generic client a generated client class delegates to: it builds requests for the chosen port's
 * binding, sends them with `fetch`, and decodes responses, faults and errors.
 */
import type { BodyDesc, ComplexDesc } from "./descriptors.js";
import { HttpBindingError, ResponseFormatError, TransportError, type SoapFault, type SoapVersion } from "./errors.js";
import { isUtf8Charset, parseContentType } from "./content-type.js";
import { encodeHttpParams, replaceInLocation } from "./http-binding.js";
import { DEFAULT_MAX_RESPONSE_BYTES, readBody } from "./http-body.js";
import type { HttpOperationDesc, OperationDesc, PortDesc, ServiceDesc, SoapOperationDesc } from "./operations.js";
import { bodyXml, decodeEnvelope, envelope, faultFromNode, headerXml } from "./soap.js";
import { decodeDocument, XmlDecodeError, type DecodeOptions } from "./xml-reader.js";
import { onlyWhiteSpace } from "./xml-chars.js";
import { ownValue } from "./own-props.js";
import { writeNode } from "./xml-writer.js";

export interface ClientOptions<PortName extends string = string, SoapHeaders extends object = object> {
  /** The service URL, e.g. `http://host/api.asmx`. Default: the chosen port's address in the WSDL. */
  readonly endpoint?: string;
  /** Which `wsdl:port` to use. Default: the first SOAP 1.1 port. */
  readonly port?: PortName;
  /** The fetch implementation. Default: the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Time-out per call in milliseconds. Default: 60 000. */
  readonly timeoutMs?: number;
  /**
   * The largest response body accepted, in bytes: a larger one is not read further and the call
   * fails with a TransportError. Default: 256 MiB (`Infinity` for no limit).
   */
  readonly maxResponseBytes?: number;
  /** Extra headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Reject responses that lack a required element or hold a value outside an enumeration. Default: true. */
  readonly strict?: boolean;
  /**
   * SOAP header entries sent with every call, by element name: each operation sends the ones its
   * binding declares (`soap:header`). Per-call `soapHeaders` replace entries of the same name.
   */
  readonly soapHeaders?: SoapHeaders;
}

export interface CallOptions<SoapHeaders extends object = object, ResponseSoapHeaders extends object = SoapHeaders> {
  readonly signal?: AbortSignal;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /** SOAP header entries for this call, over the client's `soapHeaders`. */
  readonly soapHeaders?: SoapHeaders;
  /**
   * Receives the SOAP header entries of the response that the service declares (a tracking id,
   * say), before the result resolves or a fault rejects; not called over HTTP GET/POST.
   */
  readonly onSoapHeaders?: (headers: ResponseSoapHeaders) => void;
}

/** Sends the operations of one service over the port chosen at construction. */
export class ServiceClient {
  readonly port: PortDesc;
  readonly endpoint: string;
  private readonly fetchImpl: typeof fetch;
  private readonly options: ClientOptions;
  private readonly headerType: ComplexDesc | undefined;

  constructor(service: ServiceDesc, options: ClientOptions = {}) {
    this.headerType = service.soapHeaders;
    const name = options.port ?? service.defaultPort;
    const port = service.ports[name];
    if (!port) {
      throw new Error(`unknown port '${name}' of service ${service.name}; expected one of ${Object.keys(service.ports).join(", ")}`);
    }
    this.port = port;
    this.endpoint = (options.endpoint ?? port.address).replace(/\/+$/, "");
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.options = options;
  }

  /** Calls operation `name` with its typed input and resolves to its typed result. */
  async call(name: string, input: unknown, callOptions: CallOptions = {}): Promise<unknown> {
    const op: OperationDesc | undefined = this.port.operations[name];
    if (!op) throw new Error(`operation ${name} is not available on port ${this.port.name}`);
    return op.kind === "soap" ? this.callSoap(op, input, callOptions) : this.callHttp(op, input, callOptions);
  }

  private decodeOptions(): DecodeOptions {
    return { strict: this.options.strict ?? true };
  }

  private async send(url: string, init: RequestInit, callOptions: CallOptions): Promise<Received> {
    const timeoutMs = callOptions.timeoutMs ?? this.options.timeoutMs ?? 60_000;
    const signals = [AbortSignal.timeout(timeoutMs)];
    if (callOptions.signal) signals.push(callOptions.signal);
    const headers = { ...(init.headers as Record<string, string>), ...this.options.headers, ...callOptions.headers };
    let res: Response;
    let body: Buffer;
    try {
      res = await this.fetchImpl(url, { ...init, headers, signal: AbortSignal.any(signals) });
      body = await readBody(res, this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, "the client's maxResponseBytes");
    } catch (e) {
      const timedOut = e instanceof Error && e.name === "TimeoutError";
      const what = timedOut ? `timed out after ${timeoutMs} ms` : `failed: ${e instanceof Error ? e.message : String(e)}`;
      throw new TransportError(`${init.method ?? "GET"} ${url} ${what}`, e);
    }
    return new Received(res.status, res.headers.get("content-type") ?? "", body);
  }

  private async callSoap(op: SoapOperationDesc, input: unknown, callOptions: CallOptions): Promise<unknown> {
    const version: SoapVersion = this.port.protocol === "soap12" ? "1.2" : "1.1";
    const elementValue = op.request?.prop !== undefined ? (input === undefined || input === null ? undefined : ownValue(input as Record<string, unknown>, op.request.prop)) : input;
    const soapHeaders = callOptions.soapHeaders === undefined ? this.options.soapHeaders : { ...this.options.soapHeaders, ...callOptions.soapHeaders };
    const body = envelope(version, bodyXml(op.request, elementValue), headerXml(this.headerType, op.headers, soapHeaders as Readonly<Record<string, unknown>> | undefined));
    const headers: Record<string, string> =
      version === "1.1"
        ? { "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${op.action ?? ""}"` }
        : { "Content-Type": `application/soap+xml; charset=utf-8${op.action !== undefined ? `; action="${op.action}"` : ""}` };
    const res = await this.send(this.endpoint, { method: "POST", headers, body }, callOptions);
    if (op.oneWay && res.blank && res.status < 300) return undefined;
    if (res.blank) {
      if (res.status >= 300) throw new HttpBindingError(res.status, res.text);
      if (!op.response) return undefined;
      throw new ResponseFormatError(`the response to ${this.port.name} has an empty body; expected a SOAP envelope`, res.status, res.text);
    }
    let decoded;
    try {
      decoded = decodeEnvelope(
        res.xml,
        (ns, local) => (op.response && op.response.element.ns === ns && op.response.element.name === local ? (op.response.parts ?? op.response.element) : undefined),
        this.decodeOptions(),
        this.headerType,
      );
    } catch (e) {
      if (res.status >= 300) throw new HttpBindingError(res.status, res.text);
      throw new ResponseFormatError(`the response is not a valid SOAP ${version} message: ${(e as Error).message}`, res.status, res.text, e);
    }
    (callOptions.onSoapHeaders as ((h: Record<string, unknown>) => void) | undefined)?.(decoded.headers);
    if (decoded.fault) {
      const fault = faultFromNode(decoded.fault, decoded.version, res.status);
      throw typedFault(op, fault) ?? fault;
    }
    if (res.status >= 300) throw new HttpBindingError(res.status, res.text);
    if (!op.response) return undefined;
    if (!decoded.body?.field) {
      const got = decoded.body ? `{${decoded.body.ns}}${decoded.body.local}` : "an empty Body";
      throw new ResponseFormatError(`the response holds ${got}; expected {${op.response.element.ns}}${op.response.element.name}`, res.status, res.text);
    }
    return pick(op.response, decoded.body.value);
  }

  private async callHttp(op: HttpOperationDesc, input: unknown, callOptions: CallOptions): Promise<unknown> {
    let params = encodeHttpParams(op, input);
    let url = this.endpoint + op.location;
    if (op.replace) {
      // http:urlReplacement: each parameter in place of its (name) in the location, and no query or form.
      const values = params;
      url = this.endpoint + replaceInLocation(op.location, (name) => values.get(name) ?? "");
      params = new URLSearchParams();
    }
    const res =
      this.port.protocol === "httpGet"
        ? await this.send(`${url}${params.size > 0 ? `?${params}` : ""}`, { method: "GET" }, callOptions)
        : await this.send(url, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: params.toString() }, callOptions);
    if (res.status < 200 || res.status >= 300) throw new HttpBindingError(res.status, res.text);
    if (!op.response) return undefined;
    try {
      const { value } = decodeDocument(res.xml, [op.response.element], this.decodeOptions());
      // A nil document element is a null result, read as the typed result admits it.
      if (value === null) return op.response.nil === "null" ? null : op.response.nil === "empty" ? [] : undefined;
      return pick(op.response, value);
    } catch (e) {
      if (e instanceof XmlDecodeError) throw new ResponseFormatError(`the response of ${url} is not the expected XML: ${e.message}`, res.status, res.text, e);
      throw e;
    }
  }
}

/**
 * A response: status, Content-Type and body. The body is read as text only when needed (an error's
 * message, a charset other than UTF-8): the decoders read UTF-8 bytes faster than a string.
 */
class Received {
  #text: string | undefined;
  /** The charset the Content-Type declares, if any. */
  private readonly charset: string | undefined;
  constructor(
    readonly status: number,
    readonly contentType: string,
    readonly bytes: Buffer,
  ) {
    this.charset = parseContentType(contentType).params["charset"];
  }

  /** The body as text, in its declared charset (UTF-8 when none is declared or it is unknown). */
  get text(): string {
    if (this.#text !== undefined) return this.#text;
    let decoder: InstanceType<typeof TextDecoder>;
    try {
      decoder = new TextDecoder(this.charset ?? "utf-8");
    } catch {
      decoder = new TextDecoder("utf-8");
    }
    return (this.#text = decoder.decode(this.bytes));
  }

  /** The body for the XML decoders: the bytes when they are UTF-8, else the text. */
  get xml(): string | Uint8Array {
    return isUtf8Charset(this.charset) ? this.bytes : this.text;
  }

  /** Whether the body is empty or only white space. */
  get blank(): boolean {
    return onlyWhiteSpace(this.xml);
  }
}

/** A declared fault's generated class, with its detail decoded, when the detail holds its element. */
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
      return desc.create({ code: fault.code, message: fault.message, detail, ...(fault.httpStatus !== undefined ? { httpStatus: fault.httpStatus } : {}), ...(fault.soapVersion ? { soapVersion: fault.soapVersion } : {}) }, value);
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
