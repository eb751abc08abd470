/**
 * A connection limit that never goes silent. Node's own `server.maxConnections` drops extra sockets
 * without a word; here a new connection over the limit first makes room by closing the connection
 * idle the longest (no request in progress: keep-alive, or headers still trickling in), and only
 * when every connection is busy is it answered `503` with `Retry-After` and closed.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

export const RETRY_AFTER_SECONDS = "1";
const TOO_MANY = "Too many connections; try again shortly.\n";

/** How long a refused connection may take to send the request it is refused, in milliseconds. */
const REFUSED_GRACE_MS = 2_000;

/** Answers 503 with Retry-After and closes the connection. */
export function serviceUnavailable(res: ServerResponse, body = TOO_MANY): void {
  res.writeHead(503, {
    "Retry-After": RETRY_AFTER_SECONDS,
    Connection: "close",
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}

export interface ConnectionLimit {
  /** Connections counted against the limit now. */
  readonly open: number;
  /**
   * Wraps a request listener: requests on refused connections get 503; others are counted as in
   * progress until their response is done.
   */
  wrap(
    listener: (req: IncomingMessage, res: ServerResponse) => void,
  ): (req: IncomingMessage, res: ServerResponse) => void;
}

/** Applies a limit of `max` connections to `server`. */
export function limitConnections(server: Server, max: number): ConnectionLimit {
  // Insertion order is idle order: a socket moves to the end whenever a response finishes.
  const sockets = new Map<Socket, { busy: number }>();
  const refused = new WeakSet<Socket>();
  const evictIdle = (): boolean => {
    for (const [socket, state] of sockets) {
      if (state.busy > 0) continue;
      sockets.delete(socket);
      socket.destroy();
      return true;
    }
    return false;
  };
  server.on("connection", (socket: Socket) => {
    if (sockets.size >= max && !evictIdle()) {
      refused.add(socket);
      socket.setTimeout(REFUSED_GRACE_MS, () => socket.destroy());
      return;
    }
    sockets.set(socket, { busy: 0 });
    socket.once("close", () => sockets.delete(socket));
  });
  const wrap: ConnectionLimit["wrap"] = (listener) => (req, res) => {
    const socket = req.socket;
    if (refused.has(socket)) return serviceUnavailable(res);
    const state = sockets.get(socket);
    if (state) {
      state.busy++;
      res.once("close", () => {
        state.busy--;
        // Still open (keep-alive): now the most recently idle.
        if (sockets.delete(socket)) sockets.set(socket, state);
      });
    }
    listener(req, res);
  };
  return {
    get open() {
      return sockets.size;
    },
    wrap,
  };
}
