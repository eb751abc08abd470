/**
 * What a reader used to leave out without a word (issue #32): each is now a located warning that
 * says what was found and what was expected, and `--strict` refuses it.
 */
import { describe, expect, it } from "vitest";
import { loadWsdl } from "../../src/generate.js";
import { soapBop } from "../support/binding-operations.js";
import { MESSAGES, oneOperationWsdl, wsdl } from "../support/one-operation-wsdl.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const dir = tempDir();
const lineOf = (text: string, needle: string) => {
  expect(text).toContain(needle);
  return text.slice(0, text.indexOf(needle)).split("\n").length;
};

/** Loads `text` leniently and strictly: the warnings of `code`, and whether strict refused them. */
async function both(name: string, text: string, code: string) {
  const file = writeTemp(dir, name, text);
  const lenient = await loadWsdl(file);
  const strict = await loadWsdl(file, { strict: true });
  return {
    file,
    model: lenient.model,
    warnings: lenient.diagnostics.filter((d) => d.code === code && d.severity === "warning"),
    refused: strict.diagnostics.filter((d) => d.code === code && d.severity === "error"),
    strictModel: strict.model,
  };
}

describe("XML Schema content the grammar does not allow is said, not dropped", () => {
  const cases: [string, string, string, string][] = [
    [
      "a misspelt xs:elment in a sequence",
      '<xs:elment name="Lost" type="xs:string"/>',
      "<xs:elment",
      "found <xs:elment> in xs:sequence",
    ],
    [
      "a second content model",
      "",
      '<xs:sequence><xs:element name="Second"',
      "a second content model",
    ],
    [
      "an element with both type= and an inline type",
      '<xs:element name="Both" type="xs:string"><xs:simpleType><xs:restriction base="xs:int"/></xs:simpleType></xs:element>',
      'name="Both"',
      'both type="xs:string" and an inline xs:simpleType',
    ],
  ];
  for (const [what, request, at, says] of cases) {
    it(`${what}: located, refused by --strict`, async () => {
      let text = oneOperationWsdl("", request);
      if (what === "a second content model")
        text = text.replace(
          "</xs:sequence></xs:complexType></xs:element>",
          '</xs:sequence><xs:sequence><xs:element name="Second" type="xs:string"/></xs:sequence></xs:complexType></xs:element>',
        );
      const r = await both("xsd-left-out.wsdl", text, "XSD_LEFT_OUT");
      expect(r.model).toBeDefined();
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings[0]).toMatchObject({ file: r.file, line: lineOf(text, at) });
      expect(r.warnings[0]!.message).toContain(says);
      expect(r.warnings[0]!.message).toContain("expected");
      expect(r.refused).toHaveLength(1);
      expect(r.strictModel).toBeUndefined();
    });
  }

  it("a foreign element in xs:schema, an unknown xs: child and xs:include without schemaLocation", async () => {
    const text = wsdl({
      types: `    <xs:schema targetNamespace="urn:n" xmlns:j="urn:vendor">
      <j:bindings/>
      <xs:frobnicate/>
      <xs:include/>
      <xs:element name="Req"><xs:complexType/></xs:element>
      <xs:element name="Res"><xs:complexType/></xs:element>
    </xs:schema>`,
    });
    const r = await both("foreign.wsdl", text, "XSD_LEFT_OUT");
    expect(r.warnings.map((w) => w.line)).toEqual([
      lineOf(text, "<j:bindings"),
      lineOf(text, "<xs:frobnicate"),
      lineOf(text, "<xs:include"),
    ]);
    expect(r.warnings.map((w) => w.message.split(";")[0])).toEqual([
      "found <j:bindings>",
      "found <xs:frobnicate>",
      "found <xs:include> without schemaLocation",
    ]);
    expect(r.refused).toHaveLength(3);
  });

  it("xs:redefine with redefinitions: the document is read, the redefinitions said to be left out", async () => {
    writeTemp(
      dir,
      "base.xsd",
      `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:n">
  <xs:complexType name="T"><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:complexType>
</xs:schema>`,
    );
    const text = wsdl({
      types: `    <xs:schema targetNamespace="urn:n" xmlns:n="urn:n">
      <xs:redefine schemaLocation="base.xsd">
        <xs:complexType name="T"><xs:complexContent><xs:extension base="n:T"><xs:sequence><xs:element name="b" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
      </xs:redefine>
      <xs:element name="Req" type="n:T"/>
      <xs:element name="Res"><xs:complexType/></xs:element>
    </xs:schema>`,
    });
    const r = await both("redefine.wsdl", text, "XSD_REDEFINE");
    expect(r.model).toBeDefined();
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatchObject({ line: lineOf(text, "<xs:redefine") });
    expect(r.warnings[0]!.message).toContain("base.xsd");
    expect(r.refused).toHaveLength(1);
  });

  it("XSD_BAD_CONTENT and XSD_GROUP_WITHOUT_REF say what was found", async () => {
    const bad = await loadWsdl(
      writeTemp(
        dir,
        "bad-content.wsdl",
        oneOperationWsdl(
          '<xs:complexType name="C"><xs:complexContent><xs:sequence/></xs:complexContent></xs:complexType>',
          "",
        ),
      ),
    );
    expect(bad.diagnostics[0]!.message).toContain("found xs:complexContent holding <xs:sequence>");
    const group = await loadWsdl(
      writeTemp(dir, "group.wsdl", oneOperationWsdl("", '<xs:group name="G"/>')),
    );
    expect(group.diagnostics[0]).toMatchObject({ code: "XSD_GROUP_WITHOUT_REF" });
    expect(group.diagnostics[0]!.message).toContain('found a local xs:group named "G"');
  });
});

