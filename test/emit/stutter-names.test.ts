/**
 * Generated names do not stutter (issue #33): a suffix word (`Service`, `Client`, `Handler`, `Port`,
 * `Desc`, `Context`, `Options`, `Operations`) is never written twice in a row, and names stay
 * unique when the shorter name is someone else's.
 */
import { describe, expect, it } from "vitest";
import { typeCheckBatch } from "../../scripts/corpus.js";
import { generateFrom } from "../support/generate-root.js";
import { joinName } from "../../src/transform/names.js";
import { tempDir } from "../support/tmp.js";

describe("joinName", () => {
  it("writes a suffix word once where the base ends with it", () => {
    expect(joinName("CampaignManagementService", "Service")).toBe("CampaignManagementService");
    expect(joinName("CampaignManagementService", "Client")).toBe("CampaignManagementServiceClient");
    expect(joinName("EchoServiceService", "Client")).toBe("EchoServiceClient");
    expect(joinName("ShopClient", "ClientOptions")).toBe("ShopClientOptions");
    expect(joinName("create", "MailHandler", "Handler")).toBe("createMailHandler");
    expect(joinName("ApiSoapOperations", "Operations")).toBe("ApiSoapOperations");
    expect(joinName("InvalidFaultDesc", "Desc")).toBe("InvalidFaultDesc");
  });

  it("leaves a word inside another, and names without a doubled suffix, alone", () => {
    expect(joinName("Api", "Service")).toBe("ApiService");
    expect(joinName("Port", "Portal")).toBe("PortPortal");
    expect(joinName("Services", "Service")).toBe("ServicesService");
    expect(joinName("Desc", "Description")).toBe("DescDescription");
  });
});

const service = (name: string) =>
  `<service name="${name}"><port name="${name}Port" binding="t:B"><soap:address location="http://localhost/${name}"/></port></service>`;

const WSDL = `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:s" targetNamespace="urn:s">
  <types><xs:schema targetNamespace="urn:s" elementFormDefault="qualified">
    <xs:element name="Do"><xs:complexType><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="DoResponse"><xs:complexType><xs:sequence><xs:element name="r" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema></types>
  <message name="In"><part name="p" element="t:Do"/></message>
  <message name="Out"><part name="p" element="t:DoResponse"/></message>
  <portType name="P"><operation name="Do"><input message="t:In"/><output message="t:Out"/></operation></portType>
  <binding name="B" type="t:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/>
    <operation name="Do"><soap:operation soapAction="urn:s#Do"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
  ${service("Shop")}
  ${service("ShopService")}
</definitions>`;

describe("a service named with a Service suffix", () => {
  it("gets names without a doubled suffix, unique beside a service named without it", async () => {
    const result = await generateFrom("stutter-names", "s.wsdl", WSDL);
    expect(result.status).toBe("ok");
    const all = result.files!.map((f) => f.content).join("\n");
    expect(all).not.toMatch(/(Service|Client|Handler|Port|Desc|Context|Options)\1(?![a-z])/);
    const server = result.files!.find((f) => f.path === "server.ts")!.content;
    // `Shop` claims ShopService first; the service ShopService then takes the next free name.
    expect(server).toContain("export interface ShopService {");
    expect(server).toContain("export type ShopPartialService = Partial<ShopService>;");
    expect(server).toContain("export interface ShopService_2 {");
    expect(server).toContain("export type ShopServicePartialService = Partial<ShopService_2>;");
    expect(server).toContain("export function createShopServiceHandler(");
    const client = result.files!.find((f) => f.path === "client.ts")!.content;
    expect(client).toMatch(
      /export const ShopServiceClient = clientClass<\s*typeof ShopServiceDesc,/,
    );
    typeCheckBatch([result], tempDir());
    expect(result.compileErrors).toEqual([]);
  });
});
