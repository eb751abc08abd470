/** The model keeps every wire fact of the fixture. */
import { describe, expect, it } from "vitest";
import { loadWsdl } from "../../src/generate.js";
import type { ComplexType, Service } from "../../src/model/model.js";
import { httpBop, soapBop } from "../support/binding-operations.js";
import { WSDL_PATH } from "../support/captures.js";

const NS = "http://api.example.com/messages/";

describe("the model of the Message Retrieval Service", async () => {
  const { model } = await loadWsdl(WSDL_PATH);
  const service = model!.services[0] as Service;

  it("has the SOAP bindings' actions and styles, and the HTTP bindings' verbs and locations", () => {
    const [soap11, soap12, get, post] = service.ports.map((p) => p.binding);
    expect(soap11!.operations.map((o) => soapBop(o).soapAction)).toEqual([
      `${NS}GetMessages`,
      `${NS}GetMessagesInDateRange`,
      `${NS}DeleteMessage`,
    ]);
    expect(soap12!.protocol).toBe("soap12");
    expect(soapBop(soap11!.operations[0]).style).toBe("document");
    expect(soap11!.operations[0]!.inputEncoding).toEqual({
      kind: "soapBody",
      use: "literal",
      namespace: undefined,
    });
    expect(get!.verb).toBe("GET");
    expect(get!.operations.map((o) => httpBop(o).location)).toEqual([
      "/GetMessages",
      "/GetMessagesInDateRange",
      "/DeleteMessage",
    ]);
    expect(get!.operations[0]!.inputEncoding).toEqual({ kind: "urlEncoded" });
    expect(post!.operations[0]!.inputEncoding).toEqual({
      kind: "mimeContent",
      contentType: "application/x-www-form-urlencoded",
    });
    expect(get!.operations[0]!.outputEncoding).toEqual({ kind: "mimeXml", part: "Body" });
    expect(get!.operations[2]!.outputEncoding).toEqual({ kind: "none" });
    expect(service.ports.map((p) => p.address)).toEqual(
      Array(4).fill("http://127.0.0.1:8089/api.asmx"),
    );
  });

  it("links the HTTP bindings' string parts to the same logical operation and its typed fields", () => {
    const soapOp = service.ports[0]!.binding.operations[1]!.operation;
    const httpOp = httpBop(service.ports[2]!.binding.operations[1]);
    expect(httpOp.operation).toBe(soapOp);
    expect(
      httpOp.httpParameters.map((p) => [
        p.name,
        p.field.type.kind === "builtin" ? p.field.type.scalar : "?",
      ]),
    ).toEqual([
      ["email", "string"],
      ["password", "string"],
      ["startDate", "dateTime"],
      ["endDate", "dateTime"],
    ]);
    expect(service.operations.map((o) => o.name)).toEqual([
      "GetMessages",
      "GetMessagesInDateRange",
      "DeleteMessage",
    ]);
    expect(service.operations.map((o) => o.result.kind)).toEqual([
      "unwrapped",
      "unwrapped",
      "void",
    ]);
  });

  it("keeps element order, occurrence, nillable and namespaces", () => {
    const messages = model!.types.find((t) => t.name?.local === "Messages") as ComplexType;
    expect(
      messages.fields.map((f) => [f.name.local, f.minOccurs, f.maxOccurs, f.nillable]),
    ).toEqual([
      ["DateArrived", 1, 1, false],
      ["UserId", 1, 1, false],
      ["Sender", 0, 1, false],
      ["MessageText", 0, 1, false],
      ["MessageUrl", 0, 1, false],
      ["Transcription", 0, 1, false],
      ["Id", 1, 1, false],
    ]);
    expect(messages.fields.every((f) => f.name.ns === NS)).toBe(true);
    const array = model!.types.find((t) => t.name?.local === "ArrayOfMessages") as ComplexType;
    expect(array.fields[0]).toMatchObject({ minOccurs: 0, maxOccurs: Infinity, nillable: true });
    expect(service.operations[1]!.doc).toBe(
      "Returns the messages whose DateArrived lies in [startDate, endDate] (both bounds inclusive).",
    );
  });
});

describe("chameleon includes", () => {
  it("a schema without a target namespace takes the includer's, references included", async () => {
    const { tempDir, writeTemp } = await import("../support/tmp.js");
    const dir = tempDir();
    writeTemp(
      dir,
      "parts.xsd",
      '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:complexType name="Item"><xs:sequence><xs:element name="Code" type="Code"/></xs:sequence></xs:complexType><xs:simpleType name="Code"><xs:restriction base="xs:string"><xs:enumeration value="A"/></xs:restriction></xs:simpleType></xs:schema>',
    );
    const wsdl = writeTemp(
      dir,
      "c.wsdl",
      `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:t="urn:c" targetNamespace="urn:c">
  <types><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:c" elementFormDefault="qualified"><xs:include schemaLocation="parts.xsd"/><xs:element name="Get"><xs:complexType><xs:sequence><xs:element name="Item" type="t:Item"/></xs:sequence></xs:complexType></xs:element></xs:schema></types>
  <message name="In"><part name="p" element="t:Get"/></message>
  <portType name="P"><operation name="Get"><input message="t:In"/></operation></portType>
  <binding name="B" type="t:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/><operation name="Get"><soap:operation soapAction="urn:c#Get"/><input><soap:body use="literal"/></input></operation></binding>
  <service name="S"><port name="Port" binding="t:B"><soap:address location="http://localhost/s"/></port></service>
</definitions>`,
    );
    const r = await loadWsdl(wsdl);
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const item = r.model!.types.find((t) => t.name?.local === "Item") as ComplexType;
    expect(item.name).toEqual({ ns: "urn:c", local: "Item" });
    expect(item.fields[0]!.type).toMatchObject({
      kind: "simple",
      name: { ns: "urn:c", local: "Code" },
      enumeration: ["A"],
    });
    expect(r.model!.services[0]!.operations[0]!.oneWay).toBe(true);
  });
});
