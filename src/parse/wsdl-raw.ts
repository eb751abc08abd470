/**
 * Stage one for WSDL 1.1, its types: the located object form of one `wsdl:definitions` document
 * that wsdl.ts reads, as written, nothing resolved but QName prefixes.
 */
import type { SourceLocation } from "../diagnostics.js";
import type { QName } from "./qname.js";
import type { RawSchema } from "./xsd-raw.js";

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
  /**
   * The attachment parts of a `mime:multipartRelated` (SOAP with Attachments): each `mime:part`
   * besides the one holding soap:body, whose `mime:content`s name one message part.
   */
  readonly attachments?: readonly RawAttachment[];
  readonly loc: SourceLocation;
}

/** One attachment `mime:part`: the message part its `mime:content`s name, and their types. */
export interface RawAttachment {
  readonly part: string;
  /** The content types its `mime:content`s allow (alternatives, WSDL 1.1 §5.4). */
  readonly types: readonly string[];
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
  /** The `{namespace}binding` extension element of a binding of no protocol read here. */
  readonly extension?: string;
  /** Its WS-Policy asks for MTOM (see bindingAsksForMtom). */
  readonly mtom?: true;
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
