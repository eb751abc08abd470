/**
 * MTOM on the server's SOAP bindings: a multipart/related request read into its envelope and
 * attachments, and a response written as a package when the handler's `mtom` option (or the port's
 * WSDL policy) asks for one.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { SoapVersion } from "../errors.js";
import type { PortDesc } from "../descriptors/operations.js";
import type { MediaType } from "../mime/headers.js";
import { MultipartError, type BodyPart } from "../mime/multipart.js";
import { readMtomStream, XOP_TYPE, type MtomBody, type MtomPolicy } from "../mime/xop.js";
import { Spool } from "../mime/spool.js";
import { multipartChunks } from "../mime/multipart.js";
import type { XopAttachments } from "../xml/decode-options.js";
import { bodyChunks, xmlBody } from "./body.js";
import type { Served } from "./call.js";
import { HttpProblem, soapFault } from "./respond.js";
import { drained } from "./stream.js";

/** Requests that came as MTOM packages: `"auto"` answers them in kind. */
const viaMtom = new WeakSet<IncomingMessage>();

/** An MTOM request as read: what a plain SOAP request is, and the attachments of its envelope. */
export interface PackagedRequest {
  readonly declared: SoapVersion;
  readonly action: string | undefined;
  readonly body: string | Uint8Array;
  readonly xop: XopAttachments;
  readonly parts: ReadonlyMap<string, BodyPart>;
}

/** The most parts a request may have. */
const MAX_PARTS = 1000;

/**
 * Reads a multipart/related request; undefined when a fault answered it (a package that cannot be
 * read, a root part that is no envelope). The body limit counts every part.
 */
export async function readPackage(
  s: Served,
  req: IncomingMessage,
  res: ServerResponse,
  ct: MediaType,
): Promise<PackagedRequest | undefined> {
  const startInfo = ct.params["start-info"] ?? "";
  let declared: SoapVersion = startInfo.startsWith("application/soap+xml") ? "1.2" : "1.1";
  try {
    const message = await readMtomStream(
      bodyChunks(req, res, s.maxBody, s.timeoutMs),
      ct,
      {
        maxPartBytes: s.maxAttachment,
        maxParts: MAX_PARTS,
        maxRootBytes: s.maxBody,
        // A check of the parts' signatures that cannot read spooled parts has them in memory.
        spoolBytes: keepsPartsInMemory(s.security) ? Infinity : s.spoolBytes,
      },
      spoolFor(res),
    );
    declared = message.soapType.type === "text/xml" ? "1.1" : "1.2";
    const root = Buffer.from(message.root.buffer, message.root.byteOffset, message.root.byteLength);
    const body = xmlBody(root, message.charset);
    // A SOAP with Attachments request (its root plain XML) is answered in plain XML.
    if (ct.params["type"] === XOP_TYPE) viaMtom.add(req);
    const action =
      declared === "1.1"
        ? soapAction(req.headers["soapaction"])
        : (ct.params["action"] ?? message.soapType.params["action"]);
    return { declared, action, body, xop: message.attachments, parts: message.parts };
  } catch (e) {
    if (e instanceof MultipartError) {
      const kind = ct.params["type"] === XOP_TYPE ? "MTOM" : "multipart/related";
      soapFault(
        res,
        declared,
        400,
        "Client",
        `The request is not a valid ${kind} message: ${e.message}.`,
      );
      return undefined;
    }
    // As a plain request's: a body cut short or not text in its charset is a fault.
    if (!(e instanceof HttpProblem) || e.status !== 400) throw e;
    soapFault(res, declared, 400, "Client", e.message, "", "", e.headers);
    return undefined;
  }
}

/** Whether the handler's security checks parts, but only in memory (see checksSpooledParts). */
const keepsPartsInMemory = (security: Served["security"]): boolean =>
  security?.securesAttachments === true && security.checksSpooledParts !== true;

/**
 * The temporary files of a request's spooled parts, removed once its response has ended (sent, or
 * its connection closed), whatever happened before.
 */
function spoolFor(res: ServerResponse): Spool {
  const spool = new Spool();
  res.once("close", () => void spool.release());
  return spool;
}

/** `"urn:x"` → `urn:x`; a missing header stays undefined. */
export function soapAction(v: string | string[] | undefined): string | undefined {
  if (v === undefined) return undefined;
  const s = (Array.isArray(v) ? v[0]! : v).trim();
  return s.startsWith('"') && s.endsWith('"') && s.length >= 2 ? s.slice(1, -1) : s;
}

/** Binaries under 1 KiB go as base64 text, as WCF writes them. */
const THRESHOLD = 1024;

/**
 * How the response to `req` is written: as an MTOM package when the handler's `mtom` is "always",
 * or "auto" and the request came as one; the port's WSDL policy makes "always" the default. A
 * handler whose security signs responses but not attachment parts writes plain envelopes.
 */
export function responsePolicy(
  s: Served,
  port: PortDesc,
  req: IncomingMessage,
): MtomPolicy | undefined {
  const security = s.security;
  if (security?.secureResponse && security.securesAttachments !== true) return undefined;
  const mode = s.mtom ?? (port.mtom === true ? "always" : "auto");
  if (mode === "always" || (mode === "auto" && viaMtom.has(req))) return { threshold: THRESHOLD };
  return undefined;
}

/**
 * Sends an MTOM package: its parts as they are, the attachments not copied, a Blob's or a stream's
 * read as the socket takes them (chunked when a stream's length is unknown). A part that fails to
 * read after the first byte closes the connection, `failed` told why: the status was sent already.
 */
export async function sendPackage(
  res: ServerResponse,
  status: number,
  pkg: MtomBody,
  failed: (error: unknown) => void,
): Promise<void> {
  if (res.headersSent) return;
  const length = pkg.body.length;
  res.writeHead(status, {
    "Cache-Control": "no-store",
    ...(length !== undefined && { "Content-Length": length }),
    "X-Content-Type-Options": "nosniff",
    "MIME-Version": "1.0",
    "Content-Type": pkg.contentType,
  });
  try {
    // Leaving the loop early (the client gone) cancels the part being read.
    for await (const chunk of multipartChunks(pkg.body.chunks)) {
      if (res.destroyed) return;
      if (!res.write(chunk)) await drained(res);
      if (res.destroyed) return;
    }
    res.end();
  } catch (e) {
    failed(e);
    res.destroy();
  }
}
