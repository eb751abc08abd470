/**
 * One HTTP request over node:http/node:https and its response, as `fetch` would give it: the
 * transport's legs (a handshake's, a call's) are made of these.
 */
import { request as httpRequest, type Agent, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { pipeline, Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { Socket } from "node:net";
import type { Proxy } from "./proxy.js";

export interface Leg {
  readonly url: URL;
  readonly method: string;
  /** Names in lower case, as headerRecord gives them. */
  readonly headers: Readonly<Record<string, string>>;
  /** Bytes, or a stream sent as it is read (a leg that is never sent again). */
  readonly body: Buffer | ReadableStream<Uint8Array> | undefined;
  readonly agent: Agent;
  /**
   * The proxy an http target's request is sent to (an https target's is tunnelled by its agent).
   */
  readonly proxy: Proxy | undefined;
  readonly signal: AbortSignal | undefined;
}

/** Sends `leg` and resolves to its response (its body unread) and the socket it came on. */
export function sendLeg(leg: Leg): Promise<{ res: IncomingMessage; socket: Socket }> {
  const { url, proxy } = leg;
  const https = url.protocol === "https:";
  const viaProxy = proxy !== undefined && !https;
  // Names are in lower case (headerRecord): a caller's Host is kept, its Content-Length replaced.
  const headers: Record<string, string> = { ...leg.headers };
  headers["host"] ??= url.host;
  // A stream keeps the caller's Content-Length, or goes chunked without one.
  if (leg.body instanceof Buffer) headers["content-length"] = String(leg.body.length);
  if (viaProxy && proxy.authorization) headers["proxy-authorization"] = proxy.authorization;
  const path = viaProxy
    ? `${url.protocol}//${url.host}${url.pathname}${url.search}`
    : url.pathname + url.search;
  const options = {
    host: viaProxy ? proxy.host : url.hostname.replace(/^\[|\]$/g, ""),
    port: viaProxy ? proxy.port : Number(url.port || (https ? 443 : 80)),
    method: leg.method,
    path,
    headers,
    agent: leg.agent,
  };
  return new Promise((resolve, reject) => {
    const signal = leg.signal;
    const body = leg.body;
    if (signal?.aborted) {
      // Its source is told too (a spooled file's reader, say), as fetch tells it.
      if (body instanceof ReadableStream) void body.cancel(signal.reason).catch(() => {});
      return reject(signal.reason);
    }
    const req = (https ? httpsRequest : httpRequest)(options);
    const abort = () => req.destroy(signal!.reason as Error);
    signal?.addEventListener("abort", abort, { once: true });
    req.once("response", (res) => {
      const stop = () => res.destroy(signal!.reason as Error);
      signal?.removeEventListener("abort", abort);
      signal?.addEventListener("abort", stop, { once: true });
      res.once("close", () => signal?.removeEventListener("abort", stop));
      resolve({ res, socket: req.socket! });
    });
    req.once("error", (e) => {
      signal?.removeEventListener("abort", abort);
      reject(signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: e }));
    });
    if (!(body instanceof ReadableStream)) return void req.end(body);
    // With the socket's backpressure; a part that fails ends the request, and a request that ends
    // early (an abort, a reset) cancels the part. Either is reported by the request's 'error'.
    pipeline(Readable.fromWeb(body as NodeReadableStream<Uint8Array>), req, () => {});
  });
}

/** Reads and drops `res`'s body, so that its connection is free for the next leg. */
export function drain(res: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    // Complete is not consumed: the agent frees the socket only once 'end' has been emitted.
    if (res.readableEnded || res.destroyed) return resolve();
    res.once("end", resolve);
    res.once("close", resolve);
    res.resume();
  });
}

/** `res` as a fetch Response: status, headers as received, and its body as a stream. */
export function toResponse(res: IncomingMessage): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
    headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const status = res.statusCode ?? 0;
  const empty = status === 204 || status === 205 || status === 304;
  if (empty) res.resume();
  const body = empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: res.statusMessage ?? "", headers });
}

/** The values of header `name` of `res` (WWW-Authenticate may come more than once). */
export function headerValues(res: IncomingMessage, name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
    if (res.rawHeaders[i]!.toLowerCase() === name) out.push(res.rawHeaders[i + 1]!);
  return out;
}

/**
 * A request body as bytes, read whole when `again` (a handshake may send it more than once); else
 * a stream stays one, sent as it is read.
 */
export async function bodyBytes(
  body: RequestInit["body"],
  again: boolean,
): Promise<Buffer | ReadableStream<Uint8Array> | undefined> {
  if (body === undefined || body === null) return undefined;
  if (!again && body instanceof ReadableStream) return body as ReadableStream<Uint8Array>;
  if (typeof body === "string") return Buffer.from(body, "utf8");
  if (body instanceof URLSearchParams) return Buffer.from(body.toString(), "utf8");
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  return Buffer.from(await new Response(body).arrayBuffer());
}

/** The headers of a RequestInit as a record, names in lower case. */
export function headerRecord(headers: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((v, k) => (out[k] = v));
  return out;
}
