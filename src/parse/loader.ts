/**
 * Loads a WSDL (or XSD) from a file path or an http(s) URL and follows `wsdl:import`,
 * `xs:import` and `xs:include`, each resolved relative to the document that names it.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import type { XmlElement } from "./dom.js";
import {
  DiagnosticError,
  diagnostic,
  fail,
  type Diagnostic,
  type SourceLocation,
} from "../diagnostics.js";
import { recovery } from "../recovery.js";
import { NS, SOAP_ENCODINGS } from "./namespaces.js";
import { readDefinitions, type RawDefinitions } from "./wsdl.js";
import { readSchema, type RawSchema, type RawSchemaReference } from "./xsd.js";
import { DEFAULT_XML_LIMITS, locOf, parseXmlDocument, type XmlLimits } from "./xml.js";
import { BodyTooLargeError, fetchFailure, readBody } from "@wsdl-tsgen/runtime/internal";
import { fetchAuth, headersFor, withoutUserinfo, type FetchAuth } from "./credentials.js";
import type { TransportOptions } from "@wsdl-tsgen/runtime";
import { documentFetch } from "./transport.js";

export interface LoadOptions {
  readonly limits?: XmlLimits;
  /** Time-out for each URL fetch, in milliseconds. */
  readonly fetchTimeoutMs?: number;
  /** Most redirects followed for one URL. */
  readonly maxRedirects?: number;
  /**
   * Most documents read in all, the root included (imports that never end, say). Default: 1,000.
   */
  readonly maxDocuments?: number;
  readonly fetch?: typeof fetch;
  /**
   * Headers sent when fetching the root URL and the documents it imports from the same host (see
   * credentials.ts); `user:password@` in the root URL adds Basic authorization.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Authentication (NTLM, Negotiate, Basic), proxy and TLS for URLs, through the runtime's
   * transport; the proxy environment variables are read without it. Ignored beside `fetch`.
   */
  readonly transport?: TransportOptions;
}

/** LoadOptions with the credentials worked out from them and the root URL. */
type ReadOptions = LoadOptions & { readonly auth?: FetchAuth | undefined };

/**
 * Everything read: the root definitions, every imported document, and every schema, in load order.
 */
export interface LoadedDocuments {
  readonly root: RawDefinitions;
  readonly definitions: readonly RawDefinitions[];
  readonly schemas: readonly RawSchema[];
  /** The text of every document read, by location, for `?WSDL` serving and vendoring. */
  readonly texts: ReadonlyMap<string, string>;
  /**
   * Every import and include: the document naming it, the attribute value as written, and where it
   * led: the location its text is kept under in `texts` (after redirects, or the file found beside
   * the importer) once read, else the location it resolves to.
   */
  readonly references: readonly {
    readonly from: string;
    readonly value: string;
    readonly target: string;
  }[];
  /** What reading the documents recovered from (e.g. a conventional prefix nobody declared). */
  readonly warnings: readonly Diagnostic[];
}

const isUrl = (s: string): boolean => /^https?:\/\//i.test(s);

/** Schemas every SOAP toolkit knows built in; importing them never needs a fetch. */
const WELL_KNOWN: ReadonlySet<string> = new Set([...SOAP_ENCODINGS, NS.wsdl, NS.xsd, NS.xml]);

/** Resolves `location` against the document `base` (a path or a URL). */
export function resolveLocation(base: string, location: string): string {
  if (isUrl(location)) return location;
  if (isUrl(base)) return new URL(location, base).toString();
  if (location.startsWith("file:")) return new URL(location).pathname;
  return path.join(path.dirname(base), location);
}

/**
 * Reads a document; for a URL, also where it ended up after redirects (the base for its imports).
 */
