/**
 * The options of the Node transport (transport.ts), which `ClientOptions` takes too: how calls
 * reach a service through enterprise networks (authentication, proxies, TLS) and how they are
 * bounded (connect time-out, retries).
 */
import type { Agent } from "node:http";
import type { HttpAuthentication } from "./auth.js";

/** Client certificates and private CAs. PEM strings or bytes; `pfx` is PKCS#12. */
export interface TlsOptions {
  readonly ca?: string | Uint8Array | readonly (string | Uint8Array)[];
  readonly cert?: string | Uint8Array;
  readonly key?: string | Uint8Array;
  readonly pfx?: Uint8Array;
  readonly passphrase?: string;
  /** Accept a certificate nobody trusts. Only when asked for by name; default true. */
  readonly rejectUnauthorized?: boolean;
  /** The name checked in the server's certificate, when it is not the URL's host. */
  readonly servername?: string;
}

/** Opt-in retries of requests that did not reach the service, or may be sent twice. */
export interface RetryOptions {
  /** Attempts after the first. Default: 2. */
  readonly retries?: number;
  /** The first back-off in milliseconds, doubled at each attempt (with jitter). Default: 200. */
  readonly backoffMs?: number;
  /**
   * The longest wait, Retry-After included: a longer Retry-After is not waited for. Default:
   * 30 000.
   */
  readonly maxDelayMs?: number;
  /**
   * Whether every call may be sent twice: only then is one retried after a 503 with Retry-After
   * (the request reached the service). A call's `idempotent` option says it for that call. A
   * refused connection is retried for any. Default: false.
   */
  readonly idempotent?: boolean;
}

export interface TransportOptions {
  /**
   * HTTP authentication: `ntlm({ username, password, domain })`, `basic(…)`, or `negotiate()`.
   */
  readonly auth?: HttpAuthentication;
  /**
   * The proxy, `http://user:pass@host:port` (Basic proxy authentication), or false for none.
   * Default: the environment as curl reads it (`https_proxy`/`HTTPS_PROXY`, `http_proxy`,
   * `all_proxy`/`ALL_PROXY`, `no_proxy`/`NO_PROXY`).
   */
  readonly proxy?: string | false;
  /** Client certificate, private CA. */
  readonly tls?: TlsOptions;
  /**
   * The agent requests go through (keep-alive, socket limits), for a service without
   * connection-bound authentication; not with `tls` or `proxy`, which it would not apply. Default:
   * a keep-alive agent of the transport.
   */
  readonly agent?: Agent;
  /**
   * Keep connections open between calls. Default: true. The connections NTLM or Negotiate
   * authenticate are kept open regardless, since their handshake needs it.
   */
  readonly keepAlive?: boolean;
  /** The longest wait for a connection (TCP, TLS, proxy tunnel), in ms. Default: 30 000. */
  readonly connectTimeoutMs?: number;
  /** Retries; none unless given. */
  readonly retry?: RetryOptions;
}

/**
 * Refuses options that cannot go together: an `agent` makes the connections itself, so it neither
 * keeps a connection-bound handshake's connection apart nor applies `tls` or `proxy`.
 */
export function checkTransportOptions(options: TransportOptions): void {
  const { auth, agent } = options;
  if (!agent) return;
  if (auth?.connectionBound)
    throw new Error(
      `${auth.scheme} authenticates connections, which a shared agent would mix up; expected no agent option with it`,
    );
  const ignored = [
    ...(options.tls !== undefined ? ["tls"] : []),
    ...(typeof options.proxy === "string" ? ["proxy"] : []),
  ].join(" and ");
  if (ignored)
    throw new Error(
      `the agent option makes its own connections, which ${ignored} would not reach; expected either the agent option or ${ignored}`,
    );
}
