/**
 * The intermediate model: what the emitters read. Readonly, documented and `kind`-tagged, with
 * direct links between its parts (an element field points at its type, a port at its binding). It
 * keeps every wire fact the runtime needs: namespaces, element order, nillable versus minOccurs,
 * SOAP version, SOAPAction, HTTP verb and location.
 */
import type { SourceLocation } from "../diagnostics.js";
import type { QName } from "../parse/qname.js";
import type { Facets, ScalarKind } from "@wsdl-tsgen/runtime/internal";

/** A model object while a stage still fills it in (the model itself is readonly). */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export type { QName };

/** The XSD built-in scalar families the runtime knows how to convert: the runtime's own list. */
export type { ScalarKind };

/** An XSD built-in type such as `xs:int`. */
export interface BuiltinType {
  readonly kind: "builtin";
  readonly name: QName;
  /** How values are converted; e.g. `xs:token` converts as `string`. */
  readonly scalar: ScalarKind;
}

/** A named or anonymous `xs:simpleType`. */
export interface SimpleType {
  readonly kind: "simple";
  /** Undefined for an anonymous type. */
  readonly name: QName | undefined;
  /** The built-in type values are converted as (for a list: each item's). */
  readonly base: BuiltinType;
  /**
   * Enumerated values in document order; empty when not an enumeration. For a list, the values each
   * item may take (its item type's enumeration); enumeration facets that restrict a list as a whole
   * are not kept.
   */
  readonly enumeration: readonly string[];
  /** True for `xs:list`: a whitespace-separated sequence of `base` values. */
  readonly list: boolean;
  /**
   * The facets other than enumeration (of each item, for a list), those of the types it restricts
   * included: samples meet them (the runtime's `ScalarDesc.facets`).
   */
  readonly facets?: Facets;
  /** `xs:union`: its member types, in order. */
  readonly union?: readonly (BuiltinType | SimpleType)[];
  readonly doc: string | undefined;
  readonly loc: SourceLocation;
}

/** An element inside a complex type's content, in document order. */
export interface ElementField {
  readonly kind: "elementField";
  /** The element's name; `ns` is "" when the element is unqualified. */
  readonly name: QName;
  readonly type: TypeRef;
  readonly minOccurs: number;
  /** `Infinity` for unbounded. */
  readonly maxOccurs: number;
  readonly nillable: boolean;
  readonly default: string | undefined;
  readonly fixed: string | undefined;
  /** Set when the element belongs to a branch of an `xs:choice`: exactly one branch is present. */
  readonly choice: ChoiceRef | undefined;
  /**
   * Set when the element is in a repeated `xs:choice`, or in a repeated sequence holding one: its
   * occurrences are items of that one list, in document order with the other elements' of it.
   */
  readonly ordered?: OrderedList;
  /**
   * For `ref=` to the head of a substitution group: the elements that may stand in its place (its
   * members, directly or not, that are not abstract and have a complex type), and the head itself.
   */
  readonly substitutes?: { readonly head: ElementDecl; readonly members: readonly ElementDecl[] };
  /**
   * The property name in the typed API when it is not the element's local name: for a part of a
   * multi-part document/literal body, the part's name.
   */
  readonly propertyName?: string;
  readonly doc: string | undefined;
  readonly loc: SourceLocation;
}

/** Where an element sits in an `xs:choice`: which choice of its type, and which branch of it. */
export interface ChoiceRef {
  /** Index of the choice among its type's choices (0-based, document order). */
  readonly group: number;
  /** Index of the branch within the choice; elements of one nested sequence share a branch. */
  readonly branch: number;
  /** True when the choice may be absent altogether (`minOccurs="0"`). */
  readonly optional: boolean;
  /**
   * True when the choice repeats (`maxOccurs > 1`, its own or that of a particle around it): then
   * its fields are no union but items of an `OrderedList` (arrays, for a choice of one element).
   */
  readonly repeated: boolean;
}

