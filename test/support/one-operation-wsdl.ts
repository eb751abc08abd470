/**
 * A minimal document/literal WSDL with one SOAP 1.1 operation `Op` in namespace `ns` (prefix `t`):
 * `schema` holds the test's own declarations, `request` the content of the `Op` element's sequence.
 * The first line of `schema` is line 4 of the document, for tests that check diagnostics' lines.
 */
export function oneOperationWsdl(ns: string, schema: string, request: string): string {
  return `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="${ns}" targetNamespace="${ns}">
  <types><xs:schema targetNamespace="${ns}" elementFormDefault="qualified">
${schema}
    <xs:element name="Op"><xs:complexType><xs:sequence>${request}</xs:sequence></xs:complexType></xs:element>
    <xs:element name="OpResponse"><xs:complexType/></xs:element>
  </xs:schema></types>
  <message name="In"><part name="p" element="t:Op"/></message><message name="Out"><part name="p" element="t:OpResponse"/></message>
  <portType name="P"><operation name="Op"><input message="t:In"/><output message="t:Out"/></operation></portType>
  <binding name="B" type="t:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/><operation name="Op"><soap:operation soapAction="${ns}#Op"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding>
  <service name="S"><port name="SP" binding="t:B"><soap:address location="http://localhost/s"/></port></service>
</definitions>`;
}