describe("WSDL content WSDL 1.1 does not define is said, not dropped", () => {
  it("wsdl:mesage and a second wsdl:input are located warnings, refused by --strict", async () => {
    const text = wsdl({
      messages: `  <wsdl:mesage name="Typo"/>\n${'  <wsdl:message name="In"><wsdl:part name="p" element="n:Req"/></wsdl:message>\n  <wsdl:message name="Out"><wsdl:part name="p" element="n:Res"/></wsdl:message>'}`,
      operation: `<wsdl:operation name="Op"><wsdl:input message="tns:In"/><wsdl:input message="tns:Out"/><wsdl:output message="tns:Out"/></wsdl:operation>`,
      types: `<xs:schema targetNamespace="urn:n"><xs:element name="Req"/><xs:element name="Res"/></xs:schema>`,
    });
    const r = await both("wsdl-left-out.wsdl", text, "WSDL_LEFT_OUT");
    expect(r.model).toBeDefined();
    expect(r.warnings.map((w) => w.line)).toEqual([
      lineOf(text, "<wsdl:mesage"),
      lineOf(text, '<wsdl:input message="tns:Out"'),
    ]);
    expect(r.warnings[0]!.message).toMatch(/^found <wsdl:mesage>; expected one of .*wsdl:message/);
    expect(r.warnings[1]!.message).toContain("found a second <wsdl:input>");
    expect(r.refused).toHaveLength(2);
  });

  it("an unsupported binding says which extension it found", async () => {
    const text = wsdl({}).replace(
      '<soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>',
      '<x:binding xmlns:x="urn:corba"/>',
    );
    const r = await both("corba.wsdl", text, "WSDL_UNSUPPORTED_BINDING");
    expect(r.warnings[0]!.message).toContain("{urn:corba}binding");
    expect(r.warnings[0]!.message).toContain("expected");
  });

  it("an XML Schema given as the WSDL is located at its root element", async () => {
    const file = writeTemp(
      dir,
      "schema-root.xml",
      '<?xml version="1.0"?>\n<!-- a schema -->\n  <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>\n',
    );
    const r = await loadWsdl(file);
    expect(r.diagnostics[0]).toMatchObject({ code: "WSDL_NOT_DEFINITIONS", line: 3, column: 3 });
  });
});

