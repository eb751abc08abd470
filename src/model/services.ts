/**
 * Maps raw WSDL definitions to services, ports, bindings and logical operations. Operations of the
 * same name across a service's bindings are one logical operation: its typed signature comes from a
 * SOAP document/literal binding when there is one, and the HTTP bindings' string parts are linked
 * to its fields by name.
 */
import { DiagnosticBag, type SourceLocation } from "../diagnostics.js";
import { qnameKey, type QName } from "../parse/qname.js";
import type {
  RawBinding,
  RawBindingIO,
  RawBindingOperation,
  RawDefinitions,
  RawMessage,
  RawPart,
  RawPortType,
  RawPortTypeOperation,
} from "../parse/wsdl.js";
import type {
  Binding,
  BindingOperation,
  BindingProtocol,
  ComplexType,
  DeclaredFault,
  ElementDecl,
  ElementField,
  HttpParameter,
  InputEncoding,
  Mutable,
  Operation,
  OperationResult,
  OutputEncoding,
  Port,
  Service,
  SoapBodyShape,
} from "./model.js";
import { syntheticField, syntheticType } from "./fields.js";
import { ComponentIndex } from "./lenient.js";
import { recovery } from "../recovery.js";
import { locationParameters } from "@wsdl-tsgen/runtime/internal";
import type { SchemaSet } from "./schema-set.js";
import type { EncodedBinding } from "./encoded-limits.js";
import { partField, partType, soapBody, type PartContext } from "./passes/message-parts.js";

interface Indexed {
  readonly messages: ComponentIndex<RawMessage>;
  readonly portTypes: ComponentIndex<RawPortType>;
  readonly bindings: ComponentIndex<RawBinding>;
}

/**
 * The messages, portTypes and bindings by QName. A name declared twice keeps its first declaration,
 * and so does an operation named twice in one portType or binding (WS-I Basic Profile R2304); each
 * other one is a located WSDL_DUPLICATE warning.
 */
function index(definitions: readonly RawDefinitions[], diagnostics: DiagnosticBag): Indexed {
  const messages = new Map<string, RawMessage>();
  const portTypes = new Map<string, RawPortType>();
  const bindings = new Map<string, RawBinding>();
  const first = <T extends Named>(map: Map<string, T>, ns: string, what: string, item: T) => {
    const key = qnameKey({ ns, local: item.name });
    const kept = map.get(key);
    if (kept)
      diagnostics.add(duplicate(`${what} ${item.name}`, `in ${ns || "no namespace"}`, kept, item));
    else map.set(key, item);
  };
  for (const d of definitions) {
    const ns = d.targetNamespace;
    for (const m of d.messages) first(messages, ns, "message", m);
    for (const p of d.portTypes)
      first(portTypes, ns, "portType", { ...p, operations: distinct(p, "portType", diagnostics) });
    for (const b of d.bindings)
      first(bindings, ns, "binding", { ...b, operations: distinct(b, "binding", diagnostics) });
  }
  return {
    messages: new ComponentIndex(messages, "message", "WSDL"),
    portTypes: new ComponentIndex(portTypes, "portType", "WSDL"),
    bindings: new ComponentIndex(bindings, "binding", "WSDL"),
  };
}

interface Named {
  readonly name: string;
  readonly loc: SourceLocation;
}

/** The operations of a portType or binding, the first of each name. */
function distinct<T extends Named>(
  owner: { readonly name: string; readonly operations: readonly T[] },
  what: string,
  diagnostics: DiagnosticBag,
): T[] {
  const kept = new Map<string, T>();
  for (const o of owner.operations) {
    const earlier = kept.get(o.name);
    if (earlier)
      diagnostics.add(duplicate(`operation ${o.name}`, `in ${what} ${owner.name}`, earlier, o));
    else kept.set(o.name, o);
  }
  return [...kept.values()];
}

