/**
 * The help pages a browser gets at the service's path, as ASMX serves them: the service page (its
 * documentation and operations), and one page per operation (`?op=Name`) with its documentation,
 * parameters, a test form and sample messages for every binding the endpoint's ports declare.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FieldDesc, TypeDesc } from "../../descriptors/types.js";
import { wsdlDocs, type WsdlDocs } from "./docs.js";
import { escapeHtml, htmlPage, sampleHtml, type HelpResponse } from "./html.js";
import { formFields, formHtml, isLocalRequest, submitForm, type ReadBody } from "./form.js";
import { httpSample, soapSample, type Sample } from "./samples.js";
import type { OperationDesc, PortDesc, ServiceDesc } from "../../descriptors/operations.js";
import type { Origins } from "../hosts.js";

/** What the pages know of the service besides its descriptors. */
export interface HelpSettings {
  /** The WSDL text served at `?WSDL`, if it is. */
  readonly wsdl: string | undefined;
  /** The imported documents served beside it, by query (`xsd=1`). */
  readonly imports: readonly string[];
  /** Offer the test form to requests from any address, not only loopback ones. */
  readonly formAnywhere: boolean;
  /** Where clients reach the service: the samples name its host and path (server/hosts.ts). */
  readonly origins: Origins;
}

/** The pages of one service. */
export class HelpPages {
  private docsRead: WsdlDocs | undefined;
  constructor(
    readonly service: ServiceDesc,
    readonly settings: HelpSettings,
  ) {}

  private get docs(): WsdlDocs {
    return (this.docsRead ??= wsdlDocs(this.settings.wsdl, this.service.name));
  }

  /** The page a GET at the endpoint `path` (served with `ports`) asks for. */
  page(req: IncomingMessage, url: URL, path: string, ports: readonly PortDesc[]): HelpResponse {
    const op = url.searchParams.get("op");
    if (op === null) return this.servicePage(path, ports);
    if (!ports.some((p) => Object.hasOwn(p.operations, op)))
      return htmlPage(
        404,
        this.title,
        this.side(path, ports),
        `<p>No operation is named ${escapeHtml(op)}.</p>`,
      );
    return this.operationPage(req, path, ports, op);
  }

  /**
   * The answer to the test form's POST (see form.ts), invoking the operation through
   * `listener`.
   */
  submit(
    req: IncomingMessage,
    url: URL,
    path: string,
    ports: readonly PortDesc[],
    listener: (req: IncomingMessage, res: ServerResponse) => void,
    body: ReadBody,
  ): Promise<HelpResponse> {
    const frame = (status: number, main: string) =>
      htmlPage(status, this.title, this.side(path, ports), main);
    return submitForm(req, url, path, ports, listener, this.settings.formAnywhere, frame, body);
  }

  get title(): string {
    return this.service.name;
  }

  /** The left panel: overview, service description, imported documents, operations. */
  side(path: string, ports: readonly PortDesc[]): string {
    const self = escapeHtml(relativeSelf(path));
    const links = [`<a class="method" href="${self}">Overview</a>`];
    if (this.settings.wsdl !== undefined)
      links.push(`<a class="method" href="${self}?WSDL">Service Description</a>`);
    for (const q of this.settings.imports)
      links.push(
        `<a class="method" href="${self}?${escapeHtml(q)}">Imported document ${escapeHtml(q)}</a>`,
      );
    links.push(`<br><span class="label">Methods</span>`);
    for (const name of operationNames(ports))
      links.push(
        `<a class="method" href="${self}?op=${encodeURIComponent(name)}">${escapeHtml(name)}</a>`,
      );
    return links.join("\n");
  }

  private servicePage(path: string, ports: readonly PortDesc[]): HelpResponse {
    const ops = operationNames(ports)
      .map((name) => {
        const doc = this.docs.operations.get(name);
        const link = `<a href="${escapeHtml(relativeSelf(path))}?op=${encodeURIComponent(name)}">${escapeHtml(name)}</a>`;
        return `<li>${link}${doc ? `<br>${escapeHtml(doc)}` : ""}</li>`;
      })
      .join("\n");
    const doc = this.docs.service;
    const main = `<p class="label">Web Service Overview</p>
${doc ? `<p class="doc">${escapeHtml(doc)}</p>` : ""}
<p>The following operations are supported.${this.settings.wsdl === undefined ? "" : ` For a formal definition, please review the <a href="${escapeHtml(relativeSelf(path))}?WSDL">Service Description</a>.`}</p>
<ul class="operations">${ops}</ul>`;
    return htmlPage(200, this.title, this.side(path, ports), main);
  }

  private operationPage(
    req: IncomingMessage,
    path: string,
    ports: readonly PortDesc[],
    name: string,
  ): HelpResponse {
    const doc = this.docs.operations.get(name);
    const { origins } = this.settings;
    const host = origins.host(req);
    const at = (origins.publicUrl?.prefix ?? "") + path;
    const samples = ports.flatMap((p) => {
      const op = p.operations[name];
      return op ? [{ port: p, sample: sampleFor(p, op, at, host) }] : [];
    });
    const sections = samples
      .map(({ port, sample }) => sampleSection(port, sample, samples))
      .join("\n");
    const local = this.settings.formAnywhere || isLocalRequest(req);
    const fields = formFields(ports, name);
    const test = !local
      ? `<p>The test form is only available for requests from the local machine.</p>`
      : fields === undefined
        ? `<p>No test form is available: the form needs an HTTP POST or SOAP 1.1 binding of the operation, and parameters that are all simple values.</p>`
        : formHtml(name, fields);
    const main = `<h2>${escapeHtml(name)}</h2>
${doc ? `<p class="doc">${escapeHtml(doc)}</p>` : ""}
<h3>Parameters</h3>
${parameterTable(ports, name)}
<h3>Test</h3>
${test}
${sections}`;
    return htmlPage(200, this.title, this.side(path, ports), main);
  }
}