describe("MIME parts and HTTP response parts", () => {
  /** The one-operation WSDL with an input of parts p (n:Req) and scan, bound by `related`. */
  const swa = (related: string) =>
    wsdl({
      types: `<xs:schema targetNamespace="urn:n"><xs:element name="Req"/><xs:element name="Res"/></xs:schema>`,
      messages: MESSAGES.replace(
        '<wsdl:part name="p" element="n:Req"/>',
        '<wsdl:part name="p" element="n:Req"/><wsdl:part name="scan" type="xs:base64Binary"/>',
      ),
    })
      .replace(
        'xmlns:xs="http://www.w3.org/2001/XMLSchema"',
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/"',
      )
      .replace(
        '<wsdl:input><soap:body use="literal"/></wsdl:input>',
        `<wsdl:input><mime:multipartRelated>\n${related}\n      </mime:multipartRelated></wsdl:input>`,
      );

  it("an attachment part (SOAP with Attachments) is read into the operation, not into the body", async () => {
    const text = swa(`        <mime:part><soap:body parts="p" use="literal"/></mime:part>
        <mime:part><mime:content part="scan" type="image/png"/><mime:content part="scan" type="image/jpeg"/></mime:part>`);
    const r = await both("swa-ok.wsdl", text, "WSDL_MIME_PART_SKIPPED");
    expect(r.warnings).toEqual([]);
    const op = r.model!.services[0]!.operations[0]!;
    expect(op.attachments?.input).toMatchObject([
      { kind: "attachment", name: "scan", contentTypes: ["image/png", "image/jpeg"] },
    ]);
    expect(op.attachments?.output).toEqual([]);
    // The body holds part p alone: one element, not the parts p and scan.
    const bop = soapBop(r.model!.services[0]!.ports[0]!.binding.operations[0]);
    expect(bop.soapInput).toMatchObject({ kind: "element" });
    expect(r.strictModel).toBeDefined();
  });

  it("a second binding of the operation without its attachment parts is said, and refused by --strict", async () => {
    const text = swa(`        <mime:part><soap:body parts="p" use="literal"/></mime:part>
        <mime:part><mime:content part="scan" type="image/png"/></mime:part>`)
      .replace(
        "  <wsdl:service",
        `  <wsdl:binding name="Plain" type="tns:P">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Op"><soap:operation soapAction="Op"/>
      <wsdl:input><soap:body parts="p" use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service`,
      )
      .replace(
        "</wsdl:service>",
        '<wsdl:port name="Plain" binding="tns:Plain"><soap:address location="http://localhost/p"/></wsdl:port></wsdl:service>',
      );
    const r = await both("swa-two.wsdl", text, "WSDL_MIME_PART_SKIPPED");
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]!.message).toContain(
      "operation Op binds the attachment parts none here, but input scan, output none in the binding that declared it first",
    );
    expect(r.warnings[0]).toMatchObject({ line: lineOf(text, '<wsdl:binding name="Plain"') + 2 });
    expect(r.refused).toHaveLength(1);
  });

  it("an HTTP binding of an operation with attachment parts leaves it out, said", async () => {
    const text = swa(`        <mime:part><soap:body parts="p" use="literal"/></mime:part>
        <mime:part><mime:content part="scan" type="image/png"/></mime:part>`)
      .replace(
        'xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/"',
        'xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/" xmlns:http="http://schemas.xmlsoap.org/wsdl/http/"',
      )
      .replace(
        "  <wsdl:service",
        `  <wsdl:binding name="H" type="tns:P"><http:binding verb="POST"/>
    <wsdl:operation name="Op"><http:operation location="/Op"/>
      <wsdl:input><mime:content type="application/x-www-form-urlencoded"/></wsdl:input>
      <wsdl:output><mime:mimeXml part="p"/></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service`,
      )
      .replace(
        "</wsdl:service>",
        '<wsdl:port name="H" binding="tns:H"><http:address location="http://localhost/h"/></wsdl:port></wsdl:service>',
      );
    const r = await both("swa-http.wsdl", text, "WSDL_HTTP_UNSUPPORTED");
    expect(r.warnings.map((w) => w.message).join("\n")).toContain(
      "the operation's SOAP binding carries attachment parts (SOAP with Attachments)",
    );
    const http = r.model!.services[0]!.ports.find((p) => p.name === "H");
    expect(http?.binding.operations ?? []).toEqual([]);
    expect(r.refused.length).toBeGreaterThan(0);
  });

  const unsupported: [string, string, string, string, string][] = [
    [
      "mime:content naming a part the message lacks",
      '<mime:part><mime:content part="photo" type="image/png"/></mime:part>',
      "WSDL_UNRESOLVED",
      '<mime:part><mime:content part="photo"',
      'mime:content part="photo" names a part that message In lacks',
    ],
    [
      "mime:mimeXml in mime:multipartRelated",
      '<mime:part><mime:mimeXml part="scan"/></mime:part>',
      "WSDL_MIME_PART_SKIPPED",
      '<mime:part><mime:mimeXml part="scan"/>',
      'found a MIME part with <mime:mimeXml part="scan">',
    ],
    [
      "a part that soap:body binds too",
      '<mime:part><mime:content part="p" type="text/xml"/></mime:part>',
      "WSDL_MIME_PART_SKIPPED",
      '<mime:part><mime:content part="p"',
      'mime:content part="p" names a part that soap:body binds too',
    ],
  ];
  it.each(unsupported)(
    "%s is a located diagnostic, refused by --strict",
    async (_, part, code, at, message) => {
      const text = swa(`        <mime:part><soap:body parts="p" use="literal"/></mime:part>
        ${part}`);
      const r = await both("swa.wsdl", text, code);
      const found = await loadWsdl(r.file);
      const d = found.diagnostics.filter((x) => x.code === code);
      expect(d).toHaveLength(1);
      expect(d[0]).toMatchObject({ line: lineOf(text, at) });
      expect(d[0]!.message).toContain(message);
      expect(r.strictModel).toBeUndefined();
    },
  );
});