const duplicate = (what: string, where: string, kept: Named, again: Named) =>
  recovery(
    "WSDL_DUPLICATE",
    `${what} is declared twice ${where}; expected one declaration of each name (WS-I Basic Profile R2304); the first (line ${kept.loc.line}) is read, this one is left out`,
    again.loc,
  );

const EXPECTED = "expected a declaration in this WSDL or one it imports";

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

class ServiceMapper implements PartContext {
  private readonly operations = new Map<string, Mutable<Operation>>();
  private readonly operationOrder: string[] = [];
  private readonly bindingCache = new Map<string, Binding | undefined>();

  constructor(
    private readonly idx: Indexed,
    readonly schemas: SchemaSet,
    readonly diagnostics: DiagnosticBag,
    private readonly defs: RawDefinitions,
    private readonly encoded: EncodedBinding[],
  ) {}

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
          `port ${p.name} uses a binding that is neither SOAP 1.1, SOAP 1.2 nor HTTP; it is left out`,
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
        ports.push({ kind: "port", name: p.name, address: p.address, binding, loc: p.loc });
    }
    return {
      kind: "service",
      name: raw.name,
      doc: raw.doc,
      targetNamespace: this.defs.targetNamespace,
      ports,
      operations: this.operationOrder.map((n) => this.operations.get(n)!),
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
        for (const bop of p.binding.operations) for (const e of bop[direction]) elements.add(e);
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
    if (
      (protocol === "httpGet" || protocol === "httpPost") &&
      !/^(GET|POST)$/i.test(raw.httpVerb ?? "")
    )
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
      const op =
        protocol === "httpGet" || protocol === "httpPost"
          ? this.httpOperation(raw, bop, pop, protocol)
          : this.soapOperation(raw, bop, pop);
      if (op) operations.push(op);
    }
    this.checkDistinct(raw, protocol, operations);
    const binding: Binding = {
      kind: "binding",
      name: { ns: this.defs.targetNamespace, local: raw.name },
      protocol,
      transport: raw.transport,
      style: raw.style,
      verb: protocol === "httpGet" ? "GET" : protocol === "httpPost" ? "POST" : undefined,
      operations,
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
    if (binding.protocol !== "soap11" && binding.protocol !== "soap12") return;
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
  private checkDistinct(
    raw: RawBinding,
    protocol: BindingProtocol,
    operations: readonly BindingOperation[],
  ): void {
    const byRequest = new Map<string, BindingOperation[]>();
    for (const bop of operations) {
      const key = requestKey(protocol, bop);
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

  /**
   * The input or output message `name` of an operation. Declared nowhere: undefined, read as a
   * message without parts (the operation stays callable; a missing output makes its result void).
   */
  private message(name: QName, at: SourceLocation, operation: string): RawMessage | undefined {
    return this.idx.messages.resolve(
      name,
      at,
      this.diagnostics,
      EXPECTED,
      `reading it as a message without parts, so ${operation} sends or receives an empty body there`,
    )?.value;
  }

  private bodyParts(msg: RawMessage | undefined, io: RawBindingIO | undefined): RawPart[] {
    if (!msg) return [];
    const headerParts = new Set(
      (io?.soapHeaders ?? []).filter((h) => h.message.local === msg.name).map((h) => h.part),
    );
    const listed = io?.soapBody?.parts;
    for (const name of listed ?? []) {
      if (msg.parts.some((p) => p.name === name)) continue;
      const parts = msg.parts.map((p) => p.name).join(", ") || "none";
      this.diagnostics.add(
        recovery(
          "WSDL_UNRESOLVED",
          `soap:body parts names ${name}, which message ${msg.name} has no part of; ` +
            `expected one of its parts (${parts}); it is left out`,
          io?.loc ?? msg.loc,
        ),
      );
    }
    return msg.parts.filter((p) => (listed ? listed.includes(p.name) : !headerParts.has(p.name)));
  }

  private soapOperation(
    raw: RawBinding,
    bop: RawBindingOperation,
    pop: RawPortTypeOperation,
  ): BindingOperation | undefined {
    const style = bop.style ?? raw.style ?? "document";
    const inMsg = pop.input && this.message(pop.input.message, pop.input.loc, bop.name);
    const outMsg = pop.output && this.message(pop.output.message, pop.output.loc, bop.name);
    const bodyNs = bop.input?.soapBody?.namespace ?? this.defs.targetNamespace;
    const soapInput = soapBody(
      style,
      this.bodyParts(inMsg, bop.input),
      { ns: bodyNs, local: bop.name },
      this,
    );
    const soapOutput = pop.output
      ? soapBody(
          style,
          this.bodyParts(outMsg, bop.output),
          { ns: bop.output?.soapBody?.namespace ?? bodyNs, local: `${bop.name}Response` },
          this,
        )
      : undefined;
    const operation = this.logical(bop.name, pop, () =>
      this.soapLogical(bop.name, pop, soapInput, soapOutput),
    );
    const enc = (io: RawBindingIO | undefined) => ({
      kind: "soapBody" as const,
      use: io?.soapBody?.use ?? "literal",
      namespace: io?.soapBody?.namespace,
    });
    const faults: DeclaredFault[] = [];
    for (const f of pop.faults) {
      const name = f.name ?? f.message.local;
      const message = this.idx.messages.resolve(
        f.message,
        f.loc,
        this.diagnostics,
        EXPECTED,
        `fault ${name} of ${bop.name} is left out (it arrives as an untyped SoapFault)`,
      )?.value;
      if (!message) continue;
      const part = message.parts[0];
      const element = part?.element && this.schemas.element(part.element, part.loc);
      if (element) faults.push({ kind: "fault", name, element });
      else
        this.diagnostics.warn(
          "WSDL_FAULT_UNTYPED",
          `fault ${name} of ${bop.name}: message ${message.name} has ` +
            `${part ? `part ${part.name} without element=` : "no part"}; ` +
            "expected one part with element=; it arrives as an untyped SoapFault",
          f.loc,
        );
    }
    return {
      kind: "bindingOperation",
      inputHeaders: this.headers(bop, "input"),
      outputHeaders: this.headers(bop, "output"),
      operation,
      soapAction: bop.soapAction,
      style,
      location: undefined,
      inputEncoding: enc(bop.input),
      outputEncoding: pop.output ? enc(bop.output) : { kind: "none" },
      soapInput,
      soapOutput,
      httpParameters: [],
      mimeXmlElement: undefined,
      hasOutput: pop.output !== undefined,
      faults,
    };
  }

  /**
   * The elements of the input's or output's `soap:header`s. A header is an optional extra: one
   * whose message, part or element is not declared, or whose part uses `type=`, is left out with a
   * warning.
   */
  private headers(bop: RawBindingOperation, direction: "input" | "output"): ElementDecl[] {
    const out: ElementDecl[] = [];
    for (const h of bop[direction]?.soapHeaders ?? []) {
      // A defect of the input (what it names is declared nowhere) is a recovery, which strict
      // refuses, reported as every unresolved reference is; a part with type= is valid WSDL this
      // generator does not read as a header.
      const where = `soap:header ${h.message.local}/${h.part} of ${bop.name}`;
      const msg = this.idx.messages.resolve(
        h.message,
        h.loc,
        this.diagnostics,
        EXPECTED,
        `${where} is left out`,
      )?.value;
      if (!msg) continue;
      const part = msg.parts.find((p) => p.name === h.part);
      if (!part) {
        this.diagnostics.add(
          recovery(
            "WSDL_UNRESOLVED",
            `${where}: message ${msg.name} has no part ${h.part}; the header is left out`,
            h.loc,
          ),
        );
        continue;
      }
      if (!part.element) {
        this.diagnostics.warn(
          "WSDL_HEADER_SKIPPED",
          `${where}: part ${h.part} uses type=; expected element= (a header entry is an element); the header is left out`,
          h.loc,
        );
        continue;
      }
      const element = this.schemas.resolveElement(part.element, h.loc, `${where} is left out`);
      if (!element) continue;
      if (!out.includes(element)) out.push(element);
    }
    return out;
  }

  private soapLogical(
    name: string,
    pop: RawPortTypeOperation,
    input: SoapBodyShape,
    output: SoapBodyShape | undefined,
  ): Mutable<Operation> {
    const synthetic = (fields: readonly ElementField[], hint: string): ComplexType => {
      const t = syntheticType(fields, pop.loc);
      this.schemas.nameHints.set(t, hint);
      return t;
    };
    const inputType = (shape: SoapBodyShape): ComplexType => {
      if (shape.kind === "empty") return synthetic([], `${name}Request`);
      if (shape.kind === "rpc" || shape.kind === "parts")
        return synthetic(shape.parts, `${name}Request`);
      const t = shape.element.type;
      if (t.kind === "complex") return t;
      return synthetic(
        [
          syntheticField(shape.element.name, t, shape.element.loc, {
            nillable: shape.element.nillable,
          }),
        ],
        `${name}Request`,
      );
    };
    const resultOf = (shape: SoapBodyShape | undefined): OperationResult => {
      if (!shape || shape.kind === "empty") return { kind: "void" };
      if (shape.kind === "rpc") {
        if (shape.parts.length === 0) return { kind: "void" };
        if (shape.parts.length === 1) return { kind: "unwrapped", field: shape.parts[0]! };
        return { kind: "object", type: synthetic(shape.parts, `${name}Result`) };
      }
      if (shape.kind === "parts")
        return { kind: "object", type: synthetic(shape.parts, `${name}Result`) };
      const t = shape.element.type;
      if (t.kind !== "complex") {
        return {
          kind: "unwrapped",
          field: syntheticField(shape.element.name, t, shape.element.loc, {
            nillable: shape.element.nillable,
          }),
        };
      }
      const plain =
        !t.base &&
        t.attributes.length === 0 &&
        !t.simpleContent &&
        !t.anyElements &&
        !t.anyAttributes;
      const wrapped = input.kind === "element" && input.element.name.local === name;
      if (plain && t.fields.length === 0) return { kind: "void" };
      if (plain && wrapped && t.fields.length === 1)
        return { kind: "unwrapped", field: t.fields[0]! };
      return { kind: "object", type: t };
    };
    return {
      kind: "operation",
      name,
      doc: pop.doc,
      input: inputType(input),
      result: resultOf(output),
      oneWay: pop.output === undefined,
      loc: pop.loc,
    };
  }

  private logical(
    name: string,
    pop: RawPortTypeOperation,
    create: () => Mutable<Operation>,
  ): Operation {
    let op = this.operations.get(name);
    if (!op) {
      op = create();
      this.operations.set(name, op);
      this.operationOrder.push(name);
    }
    return op;
  }

  /**
   * The part an HTTP output with parts but no mime:mimeXml or mime:content is read from (its
   * first), with a recovery warning; undefined when the output has no parts, or declares its media
   * type.
   */
  private undescribedOutput(
    raw: RawBinding,
    bop: RawBindingOperation,
    outMsg: RawMessage | undefined,
  ): string | undefined {
    const part = outMsg?.parts[0];
    if (!part || !bop.output || bop.output.mimeContentType !== undefined) return undefined;
    const how = bop.output.soapBody ? "is described by soap:body" : "has no media type";
    this.diagnostics.add(
      recovery(
        "WSDL_HTTP_INCOMPLETE",
        `the output of ${bop.name} in binding ${raw.name} ${how}; expected mime:mimeXml or mime:content; read as the XML document of its part ${part.name}`,
        bop.output.loc,
      ),
    );
    return part.name;
  }

  /**
   * An HTTP GET/POST binding operation, its parameters linked by name to the logical operation's
   * input fields (see httpParts). What HTTP cannot carry leaves the operation out of this binding
   * with a warning; it stays callable over the service's other bindings.
   */
  private httpOperation(
    raw: RawBinding,
    bop: RawBindingOperation,
    pop: RawPortTypeOperation,
    protocol: "httpGet" | "httpPost",
  ): BindingOperation | undefined {
    const read = this.httpBindingOperation(raw, bop, pop, protocol);
    if (!(read instanceof Skipped)) return read;
    this.diagnostics.warn(
      "WSDL_HTTP_UNSUPPORTED",
      `${bop.name} in HTTP binding ${raw.name}: ${read.why}; the operation is left out of this binding`,
      read.at,
    );
    return undefined;
  }

  private httpBindingOperation(
    raw: RawBinding,
    bop: RawBindingOperation,
    pop: RawPortTypeOperation,
    protocol: "httpGet" | "httpPost",
  ): BindingOperation | Skipped {
    const inputType = bop.input?.mimeContentType;
    if (
      protocol === "httpPost" &&
      inputType !== undefined &&
      !/^application\/x-www-form-urlencoded\b/i.test(inputType)
    ) {
      return new Skipped(
        `the request body is mime:content type="${inputType}"; expected application/x-www-form-urlencoded`,
        bop.input!.loc,
      );
    }
    const inMsg = pop.input && this.message(pop.input.message, pop.input.loc, bop.name);
    const outMsg = pop.output && this.message(pop.output.message, pop.output.loc, bop.name);
    const response = this.httpResponse(raw, bop, outMsg);
    if (response instanceof Skipped) return response;
    const { mimePart, mimeXmlElement } = response;
    const params = this.httpParts(inMsg?.parts ?? []);
    if (typeof params === "string") return new Skipped(params, inMsg?.loc ?? bop.loc);
    const operation = this.logical(bop.name, pop, () =>
      this.httpLogical(bop, pop, params, mimeXmlElement),
    );
    const httpParameters = this.httpParameters(operation, params.list);
    if (httpParameters instanceof Skipped) return httpParameters;
    const result = operation.result;
    if (mimeXmlElement && result.kind === "unwrapped" && !readsAs(mimeXmlElement, result.field))
      return new Skipped(
        `the response element ${mimeXmlElement.name.local} neither is of the type of the operation's result (${result.field.name.local} in its other bindings) nor holds it`,
        bop.output?.loc ?? bop.loc,
      );
    const location = this.httpLocation(raw, bop, httpParameters);
    if (location instanceof Skipped) return location;
    const inputEncoding: InputEncoding = bop.input?.urlReplacement
      ? { kind: "urlReplacement" }
      : protocol === "httpGet" || bop.input?.urlEncoded
        ? { kind: "urlEncoded" }
        : { kind: "mimeContent", contentType: inputType ?? "application/x-www-form-urlencoded" };
    const outputEncoding: OutputEncoding =
      mimePart !== undefined ? { kind: "mimeXml", part: mimePart } : { kind: "none" };
    return {
      kind: "bindingOperation",
      operation,
      soapAction: undefined,
      style: undefined,
      location,
      inputEncoding,
      outputEncoding,
      soapInput: undefined,
      soapOutput: undefined,
      httpParameters,
      mimeXmlElement,
      hasOutput: pop.output !== undefined,
      faults: [],
      inputHeaders: [],
      outputHeaders: [],
    };
  }

  /**
   * The response document of an HTTP operation: the part it is read from (mime:mimeXml, or
   * mime:content with an XML media type, or a recovery) and that part's element.
   */
  private httpResponse(
    raw: RawBinding,
    bop: RawBindingOperation,
    outMsg: RawMessage | undefined,
  ): { mimePart: string | undefined; mimeXmlElement: ElementDecl | undefined } | Skipped {
    const xmlContent =
      bop.output?.mimeContentType !== undefined &&
      /^(text|application)\/([\w.+-]+\+)?xml\b/i.test(bop.output.mimeContentType);
    const mimePart =
      bop.output?.mimeXmlPart ?? (xmlContent ? (bop.output?.mimeContentPart ?? "") : undefined);
    // A response that is not XML (an image, say) would be dropped: leave the operation out, saying
    // so.
    if (
      mimePart === undefined &&
      bop.output?.mimeContentType !== undefined &&
      outMsg &&
      outMsg.parts.length > 0
    ) {
      return new Skipped(
        `the response is mime:content type="${bop.output.mimeContentType}", which is not XML; expected mime:mimeXml or an XML media type`,
        bop.output.loc,
      );
    }
    const partName = mimePart ?? this.undescribedOutput(raw, bop, outMsg);
    if (partName === undefined || !outMsg) return { mimePart, mimeXmlElement: undefined };
    const part = outMsg.parts.find((p) => p.name === partName) ?? outMsg.parts[0];
    if (!part) return { mimePart, mimeXmlElement: undefined };
    if (!part.element)
      return new Skipped(
        `the response part ${part.name} has no element attribute; expected the element of the response document`,
        part.loc,
      );
    return { mimePart, mimeXmlElement: this.schemas.element(part.element, part.loc) };
  }

  /**
   * The logical operation an HTTP binding operation declares first: its input from the parameters.
   */
  private httpLogical(
    bop: RawBindingOperation,
    pop: RawPortTypeOperation,
    params: { list: { name: string; field: ElementField }[]; wrapper?: ComplexType },
    mimeXmlElement: ElementDecl | undefined,
  ): Mutable<Operation> {
    const input: ComplexType =
      params.wrapper ??
      syntheticType(
        params.list.map((p) => p.field),
        pop.loc,
      );
    if (!params.wrapper) this.schemas.nameHints.set(input, `${bop.name}Request`);
    const result: OperationResult = mimeXmlElement
      ? {
          kind: "unwrapped",
          field: syntheticField(mimeXmlElement.name, mimeXmlElement.type, mimeXmlElement.loc, {
            minOccurs: 0,
            nillable: mimeXmlElement.nillable,
          }),
        }
      : { kind: "void" };
    return {
      kind: "operation",
      name: bop.name,
      doc: pop.doc,
      input,
      result,
      oneWay: false,
      loc: pop.loc,
    };
  }

  /** The HTTP parameters, each linked by name to an input field of the logical operation. */
  private httpParameters(
    operation: Operation,
    list: readonly { name: string; field: ElementField }[],
  ): HttpParameter[] | Skipped {
    const httpParameters: HttpParameter[] = [];
    for (const p of list) {
      const field =
        operation.input.fields.find((f) => f.name.local === p.name) ??
        operation.input.fields.find((f) => f.name.local.toLowerCase() === p.name.toLowerCase());
      if (!field)
        return new Skipped(
          `the HTTP parameter ${p.name} matches no input field of the operation's other bindings`,
          p.field.loc,
        );
      if (field.type.kind === "complex")
        return new Skipped(
          `the HTTP parameter ${p.name} carries the structured field ${field.name.local}; expected a simple type (HTTP bindings send name=value pairs)`,
          p.field.loc,
        );
      httpParameters.push({ kind: "httpParameter", name: p.name, field });
    }
    return httpParameters;
  }

  /**
   * The operation's location (`/Name` when http:operation has none, with a recovery warning); with
   * http:urlReplacement, every parameter has its place in it and every place names a parameter.
   */
  private httpLocation(
    raw: RawBinding,
    bop: RawBindingOperation,
    httpParameters: readonly HttpParameter[],
  ): string | Skipped {
    const location = bop.httpLocation ?? `/${bop.name}`;
    if (bop.httpLocation === undefined)
      this.diagnostics.add(
        recovery(
          "WSDL_HTTP_INCOMPLETE",
          `http:operation of ${bop.name} in binding ${raw.name} has no location; expected the operation's path; read as ${location}`,
          bop.httpOperationLoc ?? bop.loc,
        ),
      );
    if (!bop.input?.urlReplacement) return location;
    const named = locationParameters(location);
    const unplaced = httpParameters.find((p) => !named.includes(p.name));
    if (unplaced)
      return new Skipped(
        `http:urlReplacement: the parameter ${unplaced.name} has no (${unplaced.name}) in the location "${location}"`,
        bop.input.loc,
      );
    const unknown = named.find((n) => !httpParameters.some((p) => p.name === n));
    if (unknown !== undefined)
      return new Skipped(
        `http:urlReplacement: the location "${location}" names (${unknown}), which is no parameter of the operation`,
        bop.input.loc,
      );
    if (httpParameters.some((p) => p.field.maxOccurs > 1))
      return new Skipped(
        "http:urlReplacement: a repeated parameter has no single place in the location",
        bop.input.loc,
      );
    return location;
  }

  /**
   * The name=value parameters of an HTTP request message, or why it has none that HTTP can carry.
   * `wrapper` is set when the message is one element part whose complex type's children are the
   * parameters: that type is then the operation's input.
   */
  private httpParts(
    parts: readonly RawPart[],
  ): { list: { name: string; field: ElementField }[]; wrapper?: ComplexType } | string {
    const list: { name: string; field: ElementField }[] = [];
    let wrapper: ComplexType | undefined;
    for (const part of parts) {
      const decl = part.element ? this.schemas.element(part.element, part.loc) : undefined;
      const t = decl ? decl.type : partType(part, this);
      if (t.kind !== "complex") {
        list.push({ name: part.name, field: partField(part, this) });
        continue;
      }
      const flat =
        decl &&
        !t.base &&
        t.attributes.length === 0 &&
        !t.simpleContent &&
        !t.anyElements &&
        !t.anyAttributes &&
        !t.mixed;
      if (!flat || t.fields.some((f) => f.choice !== undefined || f.type.kind === "complex")) {
        return `the part ${part.name} is of the structured type ${t.name?.local ?? decl?.name.local ?? "(anonymous)"}; expected simple types or an element whose children are simple`;
      }
      for (const f of t.fields) list.push({ name: f.name.local, field: f });
      if (parts.length === 1) wrapper = t;
    }
    return wrapper ? { list, wrapper } : { list };
  }
}

/** Why an HTTP binding operation is left out of its binding, and where (see httpOperation). */
class Skipped {
  constructor(
    readonly why: string,
    readonly at: SourceLocation,
  ) {}
}

/**
 * Whether an HTTP response document `element` reads as the typed result `field` of the operation's
 * other bindings: it is of the result's type, it is an array of the result's items (ASMX's
 * `ArrayOfString` for a `string[]`), or it holds the result (the SOAP response element, as spyne's
 * HTTP bindings answer). Any other element could not be read as the typed result.
 */
function readsAs(element: ElementDecl, field: ElementField): boolean {
  const t = element.type;
  if (t === field.type) return true;
  if (t.kind !== "complex") return false;
  if (t.fields.includes(field)) return true;
  const only = t.fields.length === 1 ? t.fields[0]! : undefined;
  return (
    field.maxOccurs > 1 && only !== undefined && only.maxOccurs > 1 && only.type === field.type
  );
}

/** What a SOAP request's Body holds, as routing sees it: its (first) element, or nothing. */
function requestBody(shape: SoapBodyShape | undefined): string {
  if (shape === undefined || shape.kind === "empty") return "an empty body";
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
export function requestKey(protocol: BindingProtocol, bop: BindingOperation): string {
  return protocol === "httpGet" || protocol === "httpPost"
    ? `location ${JSON.stringify(bop.location ?? `/${bop.operation.name}`)}`
    : `SOAPAction ${JSON.stringify(bop.soapAction ?? "")} and ${requestBody(bop.soapInput)}`;
}
