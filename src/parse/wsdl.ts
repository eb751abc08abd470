/**
 * Stage one for WSDL 1.1: a faithful, located object form of one `wsdl:definitions` document,
 * with the SOAP 1.1, SOAP 1.2, HTTP and MIME binding extensions read as they are written.
 */
import { XmlElement } from "./dom.js";
import { bindingAsksForMtom } from "./policy.js";
import { fail, type Diagnostic, type SourceLocation } from "../diagnostics.js";
import { recovery } from "../recovery.js";
import { NS } from "./namespaces.js";
import { resolveQNameValue, type QName } from "./qname.js";
import { documentation, opt, readSchema, type RawSchema } from "./xsd.js";
import { oneOf, type ValueContext } from "./enumerated.js";
import { attr, locOf } from "./xml.js";
import { unknownContent } from "./wsdl-content.js";
import { attachmentPart } from "./wsdl-mime.js";
import type {
  RawAttachment,
  RawBinding,
  RawBindingIO,
  RawBindingOperation,
  RawBindingProtocol,
  RawDefinitions,
  RawMessage,
  RawOperationIO,
  RawPortType,
  RawService,
  RawSoapBody,
  RawSoapHeader,
} from "./wsdl-raw.js";

export type * from "./wsdl-raw.js";

const protocolOf = (ns: string | null): RawBindingProtocol =>
  ns === NS.soap11 ? "soap11" : ns === NS.soap12 ? "soap12" : ns === NS.http ? "http" : "other";

const isSoap = (el: XmlElement): boolean =>
  el.namespaceURI === NS.soap11 || el.namespaceURI === NS.soap12;

const wsdlChildren = (e: XmlElement, local: string) =>
  e.elements.filter((c) => c.namespaceURI === NS.wsdl && c.localName === local);

const USES = ["literal", "encoded"] as const;
const STYLES = ["document", "rpc"] as const;

/** Reads one `wsdl:definitions` document element. */
export function readDefinitions(
  root: XmlElement,
  file: string,
  warnings: Diagnostic[] = [],
): RawDefinitions {
  if (root.namespaceURI !== NS.wsdl || root.localName !== "definitions") {
    fail(
      "WSDL_NOT_DEFINITIONS",
      `found the root element {${root.namespaceURI ?? ""}}${root.localName}; expected wsdl:definitions in ${NS.wsdl}`,
      locOf(file, root),
    );
  }
  return new DefinitionsReader(file, warnings).definitions(root);
}

/** A binding input's, output's or fault's children as read so far (see bindingIOChild). */
interface BindingIOParts {
  soapBody?: RawSoapBody | undefined;
  readonly soapHeaders: RawSoapHeader[];
  soapFault?: RawBindingIO["soapFault"] | undefined;
  urlEncoded: boolean;
  urlReplacement: boolean;
  mimeContentType?: string | undefined;
  mimeContentPart?: string | undefined;
  mimeXmlPart?: string | undefined;
  attachments?: RawAttachment[];
}

/** Reads the parts of one WSDL document, each located in `file`. */
class DefinitionsReader {
  private readonly values: ValueContext;

  constructor(
    private readonly file: string,
    private readonly warnings: Diagnostic[],
  ) {
    this.values = { file, warnings, area: "WSDL" };
  }

  private use(e: XmlElement): "literal" | "encoded" {
    return oneOf(this.values, e, "use", USES, "literal") ?? "literal";
  }

  /** A binding's or operation's style; undefined (absent or unreadable): the default applies. */
  private style(e: XmlElement): "document" | "rpc" | undefined {
    return oneOf(this.values, e, "style", STYLES, undefined);
  }

  private soapBody(c: XmlElement): RawSoapBody {
    return {
      use: this.use(c),
      ...opt("namespace", attr(c, "namespace")),
      ...opt("parts", attr(c, "parts")?.split(/\s+/).filter(Boolean)),
    };
  }

  definitions(root: XmlElement): RawDefinitions {
    unknownContent(this.file, this.warnings, root);
    const schemas = this.schemas(root);
    return {
      kind: "definitions",
      file: this.file,
      targetNamespace: attr(root, "targetNamespace") ?? "",
      ...opt("name", attr(root, "name")),
      ...opt("doc", documentation(root)),
      imports: wsdlChildren(root, "import").map((e) => ({
        ...opt("namespace", attr(e, "namespace")),
        location: this.required(e, "location"),
        loc: this.loc(e),
      })),
      schemas,
      messages: wsdlChildren(root, "message").map((e) => this.message(e)),
      portTypes: wsdlChildren(root, "portType").map((e) => this.portType(e)),
      bindings: wsdlChildren(root, "binding").map((e) => this.binding(e, root)),
      services: wsdlChildren(root, "service").map((e) => this.service(e)),
      loc: this.loc(root),
    };
  }

  private loc(e: XmlElement): SourceLocation {
    return locOf(this.file, e);
  }

