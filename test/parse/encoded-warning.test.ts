/** The rpc/encoded warning comes once per binding, naming its encoded operations, not once each. */
import { describe, expect, it } from "vitest";
import { loadWsdl } from "../../src/generate.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const op = (name: string) =>
  `<wsdl:operation name="${name}"><wsdl:input message="tns:M"/><wsdl:output message="tns:M"/></wsdl:operation>`;
const bop = (name: string) =>
  `<wsdl:operation name="${name}"><soap:operation soapAction="${name}"/><wsdl:input><soap:body use="encoded" namespace="urn:svc" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></wsdl:input><wsdl:output><soap:body use="encoded" namespace="urn:svc" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></wsdl:output></wsdl:operation>`;

const WSDL = `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:svc" targetNamespace="urn:svc">
  <wsdl:message name="M"><wsdl:part name="x" type="xs:string"/></wsdl:message>
  <wsdl:portType name="P">${op("A")}${op("B")}${op("C")}</wsdl:portType>
  <wsdl:binding name="B" type="tns:P">
    <soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
    ${bop("A")}
    ${bop("B")}
    ${bop("C")}
  </wsdl:binding>
  <wsdl:service name="S"><wsdl:port name="Port" binding="tns:B"><soap:address location="http://localhost/"/></wsdl:port></wsdl:service>
</wsdl:definitions>
`;

describe("an rpc/encoded binding", () => {
  it("is one warning, at its first encoded operation, naming them all", async () => {
    const r = await loadWsdl(writeTemp(tempDir(), "enc.wsdl", WSDL));
    expect(r.model).toBeDefined();
    const warnings = r.diagnostics.filter((d) => d.code === "WSDL_ENCODED");
    expect(warnings.map((w) => [w.line, w.message])).toEqual([
      [
        WSDL.slice(0, WSDL.indexOf('<wsdl:operation name="A"><soap:')).split("\n").length,
        'binding B uses SOAP encoding (use="encoded") in operations A, B, C; values of anonymous complex types, and of types others derive from, are sent without xsi:type annotations, and SOAP 1.2 encoding\'s arrays and references are not read as such',
      ],
    ]);
  });
});
