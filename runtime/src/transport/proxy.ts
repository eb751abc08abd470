/**
 * Which proxy a URL goes through, read from the options or from the environment as curl reads
 * it. No node: module is loaded here, since select.ts reads it wherever the client runs.
 */
import { basicAuthorization } from "./auth.js";

export interface Proxy {
  readonly host: string;
  readonly port: number;
  /** Basic Proxy-Authorization from the proxy URL's user and password, if it has them. */
  readonly authorization: string | undefined;
  /** The proxy's URL without its credentials, for messages. */
  readonly shown: string;
}

/** Reads `http://user:pass@host:port` (a URL without a scheme is http, as curl reads it). */
export function parseProxy(value: string): Proxy {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  const parsed = proxyUrl(text);
  if (!parsed)
    throw new Error(
      `proxy ${text.replace(/^([a-z][a-z0-9+.-]*:\/\/).*@/is, "$1")}: not a valid URL; expected http://user:password@host:port, with '#', '/', '?', '@' and '%' in the user or password percent-encoded`,
    );
  const { url, user, password } = parsed;
  if (url.protocol !== "http:")
    throw new Error(`proxy ${url.protocol}//${url.host}: only http:// proxies are supported`);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : 80,
    authorization: user || password ? basicAuthorization(user, password) : undefined,
    shown: `http://${url.host}`,
  };
}

/**
 * `text` as a URL with its user and password decoded, or undefined: URL's own error would carry the
 * password in its `input`. A '#', '/' or '?' left in a password cuts the authority short, so an '@'
 * after it is refused too.
 */
function proxyUrl(text: string): { url: URL; user: string; password: string } | undefined {
  try {
    const url = new URL(text);
    if (/@/.test(url.pathname + url.search + url.hash)) return undefined;
    const user = decodeURIComponent(url.username);
    return { url, user, password: decodeURIComponent(url.password) };
  } catch {
    return undefined;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The proxy for `target` as curl chooses it: `proxy` when given (parsed; false for none), else
 * `http_proxy` (lower case only, as curl: a CGI sets HTTP_PROXY from a request header),
 * `https_proxy`/`HTTPS_PROXY`, then `all_proxy`/`ALL_PROXY`; none when `no_proxy`/`NO_PROXY` names
 * the host.
 */
export function proxyFor(
  target: URL,
  proxy: Proxy | false | undefined,
  env: Env,
): Proxy | undefined {
  if (proxy !== undefined) return proxy || undefined;
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