async function readText(
  location: string,
  options: ReadOptions,
  at: SourceLocation | undefined,
): Promise<{ text: string; url: string }> {
  const where = at ?? { file: location, line: 0, column: 0 };
  const maxBytes = (options.limits ?? DEFAULT_XML_LIMITS).maxBytes;
  if (!isUrl(location)) {
    try {
      return { text: await readFile(location, "utf8"), url: location };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      fail(
        "INPUT_NOT_READABLE",
        `cannot read ${location}${code ? ` (${code})` : ""}; expected a readable WSDL or XSD file`,
        where,
      );
    }
  }
  const doFetch = options.fetch ?? fetch;
  let url = location;
  for (let hops = 0; ; hops++) {
    let res: Response;
    try {
      const headers = headersFor(url, options.auth);
      res = await doFetch(url, {
        redirect: "manual",
        signal: AbortSignal.timeout(options.fetchTimeoutMs ?? 30_000),
        ...(headers ? { headers } : {}),
      });
    } catch (e) {
      fail("INPUT_FETCH_FAILED", `fetching ${url} failed: ${fetchFailure(e, url)}`, where);
    }
    if (res.status >= 300 && res.status < 400 && res.headers.get("location")) {
      if (hops >= (options.maxRedirects ?? 5))
        fail(
          "INPUT_TOO_MANY_REDIRECTS",
          `${location} redirected more than ${options.maxRedirects ?? 5} times`,
          where,
        );
      url = new URL(res.headers.get("location")!, url).toString();
      continue;
    }
    if (!res.ok) {
      // A service that asks for credentials: say how to give them (or that the ones given were
      // refused).
      const asks = res.status === 401 || res.status === 403;
      const hint = !asks
        ? ""
        : headersFor(url, options.auth)
          ? " (the credentials sent were refused)"
          : "; it asks for credentials: give them with --header 'Authorization: …' (config: \"headers\") or as https://user:password@host/… in the URL";
      await res.body?.cancel().catch(() => {});
      fail(
        "INPUT_FETCH_FAILED",
        `fetching ${url} answered HTTP ${res.status}${hint}; expected 200 with a WSDL document`,
        where,
      );
    }
    // Read no further than the limit, whether or not the length is declared.
    let buf: Buffer;
    try {
      buf = await readBody(res, maxBytes);
    } catch (e) {
      if (e instanceof BodyTooLargeError)
        fail("XML_TOO_LARGE", `${url} is larger than ${maxBytes} bytes, the limit`, where);
      fail("INPUT_FETCH_FAILED", `fetching ${url} failed: ${fetchFailure(e, url)}`, where);
    }
    return { text: buf.toString("utf8"), url };
  }
}

const DEFAULT_MAX_DOCUMENTS = 1000;

/**
 * Reads an imported or included document, or, when it cannot be read or fetched, records a recovery
 * warning at the import and gives undefined: loading goes on without it, and the components it
 * would have declared surface as unresolved references (themselves recovered; see recovery.ts).
 */
async function readImported(
  location: string,
  options: ReadOptions,
  at: SourceLocation,
  warnings: Diagnostic[],
  count: { read: number },
): Promise<{ text: string; url: string } | undefined> {
  const most = options.maxDocuments ?? DEFAULT_MAX_DOCUMENTS;
  if (++count.read > most)
    fail(
      "INPUT_TOO_MANY_DOCUMENTS",
      `importing ${location} would read more than ${most} documents in all; expected imports that end`,
      at,
    );
  try {
    return await readText(location, options, at);
  } catch (e) {
    const d = e instanceof DiagnosticError ? e.diagnostics[0] : undefined;
    if (d?.code !== "INPUT_NOT_READABLE" && d?.code !== "INPUT_FETCH_FAILED") throw e;
    warnings.push(
      recovery(d.code, `${d.message}; continuing without it (what it declares is unresolved)`, at),
    );
    return undefined;
  }
}

/**
 * A chameleon include: a schema without a target namespace, included into one, takes that
 * namespace, and so do its references to names in no namespace.
 */
