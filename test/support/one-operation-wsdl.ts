/**
 * A one-operation document/literal WSDL for tests (operation Op: message In → Out, elements n:Req →
 * n:Res in namespace urn:n, service S with port Port), each part replaceable to plant a defect.
 */

export interface Parts {
  readonly types?: string;
  readonly messages?: string;
  readonly operation?: string;
  readonly head?: string;
  readonly service?: boolean;
}

export const MESSAGES = `  <wsdl:message name="In"><wsdl:part name="p" element="n:Req"/></wsdl:message>
  <wsdl:message name="Out"><wsdl:part name="p" element="n:Res"/></wsdl:message>`;
export const OPERATION = `<wsdl:operation name="Op"><wsdl:input message="tns:In"/><wsdl:output message="tns:Out"/></wsdl:operation>`;

/** The WSDL text; `types` is the body of wsdl:types, `head` goes before it, `service: false` leaves binding and service out. */
export const wsdl = ({
  types = "",
  messages = MESSAGES,
  operation = OPERATION,
  head = "",
  service = true,
}: Parts) => `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:n="urn:n" xmlns:tns="urn:svc" targetNamespace="urn:svc">
${head}  <wsdl:types>
${types}
  </wsdl:types>
${messages}
  <wsdl:portType name="P">${operation}</wsdl:portType>
${
  service
    ? `  <wsdl:binding name="B" type="tns:P">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Op"><soap:operation soapAction="Op"/>
      <wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="S"><wsdl:port name="Port" binding="tns:B"><soap:address location="http://localhost/"/></wsdl:port></wsdl:service>
`
    : ""
}</wsdl:definitions>
`;

/**
 * The same WSDL with one schema in urn:n (prefix `t` as well as `n`): `schema` holds the test's own
 * declarations, `request` the content of the request element's sequence. The first line of `schema`
 * is line 6 of the document, for tests that check diagnostics' lines.
 */
export const oneOperationWsdl = (schema: string, request: string): string =>
  wsdl({
    types: `    <xs:schema targetNamespace="urn:n" xmlns:t="urn:n" elementFormDefault="qualified">
${schema}
    <xs:element name="Req"><xs:complexType><xs:sequence>${request}</xs:sequence></xs:complexType></xs:element>
    <xs:element name="Res"><xs:complexType/></xs:element>
    </xs:schema>`,
  });
