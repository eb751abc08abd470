/**
 * The documents the server serves at its paths: `?WSDL` (its addresses rewritten to the URL the
 * client reached), `?disco`, and the documents an embedded WSDL imports (`?xsd=1`).
 */
import type { IncomingMessage } from "node:http";
import { discoDocument, soapPorts, type SoapPort } from "./disco.js";
import { EMBEDDED_DOCUMENT, type EmbeddedWsdl } from "../descriptors/embedded-wsdl.js";
import type { PortDesc } from "../descriptors/operations.js";
import { HttpProblem } from "./respond.js";
import type { Origins } from "./hosts.js";
import { namedDocument, wantsDisco, wantsWsdl } from "./routes.js";
import type { Endpoint, RouteTable } from "./table.js";

/**
 * `wsdl` without the `wsdl:port` elements named in `hidden`: ports the handler does not serve are
 * not advertised. A port element holds only its address, so it ends at the first closing tag.
 */
export function withoutPorts(wsdl: string, hidden: readonly string[]): string {
  if (hidden.length === 0) return wsdl;
  const port =
    /<([\w.-]+:)?port\b[^>]*?\bname\s*=\s*(["'])([^"']*)\2[^>]*?(?:\/>|>[\s\S]*?<\/\1port\s*>)\s*/g;
  return wsdl.replace(port, (whole, _p, _q, name: string) => (hidden.includes(name) ? "" : whole));
}

export class Documents {
  /** The WSDL text served at `?WSDL`; undefined when none was embedded or given. */
  readonly wsdl: string | undefined;
  /** The imported documents, by query (`xsd=1`). */
  readonly imports: Readonly<Record<string, string>>;
  private readonly addresses: readonly string[];
  /** The WSDL's SOAP ports, read from it the first time `?disco` is asked for. */
  private discoPorts: readonly SoapPort[] | undefined;

  constructor(
    ports: readonly PortDesc[],
    embedded: string | EmbeddedWsdl | undefined,
    given: string | undefined,
    private readonly table: RouteTable,
    /** The URL written into documents: the public URL, or the request's Host if allowed. */
    private readonly origins: Origins,
    /** The ports of the WSDL this handler does not serve: left out of it. */
    hidden: readonly string[] = [],
  ) {
    const wsdl = given ?? (typeof embedded === "string" ? embedded : embedded?.root);
    this.wsdl = wsdl === undefined ? undefined : withoutPorts(wsdl, hidden);
    this.imports = typeof embedded === "object" ? embedded.imports : {};
    this.addresses = [...new Set(ports.map((p) => p.address).filter(Boolean))];
  }

  /** The imported document a query names (`?xsd=1`), if any. */
  imported(url: URL): string | undefined {
    const key = namedDocument(url);
    return key !== undefined && Object.hasOwn(this.imports, key) ? this.imports[key] : undefined;
  }

  /** Whether the query asks for a document served at an endpoint's path. */
  asked(url: URL): boolean {
    return wantsWsdl(url) || wantsDisco(url) || this.imported(url) !== undefined;
  }

  /** `?WSDL`, `?disco` or an imported document (`?xsd=1`), if the request asks for one. */
  document(req: IncomingMessage, url: URL, ep: Endpoint): string | undefined {
    if (wantsWsdl(url) || wantsDisco(url)) {
      if (this.wsdl === undefined) {
        throw new HttpProblem(
          404,
          "No WSDL is available: this service was generated without embedding it (embedWsdl: false); pass its text in the handler's `wsdl` option to serve it here.",
        );
      }
      if (wantsWsdl(url)) return this.served(req, this.wsdl, ep);
      const origin = this.origins.origin(req);
      this.discoPorts ??= soapPorts(this.wsdl);
      return discoDocument(this.discoPorts, `${origin}${ep.path}`, (a) =>
        this.addressAt(origin, a),
      );
    }
    const imported = this.imported(url);
    if (imported !== undefined) return this.served(req, imported, ep);
    const named = namedDocument(url);
    if (named !== undefined) throw new HttpProblem(404, `This service has no document ${named}.`);
    return undefined;
  }

  /** Where the port address `a` of the WSDL is served, for a client that reached `origin`. */
  private addressAt(origin: string, a: string): string {
    return this.addresses.includes(a) ? `${origin}${this.table.servedPath(a)}` : a;
  }

  /** A document with the addresses in it, and its imports, at the URL the client reached. */
  private served(req: IncomingMessage, text: string, ep: Endpoint): string {
    const origin = this.origins.origin(req);
    for (const a of this.addresses)
      text = text.split(`location="${a}"`).join(`location="${this.addressAt(origin, a)}"`);
    // Imports of embedded documents: at this endpoint's URL.
    return text.split(EMBEDDED_DOCUMENT).join(`${origin}${ep.path}?`);
  }
}
