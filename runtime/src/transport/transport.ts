/**
 * The Node transport: requests over node:http/node:https agents rather than fetch, because NTLM
 * and Negotiate authenticate a connection, and fetch gives no say over which connection a request
 * takes. It gives what fetch gives (a Response), so that the client reads both alike.
 */
import type { Agent, IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { AuthenticationError } from "./errors.js";
import { createAgent } from "./agent.js";
import { challengeToken, offeredSchemes, type HttpAuthentication } from "./auth.js";
import { bodyBytes, drain, headerRecord, headerValues, sendLeg, toResponse } from "./exchange.js";
import type { TransportOptions } from "./options.js";
import { proxyFor, proxyRefusal, type Proxy } from "./proxy.js";

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
  const auth = options.auth;
  if (auth?.connectionBound && options.agent)
    throw new Error(
      `${auth.scheme} authenticates connections, which a shared agent would mix up; expected no agent option with it`,
    );
  const shared = new Map<string, Agent>();
  const own = new Map<string, Connection[]>();
  const agentInit = (https: boolean, proxy: Proxy | undefined) => ({
    https,
    proxy,
    tls: options.tls,
    keepAlive: options.keepAlive !== false,
    connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
  });
  const sharedAgent = (key: string, https: boolean, proxy: Proxy | undefined): Agent => {
    if (options.agent) return options.agent;
    let agent = shared.get(key);
    if (!agent) shared.set(key, (agent = createAgent(agentInit(https, proxy))));
    return agent;
  };
  const acquire = (key: string, https: boolean, proxy: Proxy | undefined): Connection => {
    const list = own.get(key) ?? [];
    own.set(key, list);
    const idle = list.filter((c) => !c.busy);
    const conn = idle.find((c) => c.authenticated && !c.authenticated.destroyed) ?? idle[0];
    if (conn) {
      conn.busy = true;
      return conn;
    }
    const made = { agent: createAgent({ ...agentInit(https, proxy), maxSockets: 1 }), busy: true };
    list.push({ ...made, authenticated: undefined });
    return list[list.length - 1]!;
  };
  return async (input, init = {}) => {
    const url = new URL(input);
    const https = url.protocol === "https:";
    const proxy = proxyFor(url, options.proxy, env);
    const key = `${url.protocol}//${url.host}|${proxy ? `${proxy.host}:${proxy.port}` : ""}`;
    const leg = {
      url,
      method: init.method ?? "GET",
      headers: headerRecord(init.headers),
      body: await bodyBytes(init.body),
      proxy,
      signal: init.signal ?? undefined,
    };
    const given = "authorization" in leg.headers;
    if (!auth || given || !auth.connectionBound) {
      const agent = sharedAgent(key, https, proxy);
      const headers =
        auth && !given
          ? { ...leg.headers, authorization: await auth.handshake(url).step(undefined) }
          : leg.headers;
      const { res } = await sendLeg({ ...leg, headers, agent });
      return answered(res, proxy, auth && !given ? auth : undefined, leg.method, url);
    }
    const conn = acquire(key, https, proxy);
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
