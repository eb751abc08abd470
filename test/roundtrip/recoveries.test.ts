/**
 * What the recoveries from defects (src/recovery.ts) generate works on the wire: a type declared
 * nowhere carries its content raw between the generated client and server, nothing dropped; an
 * operation whose output message is declared nowhere is still callable, its result void.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { RequestListener, XmlNode } from "../../runtime/src/index.js";
import { generateAndImport } from "../support/generated.js";
import { listen } from "../support/loopback.js";

const WSDL = `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:defects" targetNamespace="urn:defects">
  <wsdl:types>
    <s:schema elementFormDefault="qualified" targetNamespace="urn:defects">
      <s:element name="Store">
        <s:complexType><s:sequence>
          <s:element name="id" type="s:int" />
          <s:element name="payload" type="tns:VendorBlob" minOccurs="0" />
        </s:sequence></s:complexType>
      </s:element>
    </s:schema>
  </wsdl:types>
  <wsdl:message name="StoreIn"><wsdl:part name="parameters" element="tns:Store" /></wsdl:message>
  <wsdl:message name="EchoOut"><wsdl:part name="parameters" element="tns:EchoResponse" /></wsdl:message>
  <wsdl:portType name="DefectsPortType">
    <wsdl:operation name="Store"><wsdl:input message="tns:StoreIn" /><wsdl:output message="tns:StoreOut" /></wsdl:operation>
    <wsdl:operation name="Echo"><wsdl:input message="tns:StoreIn" /><wsdl:output message="tns:EchoOut" /></wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="DefectsSoap12" type="tns:DefectsPortType">
    <soap12:binding transport="http://schemas.xmlsoap.org/soap/http" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" />
    <wsdl:operation name="Store">
      <soap12:operation soapAction="urn:defects#Store" style="document" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" />
      <wsdl:input><soap12:body use="literal" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" /></wsdl:input>
      <wsdl:output><soap12:body use="literal" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" /></wsdl:output>
    </wsdl:operation>
    <wsdl:operation name="Echo">
      <soap12:operation soapAction="urn:defects#Echo" style="document" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" />
      <wsdl:input><soap12:body use="literal" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" /></wsdl:input>
      <wsdl:output><soap12:body use="literal" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" /></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="Defects">
    <wsdl:port name="DefectsSoap12" binding="tns:DefectsSoap12"><soap:address location="http://localhost/defects" /></wsdl:port>
  </wsdl:service>
</wsdl:definitions>`;

type Client = { store(input: unknown): Promise<unknown>; echo(input: unknown): Promise<unknown> };
let codes: string[];
let mod: {
  DefectsClient: new (o: object) => Client;
  createDefectsHandler: (impl: object) => RequestListener;
};

beforeAll(async () => {
  const g = await generateAndImport<typeof mod>(WSDL, "defects.wsdl");
  codes = g.diagnostics.map((d) => d.code);
  mod = g.mod;
});

const child = (
  local: string,
  children: XmlNode["children"],
  attrs: XmlNode["attrs"] = {},
): XmlNode => ({ ns: "urn:vendor", local, attrs, children });

describe("generated code for defective WSDLs, client to server over SOAP 1.2", () => {
  it("is generated with a warning per defect", () => {
    // tns:VendorBlob, tns:EchoResponse (element) and the message tns:StoreOut are declared nowhere.
    expect(codes.sort()).toEqual(["WSDL_UNRESOLVED", "XSD_UNRESOLVED", "XSD_UNRESOLVED"]);
  });

  it("keeps the text, attributes and child elements of a type declared nowhere, both ways", async () => {
    const payload = {
      $value: "head & tail",
      $attributes: { version: "2", "{urn:vendor}kind": "blob" },
      $any: [child("entry", ["one ", child("nested", ["<two>"], { at: "x" })]), child("empty", [])],
    };
    let arrived: unknown;
    const lb = await listen(
      mod.createDefectsHandler({
        store() {},
        echo(input: unknown) {
          arrived = input;
          // No $value: child elements alone are a whole value (the decoder gives back the empty text).
          return { $any: [child("answer", ["42"])] };
        },
      }),
    );
    try {
      const client = new mod.DefectsClient({ endpoint: `${lb.url}/defects` });
      expect(await client.echo({ id: 7, payload })).toEqual({
        $value: "",
        $any: [child("answer", ["42"])],
      });
      expect(arrived).toEqual({ id: 7, payload });
    } finally {
      await lb.close();
    }
  });

  it("calls an operation whose output message is declared nowhere; its result is void", async () => {
    let stored: unknown;
    const lb = await listen(
      mod.createDefectsHandler({
        store(input: unknown) {
          stored = input;
        },
        echo() {
          return { $value: "" };
        },
      }),
    );
    try {
      const client = new mod.DefectsClient({ endpoint: `${lb.url}/defects` });
      expect(await client.store({ id: 1 })).toBeUndefined();
      expect(stored).toEqual({ id: 1 });
    } finally {
      await lb.close();
    }
  });
});
