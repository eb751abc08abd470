/**
 * Maps raw WSDL definitions to services, ports, bindings and logical operations. Operations of the
 * same name across a service's bindings are one logical operation: its typed signature comes from a
 * SOAP document/literal binding when there is one, and the HTTP bindings' string parts are linked
 * to its fields by name.
 */
import { ifSoap, isHttpProtocol, isSoapProtocol } from "./protocols.js";
import { DiagnosticBag, type SourceLocation } from "../diagnostics.js";
import { qnameKey } from "../parse/qname.js";
import type { RawBinding, RawDefinitions, RawPort } from "../parse/wsdl.js";
import type {
  Binding,
  BindingOperation,
  BindingProtocol,
  ComplexType,
  ElementDecl,
  Port,
  Service,
  SoapBodyShape,
} from "./model.js";
import { syntheticField, syntheticType } from "./fields.js";
import { recovery } from "../recovery.js";
import type { SchemaSet } from "./schema-set.js";
import type { EncodedBinding } from "./encoded-limits.js";
import {
  duplicate,
  EXPECTED,
  index,
  LogicalOperations,
  type Indexed,
  type Named,
} from "./binding-common.js";
import { SoapBindingReader } from "./soap-binding.js";
import { HttpBindingReader } from "./http-binding.js";

const PROTOCOL_ORDER: Record<BindingProtocol, number> = {
  soap11: 0,
  soap12: 1,
  httpGet: 2,
  httpPost: 3,
};

/** Builds the services of the loaded definitions. */
export function mapServices(
  definitions: readonly RawDefinitions[],
  schemas: SchemaSet,
  diagnostics: DiagnosticBag,
  /** Receives the SOAP bindings that use SOAP encoding. */
  encoded: EncodedBinding[],
): Service[] {
  const idx = index(definitions, diagnostics);
  const services: Service[] = [];
  const seen = new Map<string, Named>();
  for (const d of definitions) {
    for (const rawService of d.services) {
      const kept = seen.get(rawService.name);
      if (kept) {
        diagnostics.add(duplicate(`service ${rawService.name}`, "by name", kept, rawService));
        continue;
      }
      seen.set(rawService.name, rawService);
      services.push(new ServiceMapper(idx, schemas, diagnostics, d, encoded).map(rawService));
    }
  }
  return services;
}
/**
 * A port's address: an absolute http(s) URL as written; a relative one resolved against the URL
 * the WSDL was read from (as .NET does) or kept when it was read from a file; either said.
 */
