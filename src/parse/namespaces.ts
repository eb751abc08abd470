/** The namespace URIs the parser recognises. */
export const NS = {
  wsdl: "http://schemas.xmlsoap.org/wsdl/",
  soap11: "http://schemas.xmlsoap.org/wsdl/soap/",
  soap12: "http://schemas.xmlsoap.org/wsdl/soap12/",
  http: "http://schemas.xmlsoap.org/wsdl/http/",
  mime: "http://schemas.xmlsoap.org/wsdl/mime/",
  xsd: "http://www.w3.org/2001/XMLSchema",
  xsi: "http://www.w3.org/2001/XMLSchema-instance",
  xml: "http://www.w3.org/XML/1998/namespace",
  soapEncoding: "http://schemas.xmlsoap.org/soap/encoding/",
  soap12Encoding: "http://www.w3.org/2003/05/soap-encoding",
} as const;

/** The SOAP encoding namespaces (1.1 and 1.2): their types are built in, never fetched. */
export const SOAP_ENCODINGS: ReadonlySet<string> = new Set([NS.soapEncoding, NS.soap12Encoding]);
