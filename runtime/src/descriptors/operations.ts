/** Descriptors of a service's ports and operations, as generated code declares them. */
import type { BodyDesc, ComplexDesc, FieldDesc, ScalarDesc } from "./types.js";
import type { SoapFault, SoapFaultInit } from "../errors.js";

/** A declared fault: the element its detail carries, and the generated class that stands for it. */
export interface FaultDesc {
  readonly name: string;
  readonly element: FieldDesc;
  /** The generated subclass of SoapFault; `create` builds one from a received fault. */
  readonly type: abstract new (...args: never[]) => SoapFault;
  create(init: SoapFaultInit, detail: unknown): SoapFault;
  /** The typed detail of a thrown instance. */
  detailOf(fault: SoapFault): unknown;
}

export type Protocol = "soap11" | "soap12" | "httpGet" | "httpPost";

export interface SoapOperationDesc {
  readonly kind: "soap";
  /** The SOAPAction (SOAP 1.1 header; SOAP 1.2 `action` parameter). */
  readonly action: string | undefined;
  /** Undefined for an empty request body. */
  readonly request: BodyDesc | undefined;
  /** Undefined for an empty response body or a one-way operation. */
  readonly response: BodyDesc | undefined;
  /** No response message (absent: false). */
  readonly oneWay?: boolean;
  /** The declared faults. */
  readonly faults?: readonly FaultDesc[];
  /**
   * The SOAP header entries the request carries: properties of the service's `soapHeaders` type.
   */
  readonly headers?: readonly string[];
  /** The SOAP header entries the response carries, the same way. */
  readonly responseHeaders?: readonly string[];
  /**
   * SOAP with Attachments: the request's attachment parts, each a `Uint8Array` property of the
   * input sent as a MIME part beside the envelope (absent: none).
   */
  readonly attachments?: readonly AttachmentDesc[];
  /** The response's attachment parts, properties of the result the same way. */
  readonly responseAttachments?: readonly AttachmentDesc[];
}

/** An attachment part (WS-I Attachments Profile): its message part's name and content type. */
export interface AttachmentDesc {
  /** The message part's name: the value's property and the Content-ID's `name=` prefix. */
  readonly part: string;
  /** The Content-Type the part is sent with (the first the WSDL allows). */
  readonly type: string;
}

export interface HttpParamDesc {
  /** The query or form parameter name. */
  readonly name: string;
  /** The property of the typed input it carries. */
  readonly prop: string;
  readonly type: ScalarDesc;
  /** False when the parameter may be left out (its typed field is optional and not a string). */
  readonly required: boolean;
  readonly repeated: boolean;
}

export interface HttpOperationDesc {
  readonly kind: "http";
  /** Relative to the port address, e.g. `/GetMessages`. */
  readonly location: string;
  /**
   * `http:urlReplacement`: the parameters travel in the location, each (percent-encoded) in place
   * of its `(name)` (`/quote/(symbol)` → `/quote/MSFT`), not in a query or form.
   */
  readonly replace?: boolean;
  readonly params: readonly HttpParamDesc[];
  /** The `mime:mimeXml` response document; undefined when the response has no body. */
  readonly response: BodyDesc | undefined;
}

export type OperationDesc = SoapOperationDesc | HttpOperationDesc;

/** A port's operations by WSDL operation name; ports whose tables are equal may share one. */
export type OperationTable = Readonly<Record<string, OperationDesc>>;

export interface PortDesc {
  readonly name: string;
  readonly protocol: Protocol;
  /** The address the WSDL gives. */
  readonly address: string;
  readonly operations: OperationTable;
  /** SOAP encoding (use="encoded") in some operation: multi-references (`href="#id"`) are read. */
  readonly encoded?: boolean;
  /**
   * The WSDL's policy asks for MTOM on this binding (`wsoma:OptimizedMimeSerialization`): clients
   * send, and servers answer, MTOM packages unless their options say otherwise.
   */
  readonly mtom?: boolean;
}

/**
 * A service's descriptor. Its type parameters carry the TypeScript side of the contract, which the
 * generated code writes out: `Ops`, the operations by method name with their typed inputs and
 * results (`OperationTypes`); `Port`, the port names; `Headers`, the forms of the typed SOAP
 * header bag. The generated client and implementation types are mapped from them (`Client`,
 * `Implementation`), so that generated code holds no cast.
 */
export interface ServiceDesc<
  Ops extends OperationsOf<Ops> = Readonly<Record<string, OperationTypes>>,
  Port extends string = string,
  Headers extends SoapHeaderForms | undefined = SoapHeaderForms | undefined,