/** The operation names of the ports, each once, in port and operation order. */
function operationNames(ports: readonly PortDesc[]): string[] {
  return [...new Set(ports.flatMap((p) => Object.keys(p.operations)))];
}

/**
 * The path's last segment: a link that leads back to the service wherever the handler is mounted.
 */
function relativeSelf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1) || "./";
}

/** The sample request and response of one operation, or why there is none. */
function sampleFor(port: PortDesc, op: OperationDesc, path: string, host: string): Sample | string {
  try {
    if (op.kind === "soap")
      return soapSample(port.protocol === "soap11" ? "1.1" : "1.2", path, host, op);
    return httpSample(port.protocol === "httpGet" ? "GET" : "POST", path, host, op);
  } catch (e) {
    // A type whose sample the writer refuses (none is known): the page says so rather than failing.
    return `No sample could be written: ${(e as Error).message}`;
  }
}

const PROTOCOL_TITLES: Record<PortDesc["protocol"], string> = {
  soap11: "SOAP 1.1",
  soap12: "SOAP 1.2",
  httpGet: "HTTP GET",
  httpPost: "HTTP POST",
};

/** What a port whose WSDL policy asks for MTOM adds to its samples (docs/attachments.md). */
const MTOM_NOTE = `
<p class="mtom">This binding's policy asks for MTOM: its messages travel as <code>multipart/related; type="application/xop+xml"</code> packages, each binary value (xs:base64Binary) of 1 KiB or more an attachment part that an <code>xop:Include href="cid:…"</code> stands for. Plain requests, as below, are taken too; the answers are MTOM packages.</p>`;

/** One binding's samples; titled with its port when several ports share the protocol. */
function sampleSection(
  port: PortDesc,
  sample: Sample | string,
  all: readonly { port: PortDesc; sample: Sample | string }[],
): string {
  const shared = all.filter((s) => s.port.protocol === port.protocol).length > 1;
  const title = PROTOCOL_TITLES[port.protocol] + (shared ? ` (port ${port.name})` : "");
  const head = `<section class="sample" id="${escapeHtml(`${port.protocol}-${port.name}`)}" data-protocol="${port.protocol}">
<h3>${escapeHtml(title)}</h3>`;
  if (typeof sample === "string") return `${head}<p>${escapeHtml(sample)}</p></section>`;
  const msg = (m: { head: string; body: string }, kind: string) =>
    `<pre class="code ${kind}">${sampleHtml(m.body ? `${m.head}\n\n${m.body}` : m.head)}</pre>`;
  return `${head}
<p>The following is a sample ${escapeHtml(title)} request and response. The placeholders shown need to be replaced with actual values; those marked optional may be left out.</p>${port.mtom ? MTOM_NOTE : ""}
${msg(sample.request, "request")}
${sample.response ? msg(sample.response, "response") : "<p>The operation sends no response (one-way).</p>"}
</section>`;
}

/** The parameters' table: from a SOAP port's request body, else from an HTTP port's parameters. */
function parameterTable(ports: readonly PortDesc[], name: string): string {
  const rows: string[] = [];
  const soap = ports.map((p) => p.operations[name]).find((o) => o?.kind === "soap");
  const http = ports.map((p) => p.operations[name]).find((o) => o?.kind === "http");
  if (soap?.kind === "soap" && soap.request) {
    const b = soap.request;
    const fields = b.parts
      ? b.parts.fields
      : b.element.type.k === "complex"
        ? b.element.type.fields
        : [b.element];
    for (const f of fields) rows.push(row(f.name, typeName(f.type), occurrence(f)));
  } else if (http?.kind === "http") {
    for (const p of http.params)
      rows.push(
        row(
          p.name,
          `${p.type.list ? "list of " : ""}${p.type.s}`,
          p.repeated ? "0..unbounded" : p.required ? "1" : "0..1 (optional)",
        ),
      );
  }
  if (rows.length === 0) return "<p>None.</p>";
  return `<table class="params"><tr><th>Name</th><th>Type</th><th>Occurs</th></tr>${rows.join("")}</table>`;
}

const row = (name: string, type: string, occurs: string) =>
  `<tr><td>${escapeHtml(name)}</td><td>${escapeHtml(type)}</td><td>${escapeHtml(occurs)}</td></tr>`;

/** The XSD type shown for a field: the scalar's built-in name, or the complex or array type's. */
function typeName(t: TypeDesc): string {
  if (t.k === "scalar") return `${t.list ? "list of " : ""}${t.s}`;
  return t.name;
}

function occurrence(f: FieldDesc): string {
  const max = f.max === Infinity ? "unbounded" : String(f.max);
  const range = f.min === f.max ? max : `${f.min}..${max}`;
  return `${range}${f.min === 0 ? " (optional)" : ""}${f.nillable ? ", nillable" : ""}`;
}