/**
 * A repeated `xs:choice`, or a repeated sequence (or group) holding one, whose elements are more
 * than one: one list of items in document order, each saying which element it is (`$choice`), so
 * that the order, which carries meaning, is kept. Its fields (consecutive among the type's) share
 * it by reference; their own occurrence is that of one item.
 */
export interface OrderedList {
  readonly kind: "orderedList";
  /** True when the list may be empty: the repeated particle, or one around it, is optional. */
  readonly optional: boolean;
  readonly loc: SourceLocation;
}

/** An attribute of a complex type. */
export interface AttributeField {
  readonly kind: "attributeField";
  readonly name: QName;
  readonly type: BuiltinType | SimpleType;
  readonly required: boolean;
  readonly default: string | undefined;
  readonly fixed: string | undefined;
  readonly doc: string | undefined;
  readonly loc: SourceLocation;
}

/**
 * A named or anonymous `xs:complexType`, with its content flattened into fields in document order.
 */
export interface ComplexType {
  readonly kind: "complex";
  readonly name: QName | undefined;
  /**
   * The type this one extends (`xs:complexContent/xs:extension`); its fields come first on the
   * wire.
   */
  readonly base: ComplexType | undefined;
  /**
   * The declared complex type this one restricts (`xs:complexContent/xs:restriction`). Unlike an
   * extension's, its fields are all its own (a restriction restates the content it keeps); its
   * attributes are its own and those of the base it neither restates nor prohibits, as XML Schema
   * inherits them. Absent for a restriction of SOAP encoding's Array (an encoded array).
   */
  readonly restricts?: ComplexType;
  /**
   * A SOAP-encoded array (a restriction of `soapenc:Array`): its one field is the repeated item,
   * and `itemType` the type its `soapenc:arrayType` and items' `xsi:type` name (`tns:Item[2]`).
   */
  readonly encodedArray?: { readonly itemType: QName };
  /**
   * The named types that extend or restrict this one directly (`xs:complexContent/xs:extension`,
   * `xs:restriction`), in schema order: a value of any of them may stand where this type is
   * declared, marked with `xsi:type`.
   */
  readonly derived: readonly ComplexType[];
  /** This type's own element fields, after the base's. */
  readonly fields: readonly ElementField[];
  readonly attributes: readonly AttributeField[];
  /** For `xs:simpleContent`: the type of the text value. */
  readonly simpleContent: BuiltinType | SimpleType | undefined;
  readonly abstract: boolean;
  readonly mixed: boolean;
  /** `xs:any` in the content: elements it matches are kept as raw XML trees. */
  readonly anyElements: boolean;
  /**
   * Where the `xs:any` content stands among this type's own fields: before the field of this index.
   * Absent when it comes after them all (the usual place).
   */
  readonly anyPosition?: number;
  /**
   * Set when an `xs:any` must be filled (minOccurs above 0, not in a choice or optional particle):
   * a namespace it admits, where a sample puts a harmless element.
   */
  readonly anyRequired?: string;
  /** The local name of a declared element there that fills it (a strict wildcard's). */
  readonly anyElement?: string;
  /** `xs:anyAttribute`: undeclared attributes are kept in an attribute bag. */
  readonly anyAttributes: boolean;
  readonly doc: string | undefined;
  readonly loc: SourceLocation;
}

export type TypeRef = BuiltinType | SimpleType | ComplexType;

/** A top-level `xs:element` declaration. */
export interface ElementDecl {
  readonly kind: "elementDecl";
  readonly name: QName;
  readonly type: TypeRef;
  readonly nillable: boolean;
  readonly abstract: boolean;
  readonly doc: string | undefined;
  readonly loc: SourceLocation;
}

export type SoapProtocol = "soap11" | "soap12";
export type HttpProtocol = "httpGet" | "httpPost";
export type BindingProtocol = SoapProtocol | HttpProtocol;

