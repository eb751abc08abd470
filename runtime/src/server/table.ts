/**
 * The server's route table, built once per handler: the paths it serves (each port's address, or
 * one path for all), the SOAP operations at each by version and action, and the URL of every HTTP
 * GET/POST operation, exact or a urlReplacement pattern.
 */
import type { SoapVersion } from "../errors.js";
import { locationPattern } from "../http/binding.js";
import type { PortDesc } from "../descriptors/operations.js";
import { HttpProblem } from "./respond.js";
import {
  httpRouted,
  pathBase,
  soapRouted,
  type HttpRoute,
  type Routed,
  type SoapRoutes,
} from "./routes.js";

/** A path the handler serves, with the ports whose address has it and their SOAP operations. */
export interface Endpoint {
  /** The path as the WSDL's address has it, a trailing slash kept. */
  readonly path: string;
  readonly lower: string;
  /** `lower` without a trailing slash ("" for the root): operations' URLs are below it. */
  readonly lowerBase: string;
  readonly ports: PortDesc[];
  readonly soap: Readonly<Record<SoapVersion, SoapRoutes>>;
  /**
   * Whether a port here uses SOAP encoding: its requests' multi-references are read (decoding
   * starts before the request is routed to a port).
   */
  readonly encoded: boolean;
}

/** An http:urlReplacement operation: a pattern of its path, parameters in its groups. */
interface PatternRoute {
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly route: HttpRoute;
}

/** The HTTP protocol of a request method; undefined for a method neither binding has. */
export const protocolOf = (method: string | undefined): "httpGet" | "httpPost" | undefined =>
  method === "GET" ? "httpGet" : method === "POST" ? "httpPost" : undefined;

// A trailing slash is kept, as written (an address of /admin/1.3/ is served there); repeated ones
// are one.
const normalise = (path: string): string => path.replace(/\/{2,}$/, "/") || "/";

/** The path a port whose WSDL address is `address` is served at, when no `path` option is given. */
export const addressPath = (address: string): string =>
  normalise(new URL(address || "/", "http://localhost").pathname);

/**
 * The SOAP operations of one version at an endpoint, and by action: every port of the version, in
 * WSDL order (a service may have several, with different bindings).
 */
function soapRoutes(ports: readonly PortDesc[], v: SoapVersion): SoapRoutes {
  const own = ports.filter((p) => p.protocol === (v === "1.1" ? "soap11" : "soap12"));
  const operations = soapRouted(own);
  const byAction = new Map<string, Routed[]>();
  for (const r of operations)
    if (r.op.action !== undefined && r.op.action !== "")
      byAction.set(r.op.action, [...(byAction.get(r.op.action) ?? []), r]);
  return { ports: own, operations, byAction };
}

function endpoint(path: string, ports: PortDesc[]): Endpoint {
  const soap = { "1.1": soapRoutes(ports, "1.1"), "1.2": soapRoutes(ports, "1.2") };
  const encoded = ports.some((p) => p.encoded === true);
  const lower = path.toLowerCase();
  return { path, lower, lowerBase: pathBase(lower), ports, soap, encoded };
}

export class RouteTable {
  /** Longest path first, so that /a/b is not taken for an operation of /a. */
  private readonly endpoints: readonly Endpoint[];
  /** The URL path of every HTTP operation but the urlReplacement ones. */
  private readonly exact = new Map<string, HttpRoute[]>();
  private readonly patterns: PatternRoute[] = [];

  constructor(
    ports: readonly PortDesc[],
    private readonly path: string | undefined,
  ) {
    // The paths served: each port's own (or `path` for all), ports sharing a path served together.
    const paths = new Map<string, { path: string; ports: PortDesc[] }>();
    for (const p of ports) {
      const at = this.servedPath(p.address);
      const found = paths.get(at.toLowerCase());
      if (found) found.ports.push(p);
      else paths.set(at.toLowerCase(), { path: at, ports: [p] });
    }
    const endpoints = [...paths.values()].map((g) => endpoint(g.path, g.ports));
    if (endpoints.length === 0) endpoints.push(endpoint(normalise(path ?? "/"), []));
    endpoints.sort((a, b) => b.path.length - a.path.length);
    this.endpoints = endpoints;
    for (const ep of endpoints) this.addHttpRoutes(ep);
  }

  /** The path a port with this address is served at. */
  servedPath(address: string): string {
    if (this.path !== undefined) return normalise(this.path);
    return addressPath(address);
  }

  // The URL path of every HTTP operation: its port's path followed by its location, joined as
  // clients join them (ASMX's /Service.asmx + /Op, but also a location of "/" or one without a
  // leading slash: zeep and .NET append the location to the address).
  private addHttpRoutes(ep: Endpoint): void {
    const base = pathBase(ep.path);
    for (const route of [...httpRouted(ep.ports, "httpGet"), ...httpRouted(ep.ports, "httpPost")]) {
      if (route.op.replace) {
        this.patterns.push({ ...locationPattern(base, route.op.location), route });
        continue;
      }
      const full = new URL(base + route.op.location, "http://localhost").pathname;
      this.exact.set(full, [...(this.exact.get(full) ?? []), route]);
    }
  }

  /** The HTTP operation of this protocol at exactly this path. */
  exactRoute(path: string, protocol: string | undefined): HttpRoute | undefined {
    return this.exact.get(path)?.find((r) => r.port.protocol === protocol);
  }

  /**
   * The urlReplacement operation of this protocol whose pattern the path matches, with its
   * parameters.
   */
  byPattern(
    path: string,
    protocol: string | undefined,
  ): { route: HttpRoute; params: URLSearchParams } | undefined {
    for (const { pattern, names, route } of this.patterns) {
      if (route.port.protocol !== protocol) continue;
      const m = pattern.exec(path);
      if (!m) continue;
      const params = new URLSearchParams();
      try {
        names.forEach((name, i) => params.append(name, decodeURIComponent(m[i + 1]!)));
      } catch {
        throw new HttpProblem(400, "The URL path holds a malformed percent-encoding.");
      }
      return { route, params };
    }
    return undefined;
  }

  /** The endpoint a lower-cased path is at or below. */
  endpointOf(lower: string): Endpoint | undefined {
    return this.endpoints.find((e) => isAt(e, lower) || lower.startsWith(`${e.lowerBase}/`));
  }

  isEndpoint(lower: string): boolean {
    return this.endpoints.some((e) => isAt(e, lower));
  }

  /** A request for a path not served says which are, for whoever mistyped one. */
  notFound(): HttpProblem {
    return new HttpProblem(
      404,
      `Not found. This service is served at ${this.endpoints.map((e) => e.path).join(", ")}.`,
    );
  }
}

/**
 * Whether a lower-cased path is the endpoint's own: its path, or, for an address with a trailing
 * slash, that path without it (a client that drops the slash still reaches it). A slash added to
 * an address without one is not: ASMX reads /api.asmx/ as an HTTP operation with no name.
 */
export const isAt = (e: Endpoint, lower: string): boolean =>
  lower === e.lower || (lower === e.lowerBase && lower !== "");

/** The port of an HTTP verb at an endpoint. */
export function httpPort(ep: Endpoint, verb: "GET" | "POST"): PortDesc | undefined {
  return ep.ports.find((p) => p.protocol === (verb === "GET" ? "httpGet" : "httpPost"));
}
