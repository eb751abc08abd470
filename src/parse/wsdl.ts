/**
 * Stage one for WSDL 1.1: a faithful, located object form of one `wsdl:definitions` document,
 * with the SOAP 1.1, SOAP 1.2, HTTP and MIME binding extensions read as they are written.
 */
import type { XmlElement } from "./dom.js";
import { fail, type Diagnostic, type SourceLocation } from "../diagnostics.js";
import { recovery } from "../recovery.js";
import { NS } from "./namespaces.js";
import { resolveQNameValue, type QName } from "./qname.js";
import { documentation, opt, readSchema, type RawSchema } from "./xsd.js";
import { attr, locOf } from "./xml.js";

export interface RawDefinitions {
  readonly kind: "definitions";
  readonly file: string;
  readonly targetNamespace: string;
  readonly name?: string;
  readonly doc?: string;
  readonly imports: readonly {
    readonly namespace?: string;
    readonly location: string;
    readonly loc: SourceLocation;
  }[];
  readonly schemas: readonly RawSchema[];
  readonly messages: readonly RawMessage[];
  readonly portTypes: readonly RawPortType[];
  readonly bindings: readonly RawBinding[];
  readonly services: readonly RawService[];
  readonly loc: SourceLocation;
}

export interface RawPart {
  readonly name: string;
  readonly element?: QName;
  readonly type?: QName;
  readonly loc: SourceLocation;
}

export interface RawMessage {
  readonly name: string;
  readonly parts: readonly RawPart[];
  readonly loc: SourceLocation;
}

export interface RawOperationIO {
  readonly name?: string;
  readonly message: QName;
  readonly loc: SourceLocation;
}

export interface RawPortTypeOperation {
  readonly name: string;
  readonly doc?: string;
  readonly input?: RawOperationIO;
  readonly output?: RawOperationIO;
  readonly faults: readonly RawOperationIO[];
  readonly loc: SourceLocation;
}

export interface RawPortType {
  readonly name: string;
  readonly operations: readonly RawPortTypeOperation[];
  readonly loc: SourceLocation;
}

export interface RawSoapBody {
  readonly use: "literal" | "encoded";
  readonly namespace?: string;
  readonly parts?: readonly string[];
  readonly encodingStyle?: string;
}

export interface RawSoapHeader {
  readonly message: QName;
  readonly part: string;
  readonly use: "literal" | "encoded";
  readonly namespace?: string;
  readonly loc: SourceLocation;
}

/** One `wsdl:input`, `wsdl:output` or `wsdl:fault` of a binding operation, with its extensions. */
export interface RawBindingIO {
  readonly name?: string;
  readonly soapBody?: RawSoapBody;
  readonly soapHeaders: readonly RawSoapHeader[];
  readonly soapFault?: { readonly name?: string; readonly use: "literal" | "encoded" };
  readonly urlEncoded: boolean;
  readonly urlReplacement: boolean;
  readonly mimeContentType?: string;
  /** The `part` attribute of `mime:content`, when given. */
  readonly mimeContentPart?: string;
  readonly mimeXmlPart?: string;
  readonly loc: SourceLocation;
}

export type RawBindingProtocol = "soap11" | "soap12" | "http" | "other";

export interface RawBindingOperation {
  readonly name: string;
  readonly soapAction?: string;
  readonly style?: "document" | "rpc";
  readonly httpLocation?: string;
  /** Where its http:operation stands, when it has one. */
  readonly httpOperationLoc?: SourceLocation;
  readonly input?: RawBindingIO;
  readonly output?: RawBindingIO;
  readonly faults: readonly RawBindingIO[];
  readonly loc: SourceLocation;
}

export interface RawBinding {
  readonly name: string;
  readonly type: QName;
  readonly protocol: RawBindingProtocol;
  readonly style?: "document" | "rpc";
  readonly transport?: string;
  readonly httpVerb?: string;
  /** Where its http:binding stands, when it has one. */
  readonly httpLoc?: SourceLocation;
  readonly operations: readonly RawBindingOperation[];
  readonly loc: SourceLocation;
}

export interface RawPort {
  readonly name: string;
  readonly binding: QName;
  readonly address?: string;
  readonly addressProtocol?: RawBindingProtocol;
  readonly loc: SourceLocation;
}

export interface RawService {
  readonly name: string;
  readonly doc?: string;
  readonly ports: readonly RawPort[];
  readonly loc: SourceLocation;
}

const protocolOf = (ns: string | null): RawBindingProtocol =>
  ns === NS.soap11 ? "soap11" : ns === NS.soap12 ? "soap12" : ns === NS.http ? "http" : "other";

const isSoap = (el: XmlElement): boolean =>
  el.namespaceURI === NS.soap11 || el.namespaceURI === NS.soap12;