/** How a SOAP binding operation's message body is encoded (`soap:body use=`). */
export interface SoapBodyEncoding {
  readonly kind: "soapBody";
  readonly use: "literal" | "encoded";
  readonly namespace: string | undefined;
}

/** How an HTTP binding operation's request is encoded. */
export type HttpInputEncoding =
  | { readonly kind: "urlEncoded" }
  /** `http:urlReplacement`: each parameter in place of its `(name)` in the operation's location. */
  | { readonly kind: "urlReplacement" }
  | { readonly kind: "mimeContent"; readonly contentType: string };

/** How an HTTP binding operation's response is encoded. */
export type HttpOutputEncoding = { readonly kind: "mimeXml"; readonly part: string } | NoOutput;

/** A one-way operation's response encoding, or an HTTP one's without a response document. */
export interface NoOutput {
  readonly kind: "none";
}

/** How a binding operation's request is encoded. */
export type InputEncoding = SoapBodyEncoding | HttpInputEncoding;

/** How a binding operation's response is encoded. */
export type OutputEncoding = SoapBodyEncoding | HttpOutputEncoding;

/** The XML a SOAP message body holds for one direction of an operation. */
export type SoapBodyShape =
  /** document/literal: the body holds this one element. */
  | { readonly kind: "element"; readonly element: ElementDecl }
  /** rpc: the body holds a wrapper element named `wrapper` whose children are the parts. */
  | { readonly kind: "rpc"; readonly wrapper: QName; readonly parts: readonly ElementField[] }
  /**
   * document/literal with several parts: the body holds each part's element, in part order, with no
   * wrapper; the typed value is an object with one property per part (named after the part).
   */
  | { readonly kind: "parts"; readonly parts: readonly ElementField[] }
  /** No body content (e.g. an input message without parts). */
  | { readonly kind: "empty" };

/** An HTTP binding's parameters: each part is a name/value pair in the query or the form. */
export interface HttpParameter {
  readonly kind: "httpParameter";
  readonly name: string;
  /** The logical input field this parameter carries, converted to and from a string. */
  readonly field: ElementField;
}

/**
 * One operation as one binding puts it on the wire: a SOAP binding's or an HTTP binding's, told
 * apart by `protocol`, each with only its own fields.
 */
export type BindingOperation = SoapBindingOperation | HttpBindingOperation;

/** What a binding operation holds whatever its protocol. */
interface BindingOperationBase {
  readonly kind: "bindingOperation";
  readonly operation: Operation;
  /** False for a one-way operation. */
  readonly hasOutput: boolean;
}

/** An operation of a SOAP 1.1 or 1.2 binding. */
export interface SoapBindingOperation extends BindingOperationBase {
  readonly protocol: SoapProtocol;
  readonly soapAction: string | undefined;
  readonly style: "document" | "rpc";
  readonly inputEncoding: SoapBodyEncoding;
  readonly outputEncoding: SoapBodyEncoding | NoOutput;
  /** The request and response body contents (no response: a one-way operation). */
  readonly soapInput: SoapBodyShape;
  readonly soapOutput: SoapBodyShape | undefined;
  /** This binding's attachment parts (SOAP with Attachments; absent: none). */
  readonly attachments?: OperationAttachments;
  /** The declared faults, each with the element its detail carries. */
  readonly faults: readonly DeclaredFault[];
  /** The elements `soap:header` puts in the request's SOAP Header, in binding order. */
  readonly inputHeaders: readonly ElementDecl[];
  /** The elements `soap:header` puts in the response's SOAP Header, in binding order. */
  readonly outputHeaders: readonly ElementDecl[];
}