  private required(e: XmlElement, name: string): string {
    const v = attr(e, name)?.trim();
    if (v === undefined || v === "") {
      fail(
        "WSDL_MISSING_ATTRIBUTE",
        `${e.tagName} has no ${name} attribute; expected ${name}="…"`,
        this.loc(e),
      );
    }
    return v;
  }

  private qreq(e: XmlElement, name: string): QName {
    return resolveQNameValue(e, this.required(e, name));
  }

  private qopt(e: XmlElement, name: string): QName | undefined {
    const v = attr(e, name);
    return v === undefined ? undefined : resolveQNameValue(e, v);
  }

  /** The schemas of wsdl:types; one in another namespace than XML Schema's is left out, said. */
  private schemas(root: XmlElement): RawSchema[] {
    const schemas: RawSchema[] = [];
    for (const types of wsdlChildren(root, "types")) {
      for (const c of types.elements) {
        if (c.namespaceURI === NS.xsd && c.localName === "schema")
          schemas.push(readSchema(c, this.file, this.warnings));
        // (The pre-2001 XML Schema namespaces never get here: parseXmlDocument reads them as XML
        // Schema's.)
        else if (c.localName === "schema") {
          this.warnings.push(
            recovery(
              "XSD_SCHEMA_NAMESPACE",
              `this schema element is in namespace "${c.namespaceURI ?? ""}", not XML Schema's (${NS.xsd}); it is left out, so what it declares is unresolved`,
              this.loc(c),
            ),
          );
        } else if (c.namespaceURI === NS.xsd)
          schemas.push(...strayImport(c, this.file, this.warnings, this.loc(c)));
      }
    }
    return schemas;
  }

  private message(e: XmlElement): RawMessage {
    unknownContent(this.file, this.warnings, e);
    return {
      name: this.required(e, "name"),
      parts: wsdlChildren(e, "part").map((p) => ({
        name: this.required(p, "name"),
        ...opt("element", this.qopt(p, "element")),
        ...opt("type", this.qopt(p, "type")),
        loc: this.loc(p),
      })),
      loc: this.loc(e),
    };
  }

  private portType(e: XmlElement): RawPortType {
    unknownContent(this.file, this.warnings, e);
    return {
      name: this.required(e, "name"),
      operations: wsdlChildren(e, "operation").map((o) => {
        unknownContent(this.file, this.warnings, o);
        const input = wsdlChildren(o, "input")[0];
        const output = wsdlChildren(o, "output")[0];
        return {
          name: this.required(o, "name"),
          ...opt("doc", documentation(o)),
          ...opt("input", input && this.io(input)),
          ...opt("output", output && this.io(output)),
          faults: wsdlChildren(o, "fault").map((f) => this.io(f)),
          loc: this.loc(o),
        };
      }),
      loc: this.loc(e),
    };
  }

  private io(e: XmlElement): RawOperationIO {
    return { ...opt("name", attr(e, "name")), message: this.qreq(e, "message"), loc: this.loc(e) };
  }

  private service(e: XmlElement): RawService {
    unknownContent(this.file, this.warnings, e);
    return {
      name: this.required(e, "name"),
      ...opt("doc", documentation(e)),
      ports: wsdlChildren(e, "port").map((p) => {
        unknownContent(this.file, this.warnings, p);
        const address = p.elements.find(
          (c) => c.localName === "address" && c.namespaceURI !== NS.wsdl,
        );
        return {
          name: this.required(p, "name"),
          binding: this.qreq(p, "binding"),
          ...opt("address", address && attr(address, "location")),
          ...opt("addressProtocol", address && protocolOf(address.namespaceURI)),
          loc: this.loc(p),
        };
      }),
      loc: this.loc(e),
    };
  }

  private binding(e: XmlElement, definitions: XmlElement): RawBinding {
    let protocol: RawBindingProtocol = "other";
    let style: "document" | "rpc" | undefined;
    let transport: string | undefined;
    let httpVerb: string | undefined;
    let httpLoc: SourceLocation | undefined;
    let extension: string | undefined;
    unknownContent(this.file, this.warnings, e);
    for (const c of e.elements) {
      if (c.localName === "binding" && c.namespaceURI !== NS.wsdl) {
        protocol = protocolOf(c.namespaceURI);
        extension = `{${c.namespaceURI ?? ""}}binding`;
        style = this.style(c);
        transport = attr(c, "transport");
        httpVerb = attr(c, "verb");
        if (c.namespaceURI === NS.http) httpLoc = this.loc(c);
      }
    }
    const operations = wsdlChildren(e, "operation").map((o) => this.bindingOperation(o));
    return {
      name: this.required(e, "name"),
      type: this.qreq(e, "type"),
      protocol,
      ...opt("style", style),
      ...opt("transport", transport),
      ...opt("httpVerb", httpVerb),
      ...opt("httpLoc", httpLoc),
      ...opt("extension", protocol === "other" ? extension : undefined),
      ...opt("mtom", bindingAsksForMtom(e, definitions) || undefined),
      operations,
      loc: this.loc(e),
    };
  }