/** Reads one `wsdl:definitions` document element. */
export function readDefinitions(
  root: XmlElement,
  file: string,
  warnings: Diagnostic[] = [],
): RawDefinitions {
  if (root.namespaceURI !== NS.wsdl || root.localName !== "definitions") {
    fail(
      "WSDL_NOT_DEFINITIONS",
      `the root element is {${root.namespaceURI ?? ""}}${root.localName}; expected wsdl:definitions in ${NS.wsdl}`,
      locOf(file, root),
    );
  }
  const loc = (e: XmlElement) => locOf(file, e);
  const required = (e: XmlElement, name: string): string => {
    const v = attr(e, name)?.trim();
    if (v === undefined || v === "") {
      fail(
        "WSDL_MISSING_ATTRIBUTE",
        `${e.tagName} has no ${name} attribute; expected ${name}="…"`,
        loc(e),
      );
    }
    return v;
  };
  const qreq = (e: XmlElement, name: string): QName => resolveQNameValue(e, required(e, name));
  const qopt = (e: XmlElement, name: string): QName | undefined => {
    const v = attr(e, name);
    return v === undefined ? undefined : resolveQNameValue(e, v);
  };
  const wsdlChildren = (e: XmlElement, local: string) =>
    e.elements.filter((c) => c.namespaceURI === NS.wsdl && c.localName === local);
  const use = (e: XmlElement): "literal" | "encoded" =>
    attr(e, "use") === "encoded" ? "encoded" : "literal";

  const readIO = (e: XmlElement): RawOperationIO => ({
    ...opt("name", attr(e, "name")),
    message: qreq(e, "message"),
    loc: loc(e),
  });

  const readBindingIO = (e: XmlElement): RawBindingIO => {
    let soapBody: RawSoapBody | undefined;
    const soapHeaders: RawSoapHeader[] = [];
    let soapFault: RawBindingIO["soapFault"];
    let urlEncoded = false;
    let urlReplacement = false;
    let mimeContentType: string | undefined;
    let mimeContentPart: string | undefined;
    let mimeXmlPart: string | undefined;
    for (const c of e.elements) {
      if (isSoap(c) && c.localName === "body") {
        soapBody = {
          use: use(c),
          ...opt("namespace", attr(c, "namespace")),
          ...opt("parts", attr(c, "parts")?.split(/\s+/).filter(Boolean)),
          ...opt("encodingStyle", attr(c, "encodingStyle")),
        };
      } else if (isSoap(c) && c.localName === "header") {
        soapHeaders.push({
          message: qreq(c, "message"),
          part: required(c, "part"),
          use: use(c),
          ...opt("namespace", attr(c, "namespace")),
          loc: loc(c),
        });
      } else if (isSoap(c) && c.localName === "fault") {
        soapFault = { ...opt("name", attr(c, "name")), use: use(c) };
      } else if (c.namespaceURI === NS.http && c.localName === "urlEncoded") {
        urlEncoded = true;
      } else if (c.namespaceURI === NS.http && c.localName === "urlReplacement") {
        urlReplacement = true;
      } else if (c.namespaceURI === NS.mime && c.localName === "content") {
        mimeContentType = attr(c, "type");
        mimeContentPart = attr(c, "part");
      } else if (c.namespaceURI === NS.mime && c.localName === "mimeXml") {
        mimeXmlPart = attr(c, "part") ?? "";
      } else if (c.namespaceURI === NS.mime && c.localName === "multipartRelated") {
        // MIME multipart: the SOAP part carries the soap:body.
        for (const part of c.elements) {
          for (const inner of part.elements) {
            if (isSoap(inner) && inner.localName === "body") {
              soapBody = {
                use: use(inner),
                ...opt("namespace", attr(inner, "namespace")),
                ...opt("parts", attr(inner, "parts")?.split(/\s+/).filter(Boolean)),
              };
            }
          }
        }
      }
    }
    return {
      ...opt("name", attr(e, "name")),
      ...opt("soapBody", soapBody),
      soapHeaders,
      ...opt("soapFault", soapFault),
      urlEncoded,
      urlReplacement,
      ...opt("mimeContentType", mimeContentType),
      ...opt("mimeContentPart", mimeContentPart),
      ...opt("mimeXmlPart", mimeXmlPart),
      loc: loc(e),
    };
  };

  const styleOf = (v: string | undefined): "document" | "rpc" | undefined =>
    v === "rpc" ? "rpc" : v === "document" ? "document" : undefined;

  const readBinding = (e: XmlElement): RawBinding => {
    let protocol: RawBindingProtocol = "other";
    let style: "document" | "rpc" | undefined;
    let transport: string | undefined;
    let httpVerb: string | undefined;
    let httpLoc: SourceLocation | undefined;
    for (const c of e.elements) {
      if (c.localName === "binding" && c.namespaceURI !== NS.wsdl) {
        protocol = protocolOf(c.namespaceURI);
        style = styleOf(attr(c, "style"));
        transport = attr(c, "transport");
        httpVerb = attr(c, "verb");
        if (c.namespaceURI === NS.http) httpLoc = loc(c);
      }
    }
    const operations = wsdlChildren(e, "operation").map((o): RawBindingOperation => {
      let soapAction: string | undefined;
      let opStyle: "document" | "rpc" | undefined;
      let httpLocation: string | undefined;
      let httpOperationLoc: SourceLocation | undefined;
      for (const c of o.elements) {
        if (isSoap(c) && c.localName === "operation") {
          soapAction = attr(c, "soapAction");
          opStyle = styleOf(attr(c, "style"));
        } else if (c.namespaceURI === NS.http && c.localName === "operation") {
          httpLocation = attr(c, "location");
          httpOperationLoc = loc(c);
        }
      }
      const input = wsdlChildren(o, "input")[0];
      const output = wsdlChildren(o, "output")[0];
      return {
        name: required(o, "name"),
        ...opt("soapAction", soapAction),
        ...opt("style", opStyle),
        ...opt("httpLocation", httpLocation),
        ...opt("httpOperationLoc", httpOperationLoc),
        ...opt("input", input && readBindingIO(input)),
        ...opt("output", output && readBindingIO(output)),
        faults: wsdlChildren(o, "fault").map(readBindingIO),
        loc: loc(o),
      };
    });
    return {
      name: required(e, "name"),
      type: qreq(e, "type"),
      protocol,
      ...opt("style", style),
      ...opt("transport", transport),
      ...opt("httpVerb", httpVerb),
      ...opt("httpLoc", httpLoc),
      operations,
      loc: loc(e),
    };
  };

  const schemas: RawSchema[] = [];
  for (const types of wsdlChildren(root, "types")) {
    for (const c of types.elements) {
      if (c.namespaceURI === NS.xsd && c.localName === "schema")
        schemas.push(readSchema(c, file, warnings));
      // (The pre-2001 XML Schema namespaces never get here: parseXmlDocument reads them as XML Schema's.)
      else if (c.localName === "schema") {
        warnings.push(
          recovery(
            "XSD_SCHEMA_NAMESPACE",
            `this schema element is in namespace "${c.namespaceURI ?? ""}", not XML Schema's (${NS.xsd}); it is left out, so what it declares is unresolved`,
            loc(c),
          ),
        );
      }
    }
  }

  return {
    kind: "definitions",
    file,
    targetNamespace: attr(root, "targetNamespace") ?? "",
    ...opt("name", attr(root, "name")),
    ...opt("doc", documentation(root)),
    imports: wsdlChildren(root, "import").map((e) => ({
      ...opt("namespace", attr(e, "namespace")),
      location: required(e, "location"),
      loc: loc(e),
    })),
    schemas,
    messages: wsdlChildren(root, "message").map((e) => ({
      name: required(e, "name"),
      parts: wsdlChildren(e, "part").map((p) => ({
        name: required(p, "name"),
        ...opt("element", qopt(p, "element")),
        ...opt("type", qopt(p, "type")),
        loc: loc(p),
      })),
      loc: loc(e),
    })),
    portTypes: wsdlChildren(root, "portType").map((e) => ({
      name: required(e, "name"),
      operations: wsdlChildren(e, "operation").map((o) => {
        const input = wsdlChildren(o, "input")[0];
        const output = wsdlChildren(o, "output")[0];
        return {
          name: required(o, "name"),
          ...opt("doc", documentation(o)),
          ...opt("input", input && readIO(input)),
          ...opt("output", output && readIO(output)),
          faults: wsdlChildren(o, "fault").map(readIO),
          loc: loc(o),
        };
      }),
      loc: loc(e),
    })),
    bindings: wsdlChildren(root, "binding").map(readBinding),
    services: wsdlChildren(root, "service").map((e) => ({
      name: required(e, "name"),
      ...opt("doc", documentation(e)),
      ports: wsdlChildren(e, "port").map((p) => {
        const address = p.elements.find(
          (c) => c.localName === "address" && c.namespaceURI !== NS.wsdl,
        );
        return {
          name: required(p, "name"),
          binding: qreq(p, "binding"),
          ...opt("address", address && attr(address, "location")),
          ...opt("addressProtocol", address && protocolOf(address.namespaceURI)),
          loc: loc(p),
        };
      }),
      loc: loc(e),
    })),
    loc: loc(root),
  };
}