describe("lenient on disk: an XML declaration after a comment", () => {
  const HEADER = "<!-- Copyright (c) a vendor.\n     All rights reserved. -->\n";

  it("in a WSDL and in the schema it includes: read, with a located warning each; --strict refuses", async () => {
    writeTemp(
      dir,
      "late.xsd",
      `${HEADER}<?xml version="1.0" encoding="UTF-8"?>\n<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:n">\n  <xs:element name="Req"/><xs:element name="Res"/>\n</xs:schema>\n`,
    );
    const text =
      HEADER +
      wsdl({
        types: `<xs:schema targetNamespace="urn:n"><xs:include schemaLocation="late.xsd"/></xs:schema>`,
      });
    const r = await both("late.wsdl", text, "XML_LATE_DECLARATION");
    expect(r.model?.services[0]?.ports).toHaveLength(1);
    expect(r.warnings.map((w) => [w.file.split("/").pop(), w.line, w.column])).toEqual([
      ["late.wsdl", 3, 1],
      ["late.xsd", 3, 1],
    ]);
    expect(r.warnings[0]!.message).toContain("expected it at the very start of the document");
    expect(r.refused.length).toBeGreaterThan(0);
    expect(r.strictModel).toBeUndefined();
    // Positions after the declaration stay exact.
    const unresolved = await loadWsdl(
      writeTemp(dir, "late-unresolved.wsdl", text.replace('element="n:Req"', 'element="n:Nope"')),
    );
    expect(unresolved.diagnostics.find((d) => d.message.includes("Nope"))).toMatchObject({
      line: lineOf(text, 'element="n:Req"'),
    });
  });

  it("a declaration after the root element is still malformed", async () => {
    const r = await loadWsdl(writeTemp(dir, "after-root.wsdl", wsdl({}) + '<?xml version="1.0"?>'));
    expect(r.diagnostics[0]).toMatchObject({ code: "XML_MALFORMED" });
  });
});

describe("an HTTP response's mime:mimeXml part", () => {
  it("a part name no part has is said, not read as the first part in silence", async () => {
    const text = wsdl({
      types: `<xs:schema targetNamespace="urn:n"><xs:element name="Req"/><xs:element name="Res"/></xs:schema>`,
    })
      .replace(
        'xmlns:xs="http://www.w3.org/2001/XMLSchema"',
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/" xmlns:http="http://schemas.xmlsoap.org/wsdl/http/"',
      )
      .replace(
        '<soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>',
        '<http:binding verb="GET"/>',
      )
      .replace(
        '<wsdl:operation name="Op"><soap:operation soapAction="Op"/>\n      <wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output>',
        '<wsdl:operation name="Op"><http:operation location="/Op"/>\n      <wsdl:input><http:urlEncoded/></wsdl:input><wsdl:output><mime:mimeXml part="Body"/></wsdl:output>',
      )
      .replace(
        '<soap:address location="http://localhost/"/>',
        '<http:address location="http://localhost/"/>',
      );
    const r = await both("mimexml.wsdl", text, "WSDL_UNRESOLVED");
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]!.message).toContain("names part Body, which message Out does not have");
    expect(r.warnings[0]).toMatchObject({
      line: lineOf(text, '<wsdl:output><mime:mimeXml part="Body"'),
    });
  });
});