  private bindingOperation(o: XmlElement): RawBindingOperation {
    unknownContent(this.file, this.warnings, o);
    let soapAction: string | undefined;
    let opStyle: "document" | "rpc" | undefined;
    let httpLocation: string | undefined;
    let httpOperationLoc: SourceLocation | undefined;
    for (const c of o.elements) {
      if (isSoap(c) && c.localName === "operation") {
        soapAction = attr(c, "soapAction");
        opStyle = this.style(c);
      } else if (c.namespaceURI === NS.http && c.localName === "operation") {
        httpLocation = attr(c, "location");
        httpOperationLoc = this.loc(c);
      }
    }
    const input = wsdlChildren(o, "input")[0];
    const output = wsdlChildren(o, "output")[0];
    return {
      name: this.required(o, "name"),
      ...opt("soapAction", soapAction),
      ...opt("style", opStyle),
      ...opt("httpLocation", httpLocation),
      ...opt("httpOperationLoc", httpOperationLoc),
      ...opt("input", input && this.bindingIO(input)),
      ...opt("output", output && this.bindingIO(output)),
      faults: wsdlChildren(o, "fault").map((f) => this.bindingIO(f)),
      loc: this.loc(o),
    };
  }

  private bindingIO(e: XmlElement): RawBindingIO {
    const io: BindingIOParts = {
      soapHeaders: [],
      urlEncoded: false,
      urlReplacement: false,
    };
    for (const c of e.elements) this.bindingIOChild(c, io);
    return {
      ...opt("name", attr(e, "name")),
      ...opt("soapBody", io.soapBody),
      soapHeaders: io.soapHeaders,
      ...opt("soapFault", io.soapFault),
      urlEncoded: io.urlEncoded,
      urlReplacement: io.urlReplacement,
      ...opt("mimeContentType", io.mimeContentType),
      ...opt("mimeContentPart", io.mimeContentPart),
      ...opt("mimeXmlPart", io.mimeXmlPart),
      ...opt("attachments", io.attachments),
      loc: this.loc(e),
    };
  }

  /** One extension element of a binding input, output or fault, read into `io`. */
  private bindingIOChild(c: XmlElement, io: BindingIOParts): void {
    if (isSoap(c) && c.localName === "body") {
      io.soapBody = { ...this.soapBody(c), ...opt("encodingStyle", attr(c, "encodingStyle")) };
    } else if (isSoap(c) && c.localName === "header") {
      io.soapHeaders.push({
        message: this.qreq(c, "message"),
        part: this.required(c, "part"),
        use: this.use(c),
        ...opt("namespace", attr(c, "namespace")),
        loc: this.loc(c),
      });
    } else if (isSoap(c) && c.localName === "fault") {
      io.soapFault = { ...opt("name", attr(c, "name")), use: this.use(c) };
    } else if (c.namespaceURI === NS.http && c.localName === "urlEncoded") {
      io.urlEncoded = true;
    } else if (c.namespaceURI === NS.http && c.localName === "urlReplacement") {
      io.urlReplacement = true;
    } else if (c.namespaceURI === NS.mime && c.localName === "content") {
      io.mimeContentType = attr(c, "type");
      io.mimeContentPart = attr(c, "part");
    } else if (c.namespaceURI === NS.mime && c.localName === "mimeXml") {
      io.mimeXmlPart = attr(c, "part") ?? "";
    } else if (c.namespaceURI === NS.mime && c.localName === "multipartRelated") {
      // SOAP with Attachments: the SOAP part carries the soap:body, the others attachments.
      io.attachments = [];
      for (const part of c.elements) {
        const body = part.elements.find((inner) => isSoap(inner) && inner.localName === "body");
        if (body) io.soapBody = this.soapBody(body);
        else {
          const a = attachmentPart(part, this.loc(part), this.warnings);
          if (a) io.attachments.push(a);
        }
      }
    }
  }
}

/**
 * Schema content written straight in wsdl:types, outside any xs:schema. An xs:import is read as
 * a schema of no namespace holding it, which is what its author meant; anything else is left out,
 * said, since its target namespace is unknown.
 */
function strayImport(
  c: XmlElement,
  file: string,
  warnings: Diagnostic[],
  at: SourceLocation,
): RawSchema[] {
  const imported = c.localName === "import";
  const what = imported
    ? "it is read as if a schema of its own held it"
    : "it is left out, since no schema gives it a target namespace";
  const code = imported ? "XSD_IMPORT_IN_TYPES" : "XSD_LEFT_OUT";
  warnings.push(
    recovery(
      code,
      `this xs:${c.localName} stands in wsdl:types, outside any xs:schema; ${what}`,
      at,
    ),
  );
  if (!imported) return [];
  const holder = new XmlElement("schema", "schema", NS.xsd, [], {}, c.lineNumber, c.columnNumber, [
    c,
  ]);
  return [readSchema(holder, file, warnings)];
}