function chameleon(schema: RawSchema, ns: string): RawSchema {
  const map = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(map);
    if (typeof v !== "object" || v === null) return v;
    const o = v as Record<string, unknown>;
    if (
      typeof o["ns"] === "string" &&
      typeof o["local"] === "string" &&
      Object.keys(o).length === 2
    ) {
      return o["ns"] === "" ? { ns, local: o["local"] } : o;
    }
    if ("file" in o && "line" in o && "column" in o) return o;
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, map(x)]));
  };
  return { ...(map(schema) as RawSchema), targetNamespace: ns };
}

/**
 * A schema file missing at the relative path written but present, by the same name, beside the
 * document that imports it (a vendored copy with its folders flattened; node-soap's `fixedPath`):
 * that file, with a warning. Otherwise the path as written, which then fails as unreadable.
 */
function besideImporter(loc: string, at: SourceLocation, warnings: Diagnostic[]): string {
  if (isUrl(loc) || isUrl(at.file) || existsSync(loc)) return loc;
  const beside = path.join(path.dirname(at.file), path.basename(loc));
  if (beside === loc || !existsSync(beside)) return loc;
  warnings.push(
    recovery(
      "INPUT_FOUND_BESIDE",
      `${loc} does not exist; using ${beside}, the file of that name beside the importing document`,
      at,
    ),
  );
  return beside;
}

/** Loads `location` and every document it imports or includes. */
export async function loadDocuments(
  given: string,
  loadOptions: LoadOptions = {},
): Promise<LoadedDocuments> {
  // The root's user and password become a header; the URL is used without them from here on.
  const location = withoutUserinfo(given);
  const loader = new DocumentLoader({
    ...loadOptions,
    fetch:
      loadOptions.fetch ?? (documentFetch(location, loadOptions.transport ?? {}) as typeof fetch),
    auth: fetchAuth(given, loadOptions.headers),
  });
  const unused = unusedCredentials(loadOptions);
  if (!isUrl(location) && unused) {
    loader.warnings.push(
      diagnostic(
        "INPUT_HEADERS_UNUSED",
        `${unused} are sent only to the host of a WSDL fetched by URL; ${location} is a file, so they were not sent`,
        { file: location, line: 0, column: 0 },
        "warning",
      ),
    );
  }
  return loader.load(location);
}

/** What of the headers and the transport's authentication `options` give, for a message. */
function unusedCredentials(options: LoadOptions): string | undefined {
  const given = [
    ...(Object.keys(options.headers ?? {}).length > 0 ? ["headers"] : []),
    ...(options.transport?.auth ? [`${options.transport.auth.scheme} credentials`] : []),
  ];
  return given.length > 0 ? given.join(" and ") : undefined;
}

const key = (l: string) => (isUrl(l) ? l : path.resolve(l));

/** The documents of one WSDL, read one after another from its root. */
class DocumentLoader {
  readonly definitions: RawDefinitions[] = [];
  readonly schemas: RawSchema[] = [];
  readonly texts = new Map<string, string>();
  readonly references: { from: string; value: string; target: string }[] = [];
  readonly warnings: Diagnostic[] = [];
  /** The documents read, by location and (for a chameleon include) the namespace it takes. */
  private readonly seen = new Set<string>();
  /** Documents read so far, the root's included. */
  private readonly count = { read: 1 };
  /**
   * Where each location named by a reference was read (redirects followed, a file found beside):
   * `texts`'s key.
   */
  private readonly readAt = new Map<string, string>();

  constructor(private readonly options: ReadOptions) {}

  async load(location: string): Promise<LoadedDocuments> {
    this.seen.add(key(location) + "#");
    const { text, url } = await readText(location, this.options, undefined);
    this.readAt.set(location, url);
    this.texts.set(url, text);
    const doc = parseXmlDocument(text, url, this.options.limits, this.warnings);
    const rootEl = doc.documentElement!;
    if (rootEl.namespaceURI === NS.xsd && rootEl.localName === "schema") {
      throw new DiagnosticError([
        diagnostic(
          "WSDL_NOT_DEFINITIONS",
          "found an XML Schema (xs:schema) as the root element; expected a WSDL 1.1 wsdl:definitions document (generate from the WSDL that imports this schema)",
          locOf(url, rootEl),
        ),
      ]);
    }
    const root = await this.loadDefinitions(url, rootEl);
    const references = this.references.map((r) => ({
      ...r,
      target: this.readAt.get(r.target) ?? r.target,
    }));
    const { definitions, schemas, texts, warnings } = this;
    return { root, definitions, schemas, texts, references, warnings };
  }

