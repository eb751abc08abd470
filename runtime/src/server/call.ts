/**
 * What every protocol handler of one service shares: its settings and the call of an operation's
 * implementation with its request context.
 */
import type { IncomingMessage } from "node:http";
import { SoapFault } from "../errors.js";
import type { BodyDesc } from "../descriptors/types.js";
import type { PortDesc, ServiceDesc } from "../descriptors/operations.js";
import type { RequestContext } from "./context.js";
import { faultProblems } from "./respond.js";
import type { DecodeLimits } from "../xml/decode-options.js";
import type { XmlNode } from "../support/xml-node.js";
import type { ServerMessageSecurity } from "../soap/message-security.js";
import type { X509Certificate } from "node:crypto";

export type Logger = (message: string, error: unknown) => void;

/** The settings of one handler, as its protocol handlers read them. */
export interface Served {
  readonly service: ServiceDesc;
  /** The implementation, and its method name by operation name (the descriptor's `methods`). */
  readonly impl: object;
  readonly methods: Readonly<Record<string, string>>;
  readonly log: Logger;
  readonly maxBody: number;
  readonly limits: DecodeLimits;
  readonly timeoutMs: number;
  readonly understands: ((ns: string, local: string) => boolean) | undefined;
  /** HandlerOptions.xsiType is "always". */
  readonly xsiTypeAlways: boolean;
  readonly security: ServerMessageSecurity | undefined;
  /** HandlerOptions.mtom, as given. */
  readonly mtom: "auto" | "always" | "never" | undefined;
  /** The largest attachment part of an MTOM request (HandlerOptions.maxAttachmentBytes). */
  readonly maxAttachment: number;
  /**
   * Attachment parts of at least this many bytes are spooled (HandlerOptions.attachmentSpoolBytes).
   */
  readonly spoolBytes: number;
}

/** The context of one call; `response` collects the SOAP header entries the implementation sets. */
export function context(
  req: IncomingMessage,
  port: PortDesc,
  operation: string,
  soapHeaders: Readonly<Record<string, unknown>> = {},
  response: Record<string, unknown> = {},
  soapHeaderElements: readonly XmlNode[] = [],
  signer?: X509Certificate,
): RequestContext {
  return {
    ...(signer && { signer }),
    headers: req.headers,
    soapHeaders,
    soapHeaderElements,
    setResponseSoapHeaders: (h) => void Object.assign(response, h),
    remoteAddress: req.socket.remoteAddress,
    binding: port.protocol,
    port: port.name,
    operation,
  };
}

/**
 * The Server fault that answers an operation the implementation lacks, `operation` being its WSDL
 * name (`"GetMessages"`). The handler throws it for a method left out; a hand-written stub that
 * throws it answers the same, byte for byte, on every binding.
 */
export function notImplemented(operation: string): SoapFault {
  return new SoapFault({
    code: "Server",
    message: `The operation ${operation} is not implemented.`,
  });
}

/**
 * Runs the implementation's method, looked up when called: one it lacks (plain JavaScript, say) is
 * a Server fault saying so; unexpected errors are logged and become a generic Server fault.
 */
export async function invoke(
  s: Served,
  name: string,
  input: unknown,
  ctx: RequestContext,
): Promise<unknown> {
  const method = s.methods[name];
  const f = method === undefined ? undefined : (s.impl as Record<string, unknown>)[method];
  if (typeof f !== "function") throw notImplemented(name);
  try {
    return (await f.call(s.impl, input, ctx)) as unknown;
  } catch (e) {
    throw implementationError(s, name, e);
  }
}

/**
 * The fault that answers what an implementation threw (or its streamed result, before any byte
 * went out): a SoapFault as it is, anything else logged and a generic Server fault.
 */
export function implementationError(s: Served, name: string, e: unknown): SoapFault {
  if (e instanceof SoapFault) {
    const problems = faultProblems(e);
    if (problems)
      s.log(`wsdl-tsgen: ${s.service.name}.${name} threw a SoapFault with ${problems}`, e);
    return e;
  }
  s.log(`wsdl-tsgen: ${s.service.name}.${name} failed`, e);
  return new SoapFault({ code: "Server", message: "Server was unable to process request." });
}

/**
 * The value of a response's body element for an implementation's `result`: an empty element for a
 * `void` result, the wrapper holding it for an unwrapped one (`prop`), else the result itself.
 */
export function bodyValue(body: BodyDesc, result: unknown): unknown {
  if (body.void) return {};
  if (body.prop === undefined) return result;
  return result === undefined ? {} : { [body.prop]: result };
}
