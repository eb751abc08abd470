/**
 * Bugs the corpus round-trip property tests found, each reproduced on a small WSDL that needs no
 * corpus: generated into a temporary folder, then its client and server talk over loopback.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  complex,
  createServiceHandler,
  field,
  xs,
  type RequestListener,
  type ServiceDesc,
} from "../../runtime/src/index.js";
import { ServiceClient } from "../../runtime/src/internal.js";
import { generateAndImport } from "../support/generated.js";
import { listen } from "../support/loopback.js";

const WSDL = `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:regressions" targetNamespace="urn:regressions">
  <wsdl:types>
    <s:schema elementFormDefault="qualified" targetNamespace="urn:regressions">
      <s:element name="List">
        <s:complexType><s:sequence><s:element name="Code " type="s:int" /></s:sequence></s:complexType>
      </s:element>
      <s:element name="ListResponse">
        <s:complexType><s:sequence><s:element name="result" type="s:string" minOccurs="0" maxOccurs="unbounded" nillable="true" /></s:sequence></s:complexType>
      </s:element>
    </s:schema>
  </wsdl:types>
  <wsdl:message name="ListIn"><wsdl:part name="parameters" element="tns:List" /></wsdl:message>
  <wsdl:message name="ListOut"><wsdl:part name="parameters" element="tns:ListResponse" /></wsdl:message>
  <wsdl:portType name="RegressionsPortType">
    <wsdl:operation name="List"><wsdl:input message="tns:ListIn" /><wsdl:output message="tns:ListOut" /></wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="RegressionsSoap" type="tns:RegressionsPortType">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" />
    <wsdl:operation name="List">
      <soap:operation soapAction="urn:regressions#List" style="document" />
      <wsdl:input><soap:body use="literal" /></wsdl:input>
      <wsdl:output><soap:body use="literal" /></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="Regressions">
    <wsdl:port name="RegressionsSoap" binding="tns:RegressionsSoap"><soap:address location="http://localhost/regressions" /></wsdl:port>
  </wsdl:service>
</wsdl:definitions>`;

type Client = { list(input: unknown): Promise<unknown> };
let files: { path: string; content: string }[];
let mod: {
  RegressionsClient: new (o: object) => Client;
  createRegressionsHandler: (impl: object) => RequestListener;
};

beforeAll(async () => {
  const g = await generateAndImport<typeof mod>(WSDL, "regressions.wsdl");
  files = [...g.files];
  mod = g.mod;
});

describe("found by the corpus round trip", () => {
  it('a name attribute with surrounding whitespace names the element without it (EVacSyncService: name="ResultCode ")', () => {
    const desc = files.find((f) => f.path === "descriptors.ts")!.content;
    expect(desc).toContain('field("Code", xs.int)');
    expect(files.find((f) => f.path === "types.ts")!.content).toMatch(/\bCode: number;/);
  });

  it("a response wrapper whose only content is one repeated element returns the array (Salesforce describeSObjects)", async () => {
    expect(files.find((f) => f.path === "descriptors.ts")!.content).not.toContain('prop: "result"');
    let arrived: unknown;
    const lb = await listen(
      mod.createRegressionsHandler({
        list(input: unknown) {
          arrived = input;
          return ["a & b", null, ""];
        },
      }),
    );
    try {
      const client = new mod.RegressionsClient({ endpoint: `${lb.url}/regressions` });
      expect(await client.list({ Code: -7 })).toEqual(["a & b", null, ""]);
      expect(arrived).toEqual({ Code: -7 });
    } finally {
      await lb.close();
    }
  });
});

describe("a service with two SOAP 1.1 ports of different bindings (node-soap multi-service.wsdl)", () => {
  const op = (name: string) => ({
    kind: "soap" as const,
    action: name,
    request: {
      element: field(
        name,
        "urn:bye",
        complex(name, () => [field("name", "", xs.string)]),
      ),
    },
    response: {
      element: field(
        `${name}Response`,
        "urn:bye",
        complex(`${name}Response`, () => [field("greeting", "", xs.string)]),
      ),
      prop: "greeting",
    },
    oneWay: false,
  });
  const service: ServiceDesc = {
    name: "Bye",
    targetNamespace: "urn:bye",
    defaultPort: "ByePort",
    methods: { sayBye: "sayBye", sayAnotherBye: "sayAnotherBye" },
    ports: {
      ByePort: {
        name: "ByePort",
        protocol: "soap11",
        address: "http://localhost/bye",
        operations: { sayBye: op("sayBye") },
      },
      AnotherPort: {
        name: "AnotherPort",
        protocol: "soap11",
        address: "http://localhost/another",
        operations: { sayAnotherBye: op("sayAnotherBye") },
      },
    },
  };

  it("serves each port at the path of its own address, and names that port in the context", async () => {
    const seen: string[] = [];
    const reply = (input: unknown, ctx: { port: string; operation: string }) => {
      seen.push(`${ctx.operation}@${ctx.port}`);
      return `bye ${(input as { name: string }).name}`;
    };
    const wsdl =
      '<definitions><port><address location="http://localhost/bye"/></port><port><address location="http://localhost/another"/></port></definitions>';
    const lb = await listen(
      createServiceHandler({
        service,
        embeddedWsdl: wsdl,
        impl: { sayBye: reply, sayAnotherBye: reply },
      }),
    );
    const post = (path: string, op: string) =>
      fetch(`${lb.url}${path}`, {
        method: "POST",
        headers: { "Content-Type": "text/xml" },
        body: `<Envelope xmlns="http://schemas.xmlsoap.org/soap/envelope/"><Body><${op} xmlns="urn:bye"><name xmlns="">c</name></${op}></Body></Envelope>`,
      });
    try {
      expect(
        await new ServiceClient(service, {
          endpoint: `${lb.url}/another`,
          port: "AnotherPort",
        }).call("sayAnotherBye", { name: "a" }),
      ).toBe("bye a");
      expect(
        await new ServiceClient(service, { endpoint: `${lb.url}/bye`, port: "ByePort" }).call(
          "sayBye",
          { name: "b" },
        ),
      ).toBe("bye b");
      // Routed by the body element alone (no SOAPAction), among the ports at that path only.
      expect((await post("/another", "sayAnotherBye")).status).toBe(200);
      const elsewhere = await post("/bye", "sayAnotherBye");
      expect(elsewhere.status).toBe(500);
      expect(await elsewhere.text()).toContain("<faultcode>soap:Client</faultcode>");
      expect((await fetch(`${lb.url}/nowhere`, { method: "POST" })).status).toBe(404);
      // ?WSDL, at either path, gives each port the address it is served at on this host.
      for (const path of ["/bye", "/another"]) {
        const served = await (await fetch(`${lb.url}${path}?wsdl`)).text();
        expect(served).toBe(
          `<definitions><port><address location="${lb.url}/bye"/></port><port><address location="${lb.url}/another"/></port></definitions>`,
        );
      }
      expect(seen).toEqual([
        "sayAnotherBye@AnotherPort",
        "sayBye@ByePort",
        "sayAnotherBye@AnotherPort",
      ]);
    } finally {
      await lb.close();
    }
  });

  it("serves every port at one path when options.path says so, routing by SOAPAction or body element", async () => {
    const seen: string[] = [];
    const reply = (input: unknown, ctx: { port: string; operation: string }) => {
      seen.push(`${ctx.operation}@${ctx.port}`);
      return `bye ${(input as { name: string }).name}`;
    };
    const lb = await listen(
      createServiceHandler({
        service,
        impl: { sayBye: reply, sayAnotherBye: reply },
        options: { path: "/all" },
      }),
    );
    try {
      expect(
        await new ServiceClient(service, { endpoint: `${lb.url}/all`, port: "AnotherPort" }).call(
          "sayAnotherBye",
          { name: "a" },
        ),
      ).toBe("bye a");
      expect(
        await new ServiceClient(service, { endpoint: `${lb.url}/all`, port: "ByePort" }).call(
          "sayBye",
          { name: "b" },
        ),
      ).toBe("bye b");
      // No SOAPAction: the body element alone picks the operation, and with it the port.
      for (const op of ["sayBye", "sayAnotherBye"]) {
        const res = await fetch(`${lb.url}/all`, {
          method: "POST",
          headers: { "Content-Type": "text/xml" },
          body: `<Envelope xmlns="http://schemas.xmlsoap.org/soap/envelope/"><Body><${op} xmlns="urn:bye"><name xmlns="">c</name></${op}></Body></Envelope>`,
        });
        expect(res.status).toBe(200);
        expect(await res.text()).toContain(
          `<${op}Response xmlns="urn:bye"><greeting xmlns="">bye c</greeting></${op}Response>`,
        );
      }
      expect((await fetch(`${lb.url}/bye`, { method: "POST" })).status).toBe(404);
      expect(seen).toEqual([
        "sayAnotherBye@AnotherPort",
        "sayBye@ByePort",
        "sayBye@ByePort",
        "sayAnotherBye@AnotherPort",
      ]);
    } finally {
      await lb.close();
    }
  });
});
