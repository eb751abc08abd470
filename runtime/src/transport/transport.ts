/**
 * The Node transport: requests over node:http/node:https agents rather than fetch, because NTLM
 * and Negotiate authenticate a connection, and fetch gives no say over which connection a request
 * takes. It gives what fetch gives (a Response), so that the client reads both alike.
 */
import type { Agent, IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { AuthenticationError } from "./errors.js";
import { createAgent, type AgentInit } from "./agent.js";
import { challengeToken, offeredSchemes, type HttpAuthentication } from "./auth.js";
import { bodyBytes, drain, headerRecord, headerValues, sendLeg, toResponse } from "./exchange.js";
import { checkTransportOptions, type TransportOptions } from "./options.js";
import { parseProxy, proxyFor, type Proxy } from "./proxy.js";
import { proxyRefusal } from "./tunnel.js";

export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

/** A connection of its own, for connection-bound authentication: an agent of one socket. */
interface Connection {
  readonly agent: Agent;
  busy: boolean;
  /** The socket the handshake authenticated, while it is open. */
  authenticated: Socket | undefined;
}

/** The most messages one handshake sends before it is given up (NTLM needs 2, Kerberos 1). */
const MAX_LEGS = 4;

/** Requests as `options` say, through agents kept between them. */
export function createTransport(
  options: TransportOptions,
  env: Readonly<Record<string, string | undefined>> = process.env,
): FetchLike {
  checkTransportOptions(options);
  const auth = options.auth;
  // Parsed once, so that a malformed proxy option fails here rather than at each request.
  const chosen = typeof options.proxy === "string" ? parseProxy(options.proxy) : options.proxy;
  const shared = new Map<string, Agent>();
  const own = new Map<string, Connection[]>();
  const sharedAgent = (url: URL, key: string, proxy: Proxy | undefined): Agent => {
    if (options.agent) return userAgent(options.agent, url, proxy);
    let agent = shared.get(key);
    if (!agent) shared.set(key, (agent = createAgent(agentInit(options, url, proxy))));
    return agent;
  };
  const acquire = (url: URL, key: string, proxy: Proxy | undefined): Connection => {
    const list = own.get(key) ?? [];
    own.set(key, list);
    const idle = list.filter((c) => !c.busy);
    const conn = idle.find((c) => c.authenticated && !c.authenticated.destroyed) ?? idle[0];
    if (conn) {
      conn.busy = true;
      return conn;
    }
    // Kept alive whatever keepAlive says: the handshake authenticates this connection.
    const init = { ...agentInit(options, url, proxy), keepAlive: true, maxSockets: 1 };
    const made = { agent: createAgent(init), busy: true };
    list.push({ ...made, authenticated: undefined });
    return list[list.length - 1]!;
  };
  return async (input, init = {}) => {
    const url = new URL(input);
    const proxy = proxyFor(url, chosen, env);
    const key = `${url.protocol}//${url.host}|${proxy ? `${proxy.host}:${proxy.port}` : ""}`;
    const headers = headerRecord(init.headers);
    const given = "authorization" in headers;
    const bound = auth !== undefined && !given && auth.connectionBound;
    const leg = {
      url,
      method: init.method ?? "GET",
      headers,
      // Only a handshake may send the body again: otherwise a stream is sent as it is read.
      body: await bodyBytes(init.body, bound),
      proxy,
      signal: init.signal ?? undefined,
    };
    if (!bound) {
      const agent = sharedAgent(url, key, proxy);
      const headers =
        auth && !given
          ? { ...leg.headers, authorization: await auth.handshake(url).step(undefined) }
          : leg.headers;
      const { res } = await sendLeg({ ...leg, headers, agent });
      return answered(res, proxy, auth && !given ? auth : undefined, leg.method, url);
    }
    const conn = acquire(url, key, proxy);
    try {
      const res = await boundExchange(conn, auth, { ...leg, agent: conn.agent });
      res.once("close", () => (conn.busy = false));
      return answered(res, proxy, undefined, leg.method, url);
    } catch (e) {
      // A failed handshake leaves the server's side of the connection in no known state.
      conn.agent.destroy();
      conn.authenticated = undefined;
      conn.busy = false;
      throw e;
    }
  };
}

/** How the transport's agent for `url` connects, as `options` say. */
function agentInit(options: TransportOptions, url: URL, proxy: Proxy | undefined): AgentInit {
  return {
    https: url.protocol === "https:",
    proxy,
    tls: options.tls,
    keepAlive: options.keepAlive !== false,
    connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
  };
}

/** The user's agent, which cannot open the CONNECT tunnel an https target behind a proxy needs. */
function userAgent(agent: Agent, url: URL, proxy: Proxy | undefined): Agent {
  if (proxy && url.protocol === "https:")
    throw new Error(
      `the agent option cannot tunnel to ${url.host} through the proxy ${proxy.shown} that the environment names; expected proxy: false beside an agent, or no agent`,
    );
  return agent;
}

type LegInit = Parameters<typeof sendLeg>[0];

/**
 * A request on a connection of its own: sent as it is on an authenticated connection, else after
 * (or when the server asks again, with) a handshake on that connection.
 */
async function boundExchange(
  conn: Connection,
  auth: HttpAuthentication,
  leg: LegInit,
): Promise<IncomingMessage> {
  if (conn.authenticated && !conn.authenticated.destroyed) {
    const { res, socket } = await sendLeg(leg);
    if (res.statusCode !== 401) return res;
    if (challengeToken(headerValues(res, "www-authenticate"), auth.scheme) === undefined)
      return res;
    await drain(res);
    if (socket !== conn.authenticated) conn.authenticated = undefined;
  }
  conn.authenticated = undefined;
  return handshake(conn, auth, leg);
}

/**
 * The handshake of `auth` on `conn`, each message carrying the request: resolves to the response
 * that ends it; a 401 that continues no handshake is an AuthenticationError at once.
 */
async function handshake(
  conn: Connection,
  auth: HttpAuthentication,
  leg: LegInit,
): Promise<IncomingMessage> {
  const hs = auth.handshake(leg.url);
  let token: string | undefined;
  let first: Socket | undefined;
  for (let n = 0; n < MAX_LEGS; n++) {
    const authorization = await hs.step(token);
    const { res, socket } = await sendLeg({ ...leg, headers: { ...leg.headers, authorization } });
    first ??= socket;
    if (res.statusCode !== 401) {
      if (res.statusCode !== 407) conn.authenticated = socket;
      return res;
    }
    const offered = headerValues(res, "www-authenticate");
    token = challengeToken(offered, auth.scheme);
    await drain(res);
    const instead = n === 0 && !token ? auth.fallback?.(offeredSchemes(offered)) : undefined;
    if (instead && !instead.fallback) return handshake(conn, instead, leg);
    if (!token) throw refused(leg, auth, offered, n === 0 ? "refused" : "rejected the credentials");
    if (socket !== first || socket.destroyed)
      throw refused(leg, auth, offered, "closed the connection during the handshake");
  }
  throw refused(leg, auth, [], `did not finish the handshake in ${MAX_LEGS} messages`);
}

function refused(
  leg: LegInit,
  auth: HttpAuthentication,
  offered: readonly string[],
  what: string,
): AuthenticationError {
  const schemes = offeredSchemes(offered);
  return new AuthenticationError(
    `${leg.method} ${leg.url.href}: 401 Unauthorized: the server ${what} (${auth.scheme}); it offers ${schemes.join(", ") || "no scheme"}`,
    401,
    schemes,
  );
}

/**
 * The Response of `res`; a 407 of the proxy is a ProxyError, and a 401 to credentials sent with
 * each request (Basic) is an AuthenticationError, as a wrong password should be.
 */
async function answered(
  res: IncomingMessage,
  proxy: Proxy | undefined,
  auth: HttpAuthentication | undefined,
  method: string,
  url: URL,
): Promise<Response> {
  if (res.statusCode === 407 && proxy) {
    await drain(res);
    throw new TypeError("fetch failed", {
      cause: proxyRefusal(proxy, res, `${method} ${url.href}`),
    });
  }
  if (res.statusCode === 401 && auth) {
    const offered = headerValues(res, "www-authenticate");
    await drain(res);
    const schemes = offeredSchemes(offered);
    throw new AuthenticationError(
      `${method} ${url.href}: 401 Unauthorized: the server rejected the credentials (${auth.scheme}); it offers ${schemes.join(", ") || "no scheme"}`,
      401,
      schemes,
    );
  }
  return toResponse(res);
}
