/**
 * The namespaces the XML reader and writer both name, in a module of their own so that neither
 * imports the other for them.
 */
export const XSI_NS = "http://www.w3.org/2001/XMLSchema-instance";
export const XSD_NS = "http://www.w3.org/2001/XMLSchema";
export const SOAP_ENC_NS = "http://schemas.xmlsoap.org/soap/encoding/";
/** The namespace of `xmlns` declarations, which the tokenizer gives their attributes. */
export const XMLNS_URI = "http://www.w3.org/2000/xmlns/";
/** The namespace the `xml:` prefix is bound to in every document. */
export const XML_URI = "http://www.w3.org/XML/1998/namespace";
/** XOP's namespace, of `xop:Include` (MTOM attachments). */
export const XOP_NS = "http://www.w3.org/2004/08/xop/include";
