/**
 * The HTTP GET and POST binding reader: a binding operation's parameters (linked by name to the
 * logical operation's input fields), location, request encoding and response document, and the
 * logical operation an HTTP binding declares when no SOAP binding did, for services.ts.
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics.js";
import type {
  RawBinding,
  RawBindingOperation,
  RawMessage,
  RawPart,
  RawPortTypeOperation,
} from "../parse/wsdl.js";
import type {
  ComplexType,
  ElementDecl,
  ElementField,
  HttpBindingOperation,
  HttpInputEncoding,
  HttpOutputEncoding,
  HttpParameter,
  HttpProtocol,
  Mutable,
  Operation,
  OperationResult,
} from "./model.js";
import { syntheticField, syntheticType } from "./fields.js";
import { recovery } from "../recovery.js";
import { locationParameters } from "@wsdl-tsgen/runtime/internal";
import { partField, partType } from "./rules/message-parts.js";
import { BindingReader } from "./binding-common.js";

/** Reads HTTP binding operations (see BindingReader for what it shares with SOAP's reader). */
export class HttpBindingReader extends BindingReader {
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
  httpOperation(
    raw: RawBinding,
    bop: RawBindingOperation,
    pop: RawPortTypeOperation,
    protocol: HttpProtocol,
  ): HttpBindingOperation | undefined {
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
    protocol: HttpProtocol,
  ): HttpBindingOperation | Skipped {
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
    if (operation.attachments)
      return new Skipped(
        "the operation's SOAP binding carries attachment parts (SOAP with Attachments), which an HTTP binding cannot send",
        bop.loc,
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
    const inputEncoding: HttpInputEncoding = bop.input?.urlReplacement
      ? { kind: "urlReplacement" }
      : protocol === "httpGet" || bop.input?.urlEncoded
        ? { kind: "urlEncoded" }
        : { kind: "mimeContent", contentType: inputType ?? "application/x-www-form-urlencoded" };
    const outputEncoding: HttpOutputEncoding =
      mimePart !== undefined ? { kind: "mimeXml", part: mimePart } : { kind: "none" };
    return {
      kind: "bindingOperation",
      protocol,
      operation,
      location,
      inputEncoding,
      outputEncoding,
      httpParameters,
      mimeXmlElement,
      hasOutput: pop.output !== undefined,
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
    const part = responsePart(this.diagnostics, bop, outMsg, partName);
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

/**
 * The part named `partName` (or, unnamed, the only one); a name no part has, or no name among
 * several parts, is read as the first part, said.
 */
function responsePart(
  diagnostics: DiagnosticBag,
  bop: RawBindingOperation,
  outMsg: RawMessage,
  partName: string,
) {
  const named = outMsg.parts.find((p) => p.name === partName);
  if (named || (partName === "" && outMsg.parts.length <= 1)) return named ?? outMsg.parts[0];
  const first = outMsg.parts[0];
  if (first)
    diagnostics.warn(
      "WSDL_UNRESOLVED",
      partName === ""
        ? `the output of ${bop.name} names no part of message ${outMsg.name}, which has ${outMsg.parts.length}; expected part="…"; read as its first part, ${first.name}`
        : `the output of ${bop.name} names part ${partName}, which message ${outMsg.name} does not have; expected one of ${outMsg.parts.map((p) => p.name).join(", ")}; read as its first part`,
      bop.output?.loc ?? bop.loc,
    );
  return first;
}
