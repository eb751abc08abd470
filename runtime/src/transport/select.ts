/**
 * Which fetch a client sends with: the user's `fetch` hook as given; the Node transport when an
 * option or the environment needs it (authentication, a proxy, TLS, an agent); else the global
 * fetch. The transport is imported when first used, so that a browser bundle never needs node:http.
 */
import type { FetchLike } from "./transport.js";
import { checkTransportOptions, type TransportOptions } from "./options.js";
import { parseProxy, proxyFor } from "./proxy.js";
import { withRetries } from "./retry.js";

/** How the client sends: a fetch told the call's signal and options, for retries. */
export type Sender = (
  url: string,
  init: RequestInit,
  signal: AbortSignal,
  call: { readonly idempotent?: boolean | undefined },
) => Promise<Response>;

/**
 * The client's sender: its fetch (see clientFetch), retried as `options.retry` allows, a 503 only
 * for a call marked idempotent (a streamed body, which cannot be sent again, never is).
 */
export function clientSender(
  options: TransportOptions & { readonly fetch?: typeof fetch | undefined },
  endpoint: string,
): Sender {
  const send = clientFetch(options, endpoint);
  const retry = options.retry;
  return (url, init, signal, call) => {
    const once = () => send(url, { ...init, signal });
    if (!retry || init.body instanceof ReadableStream) return once();
    const twice = call.idempotent ?? retry.idempotent === true;
    return withRetries(retry, twice, signal, once);
  };
}

const TRANSPORT_KEYS = ["auth", "proxy", "tls", "agent", "keepAlive", "connectTimeoutMs"] as const;

/**
 * The fetch of a client with `options`, whose calls go to `endpoint`: the environment's proxy for
 * it is read at once, so that a malformed proxy variable fails here rather than at the first call.
 */
export function clientFetch(
  options: TransportOptions & { readonly fetch?: typeof fetch | undefined },
  endpoint: string,
): FetchLike {
  const given = TRANSPORT_KEYS.filter((k) => options[k] !== undefined);
  if (options.fetch) {
    if (given.length > 0)
      throw new Error(
        `${given.join(", ")} configure the built-in transport, which a fetch hook replaces; expected either the fetch option or these`,
      );
    return options.fetch;
  }
  const node = typeof process !== "undefined" && process.versions?.node !== undefined;
  if (!node) return withoutNode(options);
  checkTransportOptions(options);
  if (typeof options.proxy === "string") parseProxy(options.proxy);
  let made: Promise<FetchLike> | undefined;
  const transport: FetchLike = async (url, init) => {
    made ??= import("./transport.js").then((m) => m.createTransport(options));
    return (await made)(url, init);
  };
  if (given.length > 0) return transport;
  proxied(endpoint);
  // Each URL is looked at: a WSDL's imports from another host may need the proxy its root does not.
  const plain = globalThis.fetch;
  return async (url, init) => (proxied(url) ? transport : plain)(url, init);
}

/**
 * The global fetch where there is no node:http: options only the Node transport reads are refused.
 */
function withoutNode(options: TransportOptions): FetchLike {
  const dropped = [
    ...(options.auth !== undefined ? ["auth"] : []),
    ...(typeof options.proxy === "string" ? ["proxy"] : []),
    ...(options.tls !== undefined ? ["tls"] : []),
    ...(options.agent !== undefined ? ["agent"] : []),
  ];
  if (dropped.length > 0)
    throw new Error(
      `${dropped.join(", ")} need the Node transport (node:http), which is not here; expected a fetch option that does what they say, or none of them`,
    );
  return globalThis.fetch;
}

/** Whether the environment names a proxy for `address` (an address that is no URL: none). */
function proxied(address: string): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  return proxyFor(url, undefined, process.env) !== undefined;
}
