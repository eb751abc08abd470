/**
 * A connection limit that never goes silent. Node's own `server.maxConnections` drops extra sockets
 * without a word; here a new connection over the limit first makes room by closing the keep-alive
 * connection idle the longest (one that has been answered and has no request in progress; a
 * connection just accepted is not idle), and otherwise is answered `503` with `Retry-After` and
 * closed. One address may hold only so many connections, and send only so many request bodies at
 * once, so that slow senders from one address cannot take the service from the others. Applied by
 * `harden` (listen.ts).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

export const RETRY_AFTER_SECONDS = "1";
const TOO_MANY = "Too many connections; try again shortly.\n";
const TOO_MANY_BODIES = "Too many requests in progress from your address; try again shortly.\n";

/** How long a refused connection may take to send the request it is refused, in milliseconds. */
const REFUSED_GRACE_MS = 2_000;

const unavailableHead = (body: string) => ({
  "Retry-After": RETRY_AFTER_SECONDS,
  Connection: "close",
  "Content-Type": "text/plain; charset=utf-8",
  "Content-Length": Buffer.byteLength(body),
  "X-Content-Type-Options": "nosniff",
});

/** Answers 503 with Retry-After and closes the connection. */
export function serviceUnavailable(res: ServerResponse, body = TOO_MANY): void {
  res.writeHead(503, unavailableHead(body));
  res.end(body);
}

/** The same answer written straight to a socket that sent no request in time. */
function refuseRaw(socket: Socket): void {
  const head = Object.entries(unavailableHead(TOO_MANY)).map(([k, v]) => `${k}: ${v}\r\n`);
  socket.end(`HTTP/1.1 503 Service Unavailable\r\n${head.join("")}\r\n${TOO_MANY}`);
}

export interface ConnectionLimits {
  /** Open connections at most. */
  readonly max: number;
  /** Open connections from one address at most. */
  readonly maxPerAddress: number;
  /** Requests from one address whose bodies are still arriving, at most. */
  readonly maxBodiesPerAddress: number;
  /** Addresses not capped per address: trusted proxies, whose connections carry many clients. */
  readonly exempt?: ReadonlySet<string>;
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

/** Counts per key, forgetting a key at zero. */
class Tally {
  private readonly counts = new Map<string, number>();
  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }
  add(key: string, n: number): void {
    const count = this.get(key) + n;
    if (count > 0) this.counts.set(key, count);
    else this.counts.delete(key);
  }
}

interface SocketState {
  readonly address: string;
  /** Requests in progress. */
  busy: number;
  /** Whether a request has arrived: only such a connection, with none in progress, is idle. */
  used: boolean;
}

/** IPv4 peers show as `::ffff:a.b.c.d` on a dual-stack socket; one spelling per address. */
export const plainAddress = (a: string | undefined): string =>
  (a ?? "").trim().replace(/^::ffff:(?=\d+\.)/i, "");

const hasBody = (req: IncomingMessage): boolean =>
  (req.headers["content-length"] ?? "0") !== "0" || req.headers["transfer-encoding"] !== undefined;

/** Applies `limits` to `server`. */
export function limitConnections(server: Server, limits: ConnectionLimits): ConnectionLimit {
  // Insertion order is idle order: a socket moves to the end whenever a response finishes.
  const sockets = new Map<Socket, SocketState>();
  const perAddress = new Tally();
  const bodies = new Tally();
  // A refused socket, and whether it has been answered.
  const refused = new WeakMap<Socket, { answered: boolean }>();
  const capped = (address: string) => !limits.exempt?.has(address);
  const evictIdle = (): boolean => {
    for (const [socket, state] of sockets) {
      if (state.busy > 0 || !state.used) continue;
      sockets.delete(socket);
      socket.destroy();
      return true;
    }
    return false;
  };
  const refusedFrom = new Tally();
  const refuse = (socket: Socket, address: string) => {
    // Refused sockets wait up to 2 s to be answered at their request; an address may keep only so
    // many waiting, or it could hold sockets without end. Past that, the answer goes at once.
    if (capped(address) && refusedFrom.get(address) >= limits.maxPerAddress)
      return refuseRaw(socket);
    refusedFrom.add(address, 1);
    socket.once("close", () => refusedFrom.add(address, -1));
    const state = { answered: false };
    refused.set(socket, state);
    // A timer of our own: node:http destroys a socket whose own timeout fires, without a word.
    const timer = setTimeout(
      () => (state.answered ? socket.destroy() : refuseRaw(socket)),
      REFUSED_GRACE_MS,
    );
    socket.once("close", () => clearTimeout(timer));
  };
  server.on("connection", (socket: Socket) => {
    const address = plainAddress(socket.remoteAddress);
    const overAddress = capped(address) && perAddress.get(address) >= limits.maxPerAddress;
    if (overAddress || (sockets.size >= limits.max && !evictIdle())) return refuse(socket, address);
    sockets.set(socket, { address, busy: 0, used: false });
    perAddress.add(address, 1);
    socket.once("close", () => {
      sockets.delete(socket);
      perAddress.add(address, -1);
    });
  });
  /** Counts a request whose body is still arriving; false when its address has too many. */
  const bodyAdmitted = (req: IncomingMessage, res: ServerResponse, address: string): boolean => {
    if (!capped(address) || req.complete || !hasBody(req)) return true;
    if (bodies.get(address) >= limits.maxBodiesPerAddress) return false;
    bodies.add(address, 1);
    let counted = true;
    const done = () => counted && ((counted = false), bodies.add(address, -1));
    req.once("end", done);
    res.once("close", done);
    return true;
  };
  const wrap: ConnectionLimit["wrap"] = (listener) => (req, res) => {
    const socket = req.socket;
    const refusal = refused.get(socket);
    if (refusal) return void ((refusal.answered = true), serviceUnavailable(res));
    const state = sockets.get(socket);
    if (state) {
      if (!bodyAdmitted(req, res, state.address)) return serviceUnavailable(res, TOO_MANY_BODIES);
      state.used = true;
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