> {
  readonly name: string;
  readonly targetNamespace: string;
  readonly ports: { readonly [P in Port]: PortDesc };
  /** The port a client uses when none is chosen: the first SOAP 1.1 port ("" when none). */
  readonly defaultPort: Port | "";
  /**
   * The typed bag of SOAP headers: one optional field per header element of the service (request
   * and response).
   */
  readonly soapHeaders?: ComplexDesc;
  /** The WSDL operation each method of the client and of the implementation stands for. */
  readonly methods: { readonly [M in keyof Ops]: string };
  /**
   * Never set: it only ties the header forms to the descriptor's type (the operations and ports
   * are tied by `methods` and `ports`).
   */
  readonly headerForms?: Headers;
}

/** The TypeScript forms of one operation's message values, as generated code declares them. */
export interface OperationTypes {
  /** What a client sends: the input form (dates also as `Date`, big integers also as numbers). */
  readonly input: unknown;
  /** What a client's call resolves to: the value form. */
  readonly output: unknown;
  /** What an implementation receives: the value form. */
  readonly serverInput: unknown;
  /** What an implementation returns: the input form. */
  readonly serverOutput: unknown;
  /**
   * Set where the result is, or wraps, one repeated element: one item of it, in the input form. An
   * implementation may then return an iterable of them, streamed as it comes (server/stream.ts).
   */
  readonly serverItem?: unknown;
  /**
   * Set where the result is, or wraps, one repeated element: one item of it, in the value form. A
   * client may then iterate the result's items as they arrive (`client.stream`: client/stream.ts).
   */
  readonly item?: unknown;
}

/** A service's operations by method name, each with its `OperationTypes`. */
export type OperationsOf<Ops> = { readonly [M in keyof Ops]: OperationTypes };

/** A service's typed SOAP header bag as decoded (`value`) and as written (`input`). */
export interface SoapHeaderForms<Value extends object = object, Input extends object = Value> {
  readonly value: Value;
  readonly input: Input;
}

/**
 * A message body as generated code writes it: a `BodyDesc`, or only its element's field when that
 * is all it says (`request: field("AddCampaignsRequest", AddCampaignsRequest)`).
 */
export type BodyInit = BodyDesc | FieldDesc;

/**
 * A SOAP operation as generated code writes it: `kind` implied by its table, bodies as `BodyInit`.
 */
export interface SoapOperationInit extends Omit<
  SoapOperationDesc,
  "kind" | "request" | "response"
> {
  readonly request: BodyInit | undefined;
  readonly response: BodyInit | undefined;
}

/** An HTTP GET/POST operation as generated code writes it, the same way. */
export interface HttpOperationInit extends Omit<HttpOperationDesc, "kind" | "response"> {
  readonly response: BodyInit | undefined;
}

/** A body's `BodyDesc`: a lone field is its element. */
function bodyOf(body: BodyInit | undefined): BodyDesc | undefined {
  return body === undefined || "element" in body ? body : { element: body };
}

/** The operation table of a SOAP 1.1 or 1.2 port, by WSDL operation name. */
export function soapOperations(table: Readonly<Record<string, SoapOperationInit>>): OperationTable {
  const out: Record<string, SoapOperationDesc> = {};
  for (const [name, op] of Object.entries(table))
    out[name] = {
      kind: "soap",
      ...op,
      request: bodyOf(op.request),
      response: bodyOf(op.response),
    };
  return out;
}

/** The operation table of an HTTP GET or POST port, by WSDL operation name. */
export function httpOperations(table: Readonly<Record<string, HttpOperationInit>>): OperationTable {
  const out: Record<string, HttpOperationDesc> = {};
  for (const [name, op] of Object.entries(table))
    out[name] = { kind: "http", ...op, response: bodyOf(op.response) };
  return out;
}

/** What an HTTP parameter states where it differs from the commonest: see `param`. */
export interface ParamOptions {
  /** The property of the typed input, when it is not the parameter's name. */
  readonly prop?: string;
  /** False when the parameter may be left out; true by default. */
  readonly required?: boolean;
  /** True when the parameter repeats (one pair per item); false by default. */
  readonly repeated?: boolean;
}

/**
 * An HTTP GET or POST parameter, `param("email", xs.string)`: generated code states only its name,
 * type and the options that differ from a required, single parameter read from the property of its
 * own name.
 */
export function param(name: string, type: ScalarDesc, options: ParamOptions = {}): HttpParamDesc {
  return {
    name,
    prop: options.prop ?? name,
    type,
    required: options.required ?? true,
    repeated: options.repeated ?? false,
  };
}

/** A generated fault class: made from a received fault and its decoded detail, which it keeps. */
export type FaultClass<D> = new (
  init: SoapFaultInit,
  faultDetail: D,
) => SoapFault & {
  readonly faultDetail: D;
};

/**
 * A declared fault: its name, the element its detail carries, and the generated class that stands
 * for it. The class is given the detail as `element`'s descriptor decoded it, so of its type.
 */
export function fault<D>(name: string, element: FieldDesc, type: FaultClass<D>): FaultDesc {
  return {
    name,
    element,
    type,
    create: (init, detail) => new type(init, detail as D),
    detailOf: (f) => (f as InstanceType<FaultClass<D>>).faultDetail,
  };
}