  /** Reads the document at `loc` (a reference's target) unless read already; its text and URL. */
  private async read(
    written: string,
    loc: string,
    at: SourceLocation,
    seenKey: string,
  ): Promise<{ text: string; url: string } | undefined> {
    if (this.seen.has(seenKey)) return undefined;
    this.seen.add(seenKey);
    const read = await readImported(loc, this.options, at, this.warnings, this.count);
    if (!read) return undefined;
    this.readAt.set(written, read.url);
    this.texts.set(read.url, read.text);
    return read;
  }

  private async loadSchemaDoc(
    written: string,
    at: SourceLocation,
    chameleonNs: string | undefined,
  ): Promise<void> {
    const loc = besideImporter(written, at, this.warnings);
    const read = await this.read(written, loc, at, key(loc) + "#" + (chameleonNs ?? ""));
    if (!read) return;
    const { text, url } = read;
    const doc = parseXmlDocument(text, url, this.options.limits, this.warnings);
    const root = doc.documentElement!;
    if (root.namespaceURI === NS.wsdl && root.localName === "definitions") {
      await this.loadDefinitions(url, root);
      return;
    }
    if (root.namespaceURI !== NS.xsd || root.localName !== "schema") {
      fail("XSD_NOT_SCHEMA", `${url} has the root element ${root.tagName}; expected xs:schema`, at);
    }
    await this.addSchema(readSchema(root, url, this.warnings), chameleonNs);
  }

  private misnamed(r: RawSchemaReference, what: string): void {
    if (r.misnamed) {
      this.warnings.push(
        recovery(
          "XSD_LOCATION_ATTRIBUTE",
          `this ${what} names its file with location=, the attribute of wsdl:import; reading it as schemaLocation=`,
          r.loc,
        ),
      );
    }
  }

  private async addSchema(schema: RawSchema, chameleonNs: string | undefined): Promise<void> {
    const s =
      chameleonNs !== undefined && schema.targetNamespace === ""
        ? chameleon(schema, chameleonNs)
        : schema;
    this.schemas.push(s);
    for (const imp of s.imports) {
      if (!imp.schemaLocation || (imp.namespace !== undefined && WELL_KNOWN.has(imp.namespace)))
        continue;
      this.misnamed(imp, "xs:import");
      const target = resolveLocation(s.file, imp.schemaLocation);
      this.references.push({ from: s.file, value: imp.schemaLocation, target });
      await this.loadSchemaDoc(target, { ...imp.loc }, undefined);
    }
    for (const inc of s.includes) {
      this.misnamed(inc, "xs:include");
      const target = resolveLocation(s.file, inc.schemaLocation);
      this.references.push({ from: s.file, value: inc.schemaLocation, target });
      await this.loadSchemaDoc(target, inc.loc, s.targetNamespace);
    }
  }

  private async loadDefinitions(loc: string, root: XmlElement): Promise<RawDefinitions> {
    const defs = readDefinitions(root, loc, this.warnings);
    this.definitions.push(defs);
    for (const s of defs.schemas) await this.addSchema(s, undefined);
    for (const imp of defs.imports) {
      const target = resolveLocation(loc, imp.location);
      this.references.push({ from: loc, value: imp.location, target });
      const read = await this.read(target, target, imp.loc, key(target) + "#");
      if (!read) continue;
      const { text, url } = read;
      const doc = parseXmlDocument(text, url, this.options.limits, this.warnings);
      const r = doc.documentElement!;
      if (r.namespaceURI === NS.xsd && r.localName === "schema")
        await this.addSchema(readSchema(r, url, this.warnings), undefined);
      else await this.loadDefinitions(url, r);
    }
    return defs;
  }
}
