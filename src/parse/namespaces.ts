/** The namespace URIs the parser recognises. */
export const NS = {
  wsdl: "http://schemas.xmlsoap.org/wsdl/",
  soap11: "http://schemas.xmlsoap.org/wsdl/soap/",
  soap12: "http://schemas.xmlsoap.org/wsdl/soap12/",
  http: "http://schemas.xmlsoap.org/wsdl/http/",
  mime: "http://schemas.xmlsoap.org/wsdl/mime/",
  xsd: "http://www.w3.org/2001/XMLSchema",
  soapEncoding: "http://schemas.xmlsoap.org/soap/encoding/",
} as const;
