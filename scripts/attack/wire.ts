/** Raw HTTP/1.1 over loopback for the attack scripts: requests as bytes, answers as they came. */
import { connect } from "node:net";
import { splitMessage } from "../../test/support/captures.js";

export interface RawAnswer {
  /** 0 when nothing came back before the connection closed or the time ran out. */
  readonly status: number;
  readonly headers: string;
  readonly body: string;
  readonly timedOut: boolean;
}

/**
 * Sends `request` on a new connection and reads until the server closes it or `timeoutMs` passes.
 * With `halfClose` the client then closes its sending side, as one that gives up on a request it
 * cut short would: Node's server drops a connection so closed before answering, as nginx does.
 */
export function exchange(
  url: URL,
  request: Buffer,
  timeoutMs = 5_000,
  halfClose = false,
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, timeoutMs);
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString("latin1");
      const at = raw.indexOf("\r\n\r\n");
      resolve({
        status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0),
        headers: at === -1 ? raw : raw.slice(0, at),
        body: at === -1 ? "" : Buffer.from(raw.slice(at + 4), "latin1").toString("utf8"),
        timedOut,
      });
    });
    if (halfClose) socket.end(request);
    else socket.write(request);
  });
}

/**
 * Whether a request is whole as sent: its head ends, and its body is as long as Content-Length
 * says, or ends its chunked encoding. A request cut short waits for more until the server's
 * timeout.
 */
export function isWhole(request: Buffer): boolean {
  const at = request.indexOf("\r\n\r\n");
  if (at === -1) return false;
  const head = request.subarray(0, at).toString("latin1");
  const body = request.subarray(at + 4);
  if (/^transfer-encoding:\s*chunked/im.test(head)) return chunkedWhole(body);
  const length = /^content-length:\s*(\d+)\s*$/im.exec(head);
  return !length || Number(length[1]) <= body.length;
}

/**
 * Whether a chunked body reaches its last chunk; a malformed size line counts (it is refused at
 * once).
 */
function chunkedWhole(body: Buffer): boolean {
  for (let i = 0; ;) {
    const eol = body.indexOf("\r\n", i);
    if (eol === -1) return false;
    const size = parseInt(body.subarray(i, eol).toString("latin1"), 16);
    if (Number.isNaN(size) || size === 0) return true;
    i = eol + 2 + size + 2;
    if (i > body.length) return false;
  }
}

/** A request split into its head lines and body, to be changed and joined again. */
export interface RequestParts {
  readonly line: string;
  readonly headers: [string, string][];
  readonly body: Buffer;
}

export function split(raw: Buffer): RequestParts {
  const { startLine, headers, body } = splitMessage(raw);
  return { line: startLine, headers, body };
}

/**
 * Joins a request, closing the connection after it; `Content-Length` is the body's own unless
 * `keepLength` keeps a mutated one.
 */
export function join(parts: RequestParts, keepLength = false): Buffer {
  const headers = parts.headers.filter(([k]) => {
    const key = k.toLowerCase();
    return key !== "connection" && (keepLength || key !== "content-length");
  });
  const chunked = headers.some(([k]) => k.toLowerCase() === "transfer-encoding");
  if (!keepLength && !chunked && (parts.body.length > 0 || parts.line.startsWith("POST")))
    headers.push(["Content-Length", String(parts.body.length)]);
  headers.push(["Connection", "close"]);
  const head = [parts.line, ...headers.map(([k, v]) => `${k}: ${v}`)].join("\r\n");
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, "latin1"), parts.body]);
}