function portAddress(p: RawPort, file: string, diagnostics: DiagnosticBag): string | undefined {
  const written = p.address?.trim();
  if (written !== undefined && /^https?:\/\//i.test(written) && URL.canParse(written))
    return written;
  const base = /^https?:\/\//i.test(file) ? file : undefined;
  const resolved =
    base && URL.canParse(written ?? "", base) ? new URL(written ?? "", base).href : undefined;
  const found =
    written === undefined
      ? "no address element"
      : `the address location="${written}", which is not an absolute http(s) URL`;
  diagnostics.warn(
    "WSDL_ADDRESS_RELATIVE",
    `port ${p.name} has ${found}; expected an absolute URL such as http://host/path; ${
      resolved !== undefined
        ? `resolved against the URL the WSDL was read from: ${resolved}`
        : "a client of this port must be given an endpoint"
    }`,
    p.loc,
  );
  return resolved ?? written;
}

class ServiceMapper {
  private readonly operations = new LogicalOperations();
  private readonly bindingCache = new Map<string, Binding | undefined>();
  private readonly soap: SoapBindingReader;
  private readonly http: HttpBindingReader;

  constructor(
    private readonly idx: Indexed,
    readonly schemas: SchemaSet,
    readonly diagnostics: DiagnosticBag,
    private readonly defs: RawDefinitions,
    private readonly encoded: EncodedBinding[],
  ) {
    this.soap = new SoapBindingReader(idx, schemas, diagnostics, defs, this.operations);
    this.http = new HttpBindingReader(idx, schemas, diagnostics, defs, this.operations);
  }

  map(raw: RawDefinitions["services"][number]): Service {
    // SOAP bindings define the logical operations first, so that HTTP bindings link to their types.
    const rawPorts = raw.ports
      .map((p) => ({
        p,
        b: this.idx.bindings.resolve(
          p.binding,
          p.loc,
          this.diagnostics,
          `port ${p.name} names it; ${EXPECTED}`,
          `port ${p.name} is left out`,
        )?.value,
      }))
      .filter(({ b }) => b !== undefined);
    const protocolOf = (b: RawBinding): BindingProtocol | undefined =>
      b.protocol === "soap11" || b.protocol === "soap12"
        ? b.protocol
        : b.protocol === "http"
          ? b.httpVerb?.toUpperCase() === "POST"
            ? "httpPost"
            : "httpGet"
          : undefined;
    const ordered = [...rawPorts].sort(
      (x, y) =>
        PROTOCOL_ORDER[protocolOf(x.b!) ?? "httpPost"] -
        PROTOCOL_ORDER[protocolOf(y.b!) ?? "httpPost"],
    );
    const bindings = new Map<string, Binding | undefined>();
    for (const { p, b } of ordered) {
      const protocol = protocolOf(b!);
      if (!protocol) {
        this.diagnostics.warn(
          "WSDL_UNSUPPORTED_BINDING",
          `port ${p.name} uses binding ${b!.name}, whose ${b!.extension ?? "binding extension is missing (no soap:binding, soap12:binding or http:binding)"}${b!.extension ? " is" : ""} neither SOAP 1.1, SOAP 1.2 nor HTTP; expected one of those; the port is left out`,
          p.loc,
        );
        continue;
      }
      bindings.set(p.name, this.binding(b!, protocol));
    }
    const ports: Port[] = [];
    for (const { p } of rawPorts) {
      const binding = bindings.get(p.name);
      if (binding)
        ports.push({
          kind: "port",
          name: p.name,
          address: portAddress(p, this.defs.file, this.diagnostics),
          binding,
          loc: p.loc,
        });
    }
    return {
      kind: "service",
      name: raw.name,
      doc: raw.doc,
      targetNamespace: this.defs.targetNamespace,
      ports,
      operations: this.operations.all(),
      soapHeaders: this.headersType(raw.name, ports, raw.loc),
      loc: raw.loc,
    };
  }

  /**
   * One optional field per distinct header element of the service (request ones first), in order of
   * first use.
   */
  private headersType(
    service: string,
    ports: readonly Port[],
    loc: SourceLocation,
  ): ComplexType | undefined {
    const elements = new Set<ElementDecl>(); // in insertion order
    for (const direction of ["inputHeaders", "outputHeaders"] as const) {
      for (const p of ports)
        for (const bop of p.binding.operations)
          for (const e of ifSoap(bop)?.[direction] ?? []) elements.add(e);
    }
    if (elements.size === 0) return undefined;
    const fields = [...elements].map((e) =>
      syntheticField(e.name, e.type, e.loc, { minOccurs: 0, nillable: e.nillable }),
    );
    const t = syntheticType(fields, loc);
    this.schemas.nameHints.set(t, `${service}SoapHeaders`);
    return t;
  }

  private binding(raw: RawBinding, protocol: BindingProtocol): Binding | undefined {
    const key = qnameKey({ ns: this.defs.targetNamespace, local: raw.name }) + protocol;
    if (this.bindingCache.has(key)) return this.bindingCache.get(key);
    const portType = this.idx.portTypes.resolve(
      raw.type,
      raw.loc,
      this.diagnostics,
      `binding ${raw.name} names it; ${EXPECTED}`,
      `binding ${raw.name} and its ports are left out`,
    )?.value;
    if (!portType) {
      this.bindingCache.set(key, undefined);
      return undefined;
    }
    if (isHttpProtocol(protocol) && !/^(GET|POST)$/i.test(raw.httpVerb ?? ""))
      this.diagnostics.add(
        recovery(
          "WSDL_HTTP_INCOMPLETE",
          `http:binding of binding ${raw.name} has ${raw.httpVerb === undefined ? "no verb" : `verb="${raw.httpVerb}"`}; expected verb="GET" or verb="POST"; read as GET`,
          raw.httpLoc ?? raw.loc,
        ),
      );
    const operations: BindingOperation[] = [];
    for (const bop of raw.operations) {
      const pop = portType.operations.find((o) => o.name === bop.name);
      if (!pop) {
        this.diagnostics.add(
          recovery(
            "WSDL_UNRESOLVED",
            `binding operation ${bop.name} has no operation of that name in portType ${portType.name}; it is left out`,
            bop.loc,
          ),
        );
        continue;
      }
      const op = isHttpProtocol(protocol)
        ? this.http.httpOperation(raw, bop, pop, protocol)
        : this.soap.soapOperation(raw, bop, pop, protocol);
      if (op) operations.push(op);
    }
    this.checkDistinct(raw, operations);
    const binding: Binding = {
      kind: "binding",
      name: { ns: this.defs.targetNamespace, local: raw.name },
      protocol,
      transport: raw.transport,
      style: raw.style,
      verb: protocol === "httpGet" ? "GET" : protocol === "httpPost" ? "POST" : undefined,
      operations,
      ...(raw.mtom && isSoapProtocol(protocol) && { mtom: true }),
      loc: raw.loc,
    };
    this.bindingCache.set(key, binding);
    this.noteEncoded(raw, binding);
    return binding;
  }

  /**
   * Notes a SOAP binding whose operations use SOAP encoding, for the check made once the types in
   * use are known (encoded-limits.ts).
   */
  private noteEncoded(raw: RawBinding, binding: Binding): void {
    if (!isSoapProtocol(binding.protocol)) return;
    const first = raw.operations.find(
      (o) => o.input?.soapBody?.use === "encoded" || o.output?.soapBody?.use === "encoded",
    );
    if (first) this.encoded.push({ binding, loc: first.loc });
  }

  /**
   * Warns of operations of one binding whose requests cannot be told apart on the wire (WS-I Basic
   * Profile R2710): SOAP ones with the same SOAPAction and the same body element (or both an empty
   * body), HTTP ones at the same location. A server answers each such request as the first of them.
   */
  private checkDistinct(raw: RawBinding, operations: readonly BindingOperation[]): void {
    const byRequest = new Map<string, BindingOperation[]>();
    for (const bop of operations) {
      const key = requestKey(bop);
      byRequest.set(key, [...(byRequest.get(key) ?? []), bop]);
    }
    for (const [key, same] of byRequest) {
      if (same.length < 2) continue;
      const names = same.map((b) => b.operation.name);
      const at = raw.operations.find((o) => o.name === names[1])?.loc ?? raw.loc;
      this.diagnostics.warn(
        "WSDL_AMBIGUOUS_OPERATIONS",
        `operations ${names.join(", ")} of binding ${raw.name} take requests that cannot be told apart (the same ${key}); expected each operation's request to differ (WS-I Basic Profile R2710); a server answers them all as ${names[0]}`,
        at,
      );
    }
  }
}

/** What a SOAP request's Body holds, as routing sees it: its (first) element, or nothing. */
function requestBody(shape: SoapBodyShape): string {
  if (shape.kind === "empty") return "an empty body";
  const name =
    shape.kind === "element"
      ? shape.element.name
      : shape.kind === "rpc"
        ? shape.wrapper
        : shape.parts[0]?.name;
  return name === undefined ? "an empty body" : `the body element {${name.ns}}${name.local}`;
}

/**
 * What tells an operation's requests apart on the wire of a binding: an HTTP one's location, a SOAP
 * one's SOAPAction and body. Two operations of one binding with the same key are answered alike.
 */
export function requestKey(bop: BindingOperation): string {
  switch (bop.protocol) {
    case "httpGet":
    case "httpPost":
      return `location ${JSON.stringify(bop.location)}`;
    case "soap11":
    case "soap12":
      return `SOAPAction ${JSON.stringify(bop.soapAction ?? "")} and ${requestBody(bop.soapInput)}`;
  }
}
