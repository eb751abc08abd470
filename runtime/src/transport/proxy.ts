/**
 * Which proxy a URL goes through, read from the options or from the environment as curl reads
 * it, and the CONNECT tunnel to an https target through one.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";

export interface Proxy {
  readonly host: string;
  readonly port: number;
  /** Basic Proxy-Authorization from the proxy URL's user and password, if it has them. */
  readonly authorization: string | undefined;
  /** The proxy's URL without its credentials, for messages. */
  readonly shown: string;
}

/** A proxy that refused the request or the tunnel (a 407, a 403, a 502). */
export class ProxyError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "ProxyError";
  }
}

/** Reads `http://user:pass@host:port` (a URL without a scheme is http, as curl reads it). */
export function parseProxy(value: string): Proxy {
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  if (url.protocol !== "http:")
    throw new Error(`proxy ${url.protocol}//${url.host}: only http:// proxies are supported`);
  const user = decodeURIComponent(url.username);
  const authorization =
    url.username || url.password
      ? `Basic ${Buffer.from(`${user}:${decodeURIComponent(url.password)}`, "utf8").toString("base64")}`
      : undefined;
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : 80,
    authorization,
    shown: `http://${url.host}`,
  };
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The proxy for `target` as curl chooses it: `proxy` when given (false for none), else
 * `http_proxy` (lower case only, as curl: a CGI sets HTTP_PROXY from a request header),
 * `https_proxy`/`HTTPS_PROXY`, then `all_proxy`/`ALL_PROXY`; none when `no_proxy`/`NO_PROXY` names
 * the host.
 */
export function proxyFor(
  target: URL,
  proxy: string | false | undefined,
  env: Env,
): Proxy | undefined {
  if (proxy === false) return undefined;
  if (proxy !== undefined) return parseProxy(proxy);
  const scheme = target.protocol.replace(":", "");
  const value =
    (scheme === "http" ? env["http_proxy"] : (env["https_proxy"] ?? env["HTTPS_PROXY"])) ||
    env["all_proxy"] ||
    env["ALL_PROXY"];
  if (!value) return undefined;
  if (noProxy(target, env["no_proxy"] ?? env["NO_PROXY"] ?? "")) return undefined;
  return parseProxy(value);
}

/**
 * Whether `no_proxy` exempts `target`: `*` all hosts; a name, with or without a leading dot, that
 * host and its subdomains; an IP address, or a CIDR range of them; each optionally `:port`.
 */
export function noProxy(target: URL, list: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = target.port || (target.protocol === "https:" ? "443" : "80");
  for (const raw of list.split(",")) {
    const entry = raw.trim().toLowerCase();
    if (entry === "") continue;
    if (entry === "*") return true;
    const { name, port: only } = splitEntry(entry);
    if (only !== undefined && only !== port) continue;
    if (name.includes("/")) {
      if (inCidr(host, name)) return true;
      continue;
    }
    const bare = name.replace(/^\./, "");
    if (host === bare || host.endsWith(`.${bare}`)) return true;
  }
  return false;
}

/** A no_proxy entry's host (name, address or CIDR) and port: `[::1]:8080`, `host:80`, `::1`. */
function splitEntry(entry: string): { name: string; port: string | undefined } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: bracketed[1]!, port: bracketed[2] };
  const parts = entry.split(":");
  if (parts.length === 2 && /^\d+$/.test(parts[1]!)) return { name: parts[0]!, port: parts[1] };
  return { name: entry, port: undefined };
}

/** Whether IPv4 address `host` is in `cidr` (`10.0.0.0/8`); false for a name or IPv6. */
function inCidr(host: string, cidr: string): boolean {
  const [base, bitsText] = cidr.split("/");
  const a = ipv4(host);
  const b = ipv4(base ?? "");
  const bits = Number(bitsText);
  if (a === undefined || b === undefined || !(bits >= 0 && bits <= 32)) return false;
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (a & mask) >>> 0 === (b & mask) >>> 0;
}

function ipv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255))
    return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/**
 * Opens a CONNECT tunnel to `host:port` through `proxy`; rejects with a ProxyError on refusal,
 * and with the signal's reason (the request to the proxy destroyed) when it aborts first.
 */
export function tunnel(
  proxy: Proxy,
  host: string,
  port: number,
  signal: AbortSignal,
): Promise<Socket> {
  const authority = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: proxy.host,
      port: proxy.port,
      method: "CONNECT",
      path: authority,
      agent: false,
      headers: {
        Host: authority,
        ...(proxy.authorization ? { "Proxy-Authorization": proxy.authorization } : {}),
      },
    });
    req.once("connect", (res: IncomingMessage, socket: Socket) => {
      if (res.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(proxyRefusal(proxy, res, `the tunnel to ${authority}`));
    });
    // A proxy that answers CONNECT with a plain response (no tunnel) comes here.
    req.once("response", (res: IncomingMessage) => {
      res.resume();
      reject(proxyRefusal(proxy, res, `the tunnel to ${authority}`));
    });
    req.once("error", reject);
    signal.addEventListener("abort", () => req.destroy(signal.reason as Error), { once: true });
    req.end();
  });
}

/** The ProxyError of a proxy's refusal of `what`, naming the schemes it offers on a 407. */
export function proxyRefusal(proxy: Proxy, res: IncomingMessage, what: string): ProxyError {
  const status = res.statusCode ?? 0;
  const offered = res.headers["proxy-authenticate"];
  const schemes = (Array.isArray(offered) ? offered : offered ? [offered] : [])
    .map((v) => v.split(/\s/)[0])
    .join(", ");
  const auth =
    status === 407
      ? proxy.authorization
        ? " (the proxy refused its credentials"
        : " (no proxy credentials were given"
      : "";
  const offers = status === 407 ? `; it offers ${schemes || "no scheme"})` : "";
  return new ProxyError(
    `the proxy ${proxy.shown} refused ${what}: ${status} ${res.statusMessage ?? ""}${auth}${offers}`.trim(),
    status,
  );
}
