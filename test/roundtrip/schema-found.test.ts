/**
 * What the schema validation of written messages (schema-valid.test.ts) found, each reproduced on a
 * small WSDL that needs neither the corpus nor a JDK: generated into a temporary folder, then its
 * client and server talk over loopback.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { RequestListener } from "../../runtime/src/index.js";
import { generateAndImport, type Generated } from "../support/generated.js";
import { listen } from "../support/loopback.js";

const WSDL = `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:found" targetNamespace="urn:found">
  <wsdl:types>
    <s:schema elementFormDefault="qualified" targetNamespace="urn:found">
      <s:simpleType name="CampaignType">
        <s:list><s:simpleType><s:restriction base="s:string"><s:enumeration value="Search" /><s:enumeration value="Shopping" /></s:restriction></s:simpleType></s:list>
      </s:simpleType>
      <s:complexType name="ArrayOfId"><s:sequence><s:element name="id" type="s:string" maxOccurs="3" /></s:sequence></s:complexType>
      <s:element name="Undelete">
        <s:complexType><s:sequence>
          <s:element name="Types" type="tns:CampaignType" />
          <s:element name="ids" type="s:string" minOccurs="1" maxOccurs="2" />
          <s:element name="more" type="tns:ArrayOfId" minOccurs="0" />
        </s:sequence></s:complexType>
      </s:element>
      <s:element name="UndeleteResponse">
        <s:complexType><s:sequence><s:element name="Types" type="tns:CampaignType" minOccurs="0" /></s:sequence></s:complexType>
      </s:element>
    </s:schema>
  </wsdl:types>
  <wsdl:message name="UndeleteIn"><wsdl:part name="parameters" element="tns:Undelete" /></wsdl:message>
  <wsdl:message name="UndeleteOut"><wsdl:part name="parameters" element="tns:UndeleteResponse" /></wsdl:message>
  <wsdl:portType name="FoundPortType">
    <wsdl:operation name="Undelete"><wsdl:input message="tns:UndeleteIn" /><wsdl:output message="tns:UndeleteOut" /></wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="FoundSoap" type="tns:FoundPortType">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" />
    <wsdl:operation name="Undelete">
      <soap:operation soapAction="urn:found#Undelete" style="document" />
      <wsdl:input><soap:body use="literal" /></wsdl:input>
      <wsdl:output><soap:body use="literal" /></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="Found">
    <wsdl:port name="FoundSoap" binding="tns:FoundSoap"><soap:address location="http://localhost/found" /></wsdl:port>
  </wsdl:service>
</wsdl:definitions>`;

type Input = { Types: string[]; ids: string[]; more?: string[] };
type Mod = {
  FoundClient: new (o: object) => { undelete(input: Input): Promise<string[] | undefined> };
  createFoundHandler: (impl: object, options: object) => RequestListener;
};
let g: Generated<Mod>;
let lb: { url: string; close(): Promise<void> };
let answer: unknown;
let arrived: unknown;
const logged: string[] = [];

beforeAll(async () => {
  g = await generateAndImport<Mod>(WSDL, "found.wsdl");
  lb = await listen(
    g.mod.createFoundHandler(
      {
        undelete: (input: unknown) => {
          arrived = input;
          return answer;
        },
      },
      {
        logger: (m: string, e: unknown) =>
          logged.push(`${m}: ${e instanceof Error ? e.message : String(e)}`),
      },
    ),
  );
  return () => lb.close();
});

const client = () => new g.mod.FoundClient({ endpoint: `${lb.url}/found` });
const post = (types: string) =>
  fetch(`${lb.url}/found`, {
    method: "POST",
    headers: { "content-type": "text/xml; charset=utf-8", soapaction: '"urn:found#Undelete"' },
    body: `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><Undelete xmlns="urn:found"><Types>${types}</Types><ids>1</ids></Undelete></soap:Body></soap:Envelope>`,
  });

describe("an xs:list of an enumeration (Bing's CampaignType, WCF's [Flags] enums)", () => {
  it("is an array of the enumeration's literals, and each item is checked on the wire both ways", async () => {
    expect(g.file("types.ts")).toContain('export type CampaignType = ("Search" | "Shopping")[];');
    answer = ["Shopping", "Search"];
    await expect(client().undelete({ Types: ["Search", "Shopping"], ids: ["a"] })).resolves.toEqual(
      ["Shopping", "Search"],
    );
    expect(arrived).toEqual({ Types: ["Search", "Shopping"], ids: ["a"] });
    // The client refuses an item the enumeration does not list, before sending.
    await expect(client().undelete({ Types: ["Search", "Seach"], ids: ["a"] })).rejects.toThrow(
      /'Seach' is not one of 'Search', 'Shopping'/,
    );
    // The server refuses one in a request, naming it.
    const res = await post("Search Seach");
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(
      /<faultcode>soap:Client<\/faultcode>.*'Seach' is not one of the allowed values/s,
    );
    // And the server does not answer with one: its implementation's mistake is a Server fault.
    answer = ["Other"];
    await expect(client().undelete({ Types: [], ids: ["a"] })).rejects.toMatchObject({
      code: "soap:Server",
    });
    expect(logged.join("\n")).toMatch(
      /UndeleteResponse\.Types: 'Other' is not one of 'Search', 'Shopping'/,
    );
  });
});

describe("a repeated element's minOccurs and maxOccurs (Salesforce's undelete takes 1 to 200 ids)", () => {
  it("the writer refuses fewer or more items than the schema allows, naming the field", async () => {
    answer = undefined;
    await expect(client().undelete({ Types: [], ids: [] })).rejects.toThrow(
      /ids needs at least 1 item \(minOccurs\); got 0/,
    );
    await expect(client().undelete({ Types: [], ids: ["a", "b", "c"] })).rejects.toThrow(
      /ids takes at most 2 items \(maxOccurs\); got 3/,
    );
    // An ArrayOfX wrapper's items likewise.
    await expect(
      client().undelete({ Types: [], ids: ["a"], more: ["1", "2", "3", "4"] }),
    ).rejects.toThrow(/more takes at most 3 items \(maxOccurs\); got 4/);
    // Its item is required too: an empty wrapper would not be valid.
    await expect(client().undelete({ Types: [], ids: ["a"], more: [] })).rejects.toThrow(
      /more needs at least 1 item \(minOccurs\); got 0/,
    );
    await expect(
      client().undelete({ Types: [], ids: ["a", "b"], more: ["1"] }),
    ).resolves.toBeUndefined();
    expect(arrived).toEqual({ Types: [], ids: ["a", "b"], more: ["1"] });
  });
});

describe("an element referred to inside its own anonymous type (node-soap's recursive_with_ref.wsdl)", () => {
  const RECURSIVE = WSDL.replace(
    /<s:simpleType name="CampaignType">[\s\S]*?<\/s:list>\s*<\/s:simpleType>/,
    `<s:element name="property"><s:complexType><s:sequence>
        <s:element name="value" type="s:string" minOccurs="0" />
        <s:element ref="tns:property" minOccurs="0" maxOccurs="unbounded" />
      </s:sequence></s:complexType></s:element>
      <s:simpleType name="CampaignType"><s:list itemType="s:string" /></s:simpleType>`,
  ).replace(
    '<s:element name="more" type="tns:ArrayOfId" minOccurs="0" />',
    '<s:element name="more" type="tns:ArrayOfId" minOccurs="0" /><s:element ref="tns:property" minOccurs="0" />',
  );

  it("is typed as itself at every depth, not as xs:anyType, and nests on the wire", async () => {
    const r = await generateAndImport<Mod>(RECURSIVE, "recursive.wsdl");
    expect(r.file("types.ts")).toMatch(
      /export interface Property \{\n(.*\n)*?\s+property: Property\[\];/,
    );
    expect(r.file("descriptors.ts")).not.toContain("xs.anyType");
    let got: unknown;
    const server = await listen(
      r.mod.createFoundHandler({ undelete: (input: unknown) => void (got = input) }, {}),
    );
    try {
      const input = {
        Types: [],
        ids: ["a"],
        property: { value: "1", property: [{ value: "2", property: [{ property: [] }] }] },
      };
      await new r.mod.FoundClient({ endpoint: `${server.url}/found` }).undelete(input as never);
      expect(got).toEqual(input);
    } finally {
      await server.close();
    }
  });
});
