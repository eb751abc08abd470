/**
 * Which URL the server writes into what it serves (`?WSDL`, `?disco`, the help pages' samples): the
 * configured `publicUrl`, else the request's Host when the handler's `allowedHosts` lists it, or,
 * with neither configured, when it names this machine (a loopback name or the address the request
 * arrived at). Anyone can write a Host header, and a shared cache would keep a `?WSDL` that sends
 * clients elsewhere: an unlisted Host is answered 400, as Kestrel's host filtering does.
 */
import type { IncomingMessage } from "node:http";
import { plainAddress } from "./connection-limit.js";
import { HttpProblem } from "./respond.js";

/**
 * A Host header read strictly: a name, an IPv4 or a bracketed IPv6 address, then an optional port.
 */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9-]+(?:\.[a-z0-9-]+)*)\.?(?::\d{1,5})?$/i;

/**
 * The name of a Host header (no port, lower case), or undefined for one that is not only a host
 * and port: `evil.com:.localhost` names no host, and is never compared by its end.
 */
export function hostName(host: string): string | undefined {
  const m = HOST.exec(host);
  return m ? m[1]!.toLowerCase() : undefined;
}

/** Where clients reach the service, when it is configured (`publicUrl`): its base and host. */
export interface PublicUrl {
  /** The origin and path prefix, without a trailing slash: `https://gw.example.com/messages`. */
  readonly base: string;
  /** The host (and port) clients name, for the help pages' sample requests. */
  readonly host: string;
  /** The path prefix ("" when none) a proxy in front adds to this server's paths. */
  readonly prefix: string;
}

/** Reads the `publicUrl` option; a URL that cannot be one is refused when the handler is made. */
export function publicUrlOf(publicUrl: string | undefined): PublicUrl | undefined {
  if (publicUrl === undefined) return undefined;
  const url = new URL(publicUrl);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new RangeError(`publicUrl must be an http or https URL, got ${publicUrl}`);
  if (url.search || url.hash || url.username || url.password)
    throw new RangeError(`publicUrl must have no query, fragment or credentials, got ${publicUrl}`);
  const prefix = url.pathname.replace(/\/+$/, "");
  return { base: url.origin + prefix, host: url.host, prefix };
}

/** Whether a Host names the local machine: `localhost`, `*.localhost`, `127.x.x.x` or `[::1]`. */
export function isLoopbackHost(host: string): boolean {
  const name = hostName(host);
  if (name === undefined) return false;
  return (
    name === "localhost" ||
    name.endsWith(".localhost") ||
    name === "[::1]" ||
    /^127\.\d+\.\d+\.\d+$/.test(name)
  );
}

/** An address as a Host names it: IPv6 in brackets, IPv4 mapped to IPv6 as IPv4. */
const asHost = (address: string): string => {
  const a = plainAddress(address).toLowerCase();
  return a.includes(":") ? `[${a}]` : a;
};

/** Reads the `allowedHosts` option: names, `*.example.com` for subdomains, or `*` for any. */
function allowedHostsOf(hosts: readonly string[]): (name: string) => boolean {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const h of hosts) {
    const name = h.trim().toLowerCase();
    if (name === "*") return () => true;
    if (name === "" || /[/:@]/.test(name.replace(/^\[.*\]$/, "")))
      throw new RangeError(`allowedHosts holds host names without ports or schemes, got '${h}'`);
    if (name.startsWith("*.")) suffixes.push(name.slice(1));
    else exact.add(name);
  }
  return (name) => exact.has(name) || suffixes.some((s) => name.endsWith(s));
}

/** The addresses a server bound to all of them is reached at on its own machine. */
const UNSPECIFIED = new Set(["0.0.0.0", "[::]"]);

/** The origin and host written into documents and pages, for each request. */
export class Origins {
  private readonly allowed: ((name: string) => boolean) | undefined;

  constructor(
    /** The configured public URL, written instead of the request's Host. */
    readonly publicUrl: PublicUrl | undefined,
    allowedHosts: readonly string[] | undefined,
  ) {
    this.allowed = allowedHosts && allowedHostsOf(allowedHosts);
  }

  /** `http://host:port` plus the public URL's path, as the client reaches this server. */
  origin(req: IncomingMessage): string {
    if (this.publicUrl) return this.publicUrl.base;
    const scheme = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
    return `${scheme}://${this.host(req)}`;
  }

  /**
   * The host (and port) clients name: the public URL's, else the request's Host when allowed, else
   * the local address for a request without one. An unlisted Host is a 400.
   */
  host(req: IncomingMessage): string {
    if (this.publicUrl) return this.publicUrl.host;
    const given = req.headers.host;
    const local = asHost(req.socket.localAddress ?? "localhost");
    if (given === undefined || given === "") return `${local}:${req.socket.localPort ?? 80}`;
    const name = hostName(given);
    const allowed = this.allowed
      ? name !== undefined && this.allowed(name)
      : name !== undefined && (isLoopbackHost(name) || name === local || UNSPECIFIED.has(name));
    if (!allowed)
      throw new HttpProblem(
        400,
        "The Host header names a host this service is not configured for; set the handler's publicUrl or allowedHosts.",
      );
    return given;
  }
}
