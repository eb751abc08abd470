/**
 * The server's response writer: every answer the generated server sends, SOAP envelopes, faults,
 * documents, help pages and plain-text errors, goes out through `send`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { SoapFault, type SoapVersion } from "../errors.js";
import { loggedTarget, messageText } from "../support/input-text.js";
import { faultCode, faultEnvelope } from "../soap/envelope.js";

export const SOAP_CT = {
  "1.1": "text/xml; charset=utf-8",
  "1.2": "application/soap+xml; charset=utf-8",
} as const;

/** Answers hold account data: no cache keeps them. Documents get ASMX's `private, max-age=0`. */
export const DOCUMENT_HEADERS = { "Cache-Control": "private, max-age=0" };

/** An HTTP error answered with a short plain-text body; thrown anywhere while serving a request. */
export class HttpProblem extends Error {
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
 * Buffers of bodies already sent, to encode the next bodies into. A fresh 48 KB buffer per response
 * was memory the allocator returned to the kernel and took back, about ten page faults per request
 * (HTTP GET in the server bench: 20 µs of system time, a sixth of the request); a buffer sent is
 * free again once its response has finished.
 */
const spare: Buffer[] = [];
const SPARE_MAX = 8;
/** Bodies smaller than this (in the most bytes they may take) are cheap to copy and allocate. */
const SPARE_MIN = 16 * 1024;
/**
 * Larger bodies (in the most bytes they may take, three per UTF-16 unit) are rare enough not to
 * keep their buffers (at most 8 × 512 KiB are kept).
 */
const SPARE_LARGEST = 512 * 1024;

/** A buffer of `size` bytes: a spare one when one fits without wasting most of it. */
function takeBuffer(size: number): Buffer {
  for (let i = spare.length - 1; i >= 0; i--) {
    const b = spare[i]!;
    if (b.length >= size && b.length <= size * 4) {
      spare.splice(i, 1);
      return b;
    }
  }
  // Rounded up, so that bodies of about the same size fit one another's buffers.
  return Buffer.allocUnsafeSlow(2 ** Math.ceil(Math.log2(size)));
}

/**
 * `body` as UTF-8 bytes, in one pass, and the buffer that holds them (to give back once sent), if
 * it is a spare one (only when `spareable`): `Buffer.from(string)` measures the string and then
 * encodes it, which on a 48 KB response was a third of the encoding time.
 */
function utf8(body: string, spareable: boolean): { bytes: Buffer; own: Buffer | undefined } {
  // Three bytes per UTF-16 unit is the most UTF-8 can take; a very large body is not worth keeping
  // space for.
  const most = body.length * 3;
  if (spareable && most >= SPARE_MIN && most <= SPARE_LARGEST) {
    // Encoded straight into a buffer that will be sent, rather than copied there from scratch.
    const own = takeBuffer(most);
    return { bytes: own.subarray(0, encoder.encodeInto(body, own).written), own };
  }
  if (most > SCRATCH_LIMIT) return { bytes: Buffer.from(body, "utf8"), own: undefined };
  if (scratch.length < most)
    scratch = new Uint8Array(Math.min(SCRATCH_LIMIT, Math.max(most, scratch.length * 2)));
  const { written } = encoder.encodeInto(body, scratch);
  const bytes = Buffer.allocUnsafe(written);
  bytes.set(scratch.subarray(0, written));
  return { bytes, own: undefined };
}

export function send(
  res: ServerResponse,
  status: number,
  body: string,
  contentType: string | undefined,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  // A response whose `end` middleware replaced (compression, say) may read the bytes later.
  const { bytes, own } = utf8(body, !Object.hasOwn(res, "end") && !Object.hasOwn(res, "write"));
  const h: Record<string, string | number> = {
    "Cache-Control": "no-store",
    "Content-Length": bytes.length,
    // A plain-text error echoes the path: no browser may take it for HTML.
    "X-Content-Type-Options": "nosniff",
    ...headers,
  };
  if (contentType) h["Content-Type"] = contentType;
  res.writeHead(status, h);
  if (!own) return void res.end(bytes);
  // Once finished, the socket has handed every byte to the system: the buffer may be written again.
  // A response that never finishes (the connection broke) keeps its buffer, for the GC to take.
  res.once("finish", () => {
    if (spare.length < SPARE_MAX) spare.push(own);
  });
  res.end(bytes);
}

/**
 * The HTTP status of a fault an implementation threw: 500, as ASMX sends, unless it names another
 * error status.
 */
export function faultStatus(f: SoapFault): number {
  const s = f.httpStatus;
  return s !== undefined && Number.isInteger(s) && s >= 400 && s <= 599 ? s : 500;
}

/** The HTTP headers a fault an implementation threw asks for: `Retry-After`, if it gave one. */
export function faultHeaders(f: SoapFault): Record<string, string> {
  const s = f.retryAfterSeconds;
  return s !== undefined && Number.isInteger(s) && s >= 0 ? { "Retry-After": String(s) } : {};
}

/**
 * What of a thrown fault's `httpStatus` and `retryAfterSeconds` cannot be sent, with what is sent
 * instead ("" when both can), for the log: the implementation's mistake is said, not hidden.
 */
export function faultProblems(f: SoapFault): string {
  const out: string[] = [];
  if (f.httpStatus !== undefined && faultStatus(f) !== f.httpStatus)
    out.push(`httpStatus ${f.httpStatus}, not 400–599: answered 500`);
  if (f.retryAfterSeconds !== undefined && faultHeaders(f)["Retry-After"] === undefined)
    out.push(
      `retryAfterSeconds ${f.retryAfterSeconds}, not a whole number of seconds from 0: no Retry-After`,
    );
  return out.join("; with ");
}

/**
 * How the faults of a response are secured (signed), once its request has passed the handler's
 * security check: a server that signs its answers signs its faults too, as WCF does. A request
 * its security refused gets its fault unsigned, as WCF sends it, so that an unsigned request never
 * costs a private-key operation.
 */
type Secure = (envelope: string, version: SoapVersion) => string;
const faultSecurity = new WeakMap<ServerResponse, Secure>();

export function secureFaults(res: ServerResponse, secure: Secure): void {
  faultSecurity.set(res, secure);
}

/**
 * Sends the fault envelope `xml`, secured when its request passed the security check. Every SOAP
 * fault goes out here, so that none can skip the securing.
 */
export function sendFaultEnvelope(
  res: ServerResponse,
  version: SoapVersion,
  status: number,
  xml: string,
  headers: Record<string, string> = {},
): void {
  const secured = faultSecurity.get(res)?.(xml, version) ?? xml;
  send(res, status, secured, SOAP_CT[version], headers);
}

/** A SOAP fault of `version`, its message made safe to quote input in. */
export function soapFault(
  res: ServerResponse,
  version: SoapVersion,
  status: number,
  side: "Client" | "Server",
  message: string,
  detail = "",
  header = "",
  headers: Record<string, string> = {},
): void {
  const code = faultCode(version, side);
  const xml = faultEnvelope(version, code, messageText(message), detail, header);
  sendFaultEnvelope(res, version, status, xml, headers);
}

/** The generic fault for an implementation's error or a result that does not fit its type. */
export function serverFault(res: ServerResponse, version: SoapVersion): void {
  soapFault(res, version, 500, "Server", "Server was unable to process request.");
}

/**
 * Answers what serving a request threw: an HttpProblem as plain text (closing the connection when
 * it asks to, once the answer is out), anything else as a logged 500.
 */
export function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  e: unknown,
  log: (message: string, error: unknown) => void,
): void {
  if (e instanceof HttpProblem) {
    send(res, e.status, messageText(e.message), "text/plain; charset=utf-8", e.headers);
    if (e.headers["Connection"] === "close") res.on("finish", () => req.socket.destroySoon?.());
    return;
  }
  log(`wsdl-tsgen: unexpected error serving ${req.method} ${loggedTarget(req.url)}`, e);
  send(res, 500, "Server was unable to process request.", "text/plain; charset=utf-8");
}
