/**
 * A `node:http` server with the network defences a service exposed to anyone needs: connection caps
 * per address and overall that answer 503 rather than drop (connection-limit.ts), header, request
 * and keep-alive timeouts enforced on time, and `Expect: 100-continue` refused before the body when
 * the declared length is over the limit. `createServer` makes one around handlers; `harden` applies
 * the same to a server of the application's own (docs/serving.md).
 */
import * as http from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { awaitingContinue, declaredLength, tooLarge } from "./body.js";
import { limitConnections, plainAddress, type ConnectionLimit } from "./connection-limit.js";
import { HttpProblem, sendError } from "./respond.js";

/** The limits `harden` and `createServer` apply; every one has a default (SERVER_DEFAULTS). */
export interface ServerHardening {
  /** Open connections at most; beyond, idle ones are closed first, then new ones get 503. */
  readonly maxConnections?: number;
  /** Open connections from one address at most; beyond, 503 with Retry-After. */
  readonly maxConnectionsPerAddress?: number;
  /** Requests from one address whose bodies are still arriving, at most; beyond, 503. */
  readonly maxBodiesPerAddress?: number;
  /** Time to receive a request's headers, in milliseconds; then 408 and the connection closes. */
  readonly headersTimeoutMs?: number;
  /** Time to receive a whole request, in milliseconds; then 408. */
  readonly requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open, in milliseconds. */
  readonly keepAliveTimeoutMs?: number;
  /**
   * The largest body a request sent with `Expect: 100-continue` may declare; a larger one gets 413
   * without `100 Continue`. Default: the largest `maxBodyBytes` of the handlers given to
   * `createServer`, else 1 MiB.
   */
  readonly maxBodyBytes?: number;
  /**
   * Addresses of proxies in front, not capped per address (their connections carry many clients).
   */
  readonly trustedProxies?: readonly string[];
}

/** The defaults: timeouts within Kestrel's (30 s for headers); caps a single machine can hold. */
export const SERVER_DEFAULTS = {
  maxConnections: 1_000,
  maxConnectionsPerAddress: 100,
  maxBodiesPerAddress: 32,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxBodyBytes: 1024 * 1024,
} as const;

type Limits = { -readonly [K in Exclude<keyof ServerHardening, "trustedProxies">]-?: number };

function limitsOf(options: ServerHardening): Limits {
  const { trustedProxies: _, ...given } = options;
  const limits: Limits = { ...SERVER_DEFAULTS };
  for (const [name, value] of Object.entries(given) as [keyof Limits, number | undefined][]) {
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`${name} must be an integer of at least 1, got ${value}`);
    limits[name] = value;
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs)
    throw new RangeError(
      `headersTimeoutMs (${limits.headersTimeoutMs}) must not exceed requestTimeoutMs (${limits.requestTimeoutMs})`,
    );
  return limits;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;
/** A handler `createServer` serves: a runtime handler, Express-style middleware, or a listener. */
export type ServedHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void;

const logError = (message: string, error: unknown) => console.error(message, error);

/**
 * Applies the limits to `server`, an `http.Server` of the application's own, and returns it. Call
 * it after its request listeners are attached (they are wrapped: requests on refused connections
 * get 503) and before `listen` (Node reads how often to check the timeouts when it starts).
 */
export function harden(server: Server, options: ServerHardening = {}): Server {
  if (server.listening)
    throw new Error(
      "harden(server) must be called before server.listen: Node reads its timers then",
    );
  const limits = limitsOf(options);
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // How often Node checks the two timeouts above; its default (30 s) would let them run late.
  // (A constructor option that @types/node does not declare as a property; Node reads the
  // property.)
  (server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = Math.min(
    1_000,
    limits.headersTimeoutMs,
  );
  const limit = limitConnections(server, {
    max: limits.maxConnections,
    maxPerAddress: limits.maxConnectionsPerAddress,
    maxBodiesPerAddress: limits.maxBodiesPerAddress,
    exempt: new Set((options.trustedProxies ?? []).map(plainAddress)),
  });
  wrapListeners(server, limit, limits.maxBodyBytes);
  return server;
}

/** Puts the server's request and checkContinue listeners behind the limit. */
function wrapListeners(server: Server, limit: ConnectionLimit, maxBody: number): void {
  const requests = server.listeners("request") as Listener[];
  const continues = server.listeners("checkContinue") as Listener[];
  server.removeAllListeners("request");
  server.removeAllListeners("checkContinue");
  const request: Listener = (req, res) => {
    for (const l of requests) l.call(server, req, res);
  };
  server.on("request", limit.wrap(request));
  // Without a listener of its own, Node would answer `100 Continue` to any request: the body is
  // refused first when it is declared too large.
  const checkContinue: Listener = (req, res) => {
    if (declaredLength(req) > maxBody) return sendError(req, res, tooLarge(maxBody), logError);
    if (continues.length > 0) for (const l of continues) l.call(server, req, res);
    else {
      res.writeContinue();
      request(req, res);
    }
  };
  server.on("checkContinue", limit.wrap(checkContinue));
}

/**
 * A hardened `http.Server` (see `harden`) serving `handlers` in turn: each passes on what it does
 * not serve (`next`), and what none serves is a 404. A runtime handler sends `100 Continue` only
 * for a body it reads; any other handler gets it sent before it is called.
 */
export function createServer(
  handlers: ServedHandler | readonly ServedHandler[],
  options: ServerHardening = {},
): Server {
  const list: readonly ServedHandler[] = typeof handlers === "function" ? [handlers] : handlers;
  const serve = (req: IncomingMessage, res: ServerResponse, i: number): void => {
    const handler = list[i];
    if (!handler) return sendError(req, res, new HttpProblem(404, "Not found."), logError);
    if (!("checkContinue" in handler) && awaitingContinue.delete(req)) res.writeContinue();
    handler(req, res, (err?: unknown) =>
      err === undefined ? serve(req, res, i + 1) : sendError(req, res, err, logError),
    );
  };
  // Its timeouts and caps are set by harden, below.
  const server = http.createServer((req, res) => serve(req, res, 0));
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    awaitingContinue.add(req);
    serve(req, res, 0);
  });
  const bodies = list.map((h) => (h as { maxBodyBytes?: number }).maxBodyBytes ?? 0);
  const largest = Math.max(0, ...bodies);
  return harden(server, {
    ...options,
    maxBodyBytes: options.maxBodyBytes ?? (largest > 0 ? largest : SERVER_DEFAULTS.maxBodyBytes),
  });
}