/** An operation of an HTTP GET or POST binding. */
export interface HttpBindingOperation extends BindingOperationBase {
  readonly protocol: HttpProtocol;
  /** The location relative to the port address, e.g. `/GetMessages`. */
  readonly location: string;
  readonly inputEncoding: HttpInputEncoding;
  readonly outputEncoding: HttpOutputEncoding;
  /** The parameters, in message part order. */
  readonly httpParameters: readonly HttpParameter[];
  /** With `mime:mimeXml`: the element of the response document. */
  readonly mimeXmlElement: ElementDecl | undefined;
}

/** A `wsdl:fault` of an operation: its name and the element inside the fault's detail. */
export interface DeclaredFault {
  readonly kind: "fault";
  readonly name: string;
  readonly element: ElementDecl;
}

export interface Binding {
  readonly kind: "binding";
  readonly name: QName;
  readonly protocol: BindingProtocol;
  readonly transport: string | undefined;
  readonly style: "document" | "rpc" | undefined;
  /** HTTP bindings: `GET` or `POST`. */
  readonly verb: "GET" | "POST" | undefined;
  readonly operations: readonly BindingOperation[];
  /** A SOAP binding whose WS-Policy asks for MTOM (`wsoma:OptimizedMimeSerialization`). */
  readonly mtom?: true;
  readonly loc: SourceLocation;
}

export interface Port {
  readonly kind: "port";
  readonly name: string;
  readonly address: string | undefined;
  readonly binding: Binding;
  readonly loc: SourceLocation;
}

/** What a logical operation resolves to. */
export type OperationResult =
  | { readonly kind: "void" }
  /** The single child of the response wrapper, returned on its own (document/literal wrapped). */
  | { readonly kind: "unwrapped"; readonly field: ElementField }
  /** The whole response content as an object. */
  | { readonly kind: "object"; readonly type: ComplexType };

/**
 * An operation as the typed API sees it, shared by every binding that carries it: ASMX declares
 * separate HTTP portTypes whose parts are all strings, and they are linked here by name.
 */
export interface Operation {
  readonly kind: "operation";
  readonly name: string;
  readonly doc: string | undefined;
  /**
   * The parameters as one object type (the wrapper element's type for document/literal wrapped).
   */
  readonly input: ComplexType;
  readonly result: OperationResult;
  readonly oneWay: boolean;
  /** SOAP with Attachments: the binary parts beside the envelope (absent: none). */
  readonly attachments?: OperationAttachments;
  readonly loc: SourceLocation;
}

/** The attachment parts of an operation's request and response (SOAP with Attachments). */
export interface OperationAttachments {
  readonly input: readonly AttachmentPart[];
  readonly output: readonly AttachmentPart[];
}

/** A message part bound to `mime:content`: a `Uint8Array` property of the input or result. */
export interface AttachmentPart {
  readonly kind: "attachment";
  /** The message part's name: the property's name and the Content-ID's prefix (WS-I AP R2933). */
  readonly name: string;
  /** The content types the WSDL allows; the first is the one sent. */
  readonly contentTypes: readonly string[];
  readonly loc: SourceLocation;
}

export interface Service {
  readonly kind: "service";
  readonly name: string;
  readonly doc: string | undefined;
  readonly targetNamespace: string;
  readonly ports: readonly Port[];
  /** Logical operations in the order they first appear across the service's bindings. */
  readonly operations: readonly Operation[];
  /**
   * Every header element of the service's SOAP operations (request headers first, then response
   * headers), as the optional fields of one synthetic type: the typed bag of SOAP headers a client
   * sends and receives, and a server receives and sends.
   */
  readonly soapHeaders: ComplexType | undefined;
  readonly loc: SourceLocation;
}

/** The whole model of one WSDL and everything it imports. */
export interface WsdlModel {
  readonly kind: "wsdl";
  /** The WSDL's location as given. */
  readonly source: string;
  readonly targetNamespace: string;
  readonly services: readonly Service[];
  /**
   * Every complex and simple type in use, in a deterministic order (document order of first use).
   */
  readonly types: readonly (ComplexType | SimpleType)[];
  readonly elements: readonly ElementDecl[];
}
