/**
 * What the client's protocol modules (soap.ts, http.ts) call through: the port chosen at
 * construction, its endpoint and options, and `send`, which sends a request with the client's
 * headers, authorization, time-out and trace, and reads the response.
 */
import { DEFAULT_SPOOL_BYTES, spoolsBinaries } from "../mime/spool.js";
import type { ComplexDesc } from "../descriptors/types.js";
import { AuthenticationError, fetchFailure, TransportError } from "../errors.js";
import { DEFAULT_MAX_RESPONSE_BYTES } from "../http/body.js";
import type { PortDesc, ServiceDesc } from "../descriptors/operations.js";
import type { CustomFrame, DecodeOptions } from "../xml/decode-options.js";
import { takeUserinfo, withAuthorization } from "../http/userinfo.js";
import { withoutPasswords } from "../soap/ws-security.js";
import type { MtomPolicy } from "../mime/xop.js";
import { clientSender, type Sender } from "../transport/select.js";
import { mtomPolicy } from "./mtom-policy.js";
import type { CallOptions, ClientOptions } from "./options.js";
import { packaged } from "./packaged.js";
import { receive, type Received } from "./received.js";

/** The port a client sends to, and how it sends. */
export class Caller {
  readonly port: PortDesc;
  readonly endpoint: string;
  readonly options: ClientOptions;
  readonly headerType: ComplexDesc | undefined;
  /** Read once: a bad threshold, or MTOM beside security that cannot sign parts, fails here. */
  readonly mtom: MtomPolicy | undefined;
  /** From which size a response's attachment parts are spooled (see spoolsBinaries). */
  private readonly spoolBytes: number;
  private readonly fetchImpl: Sender;
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
    // A check of the parts' signatures that cannot read spooled parts has them in memory.
    const security = options.security;
    this.spoolBytes =
      spoolsBinaries(service) && (!security?.checkResponse || security.checksSpooledParts === true)
        ? (options.attachmentSpoolBytes ?? DEFAULT_SPOOL_BYTES)
        : Infinity;
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

  decodeOptions(): DecodeOptions {
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
  async send(
    operation: string,
    url: string,
    init: RequestInit,
    callOptions: CallOptions,
    decoding?: CustomFrame,
  ): Promise<Received> {
    const started = performance.now();
    const headers = this.headersFor(init, callOptions);
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

  /** A request's headers: its own, the client's, the call's, and authorization. */
  private headersFor(init: RequestInit, callOptions: CallOptions): Record<string, string> {
    return withAuthorization(this.authorization, {
      ...(init.headers as Record<string, string>),
      ...this.options.headers,
      ...callOptions.headers,
    });
  }

  /**
   * Sends a streamed call's request (client/stream.ts), aborted by `signal`: its response once its
   * head has come, the body unread, and not traced since it is not kept.
   */
  async open(
    url: string,
    init: RequestInit,
    callOptions: CallOptions,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<Response> {
    try {
      return await this.fetchImpl(
        url,
        { ...init, headers: this.headersFor(init, callOptions) },
        signal,
        callOptions,
      );
    } catch (e) {
      throw this.failure(e, init, url, timeoutMs);
    }
  }

  /**
   * Reads a response whole, within `maxResponseBytes` (a call's, or a streamed call's that cannot
   * be streamed: an HTTP error, another charset than UTF-8, an MTOM package); see `receive`.
   */
  receiveWhole(res: Response, decoding: CustomFrame | undefined): Promise<Received> {
    return receive(
      res,
      this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      "the client's maxResponseBytes",
      decoding,
      this.decodeOptions(),
      this.options.maxAttachmentBytes,
      this.spoolBytes,
    );
  }

  /** What a failure to send or receive is thrown as: a TransportError saying what failed. */
  failure(e: unknown, init: RequestInit, url: string, timeoutMs?: number): unknown {
    if (e instanceof AuthenticationError) return e;
    const timedOut = e instanceof Error && e.name === "TimeoutError";
    const what = timedOut ? `timed out after ${timeoutMs} ms` : `failed: ${fetchFailure(e, url)}`;
    return new TransportError(`${init.method ?? "GET"} ${url} ${what}`, e);
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
      return await this.receiveWhole(res, decoding);
    } catch (e) {
      throw this.failure(e, init, url, timeoutMs);
    }
  }
}

const REDACTED = "[redacted]";

/** The headers with any Authorization's value redacted. */
function redactedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    out[k] = k.toLowerCase() === "authorization" ? REDACTED : v;
  return out;
}
