/** Bad input gets a located diagnostic: file, line, column and what was expected; never a crash. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateFiles, loadWsdl } from "../../src/generate.js";
import { soapBop } from "../support/binding-operations.js";
import { WSDL_PATH } from "../support/captures.js";
import { wsdl } from "../support/one-operation-wsdl.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const dir = tempDir();
const FIXTURE = readFileSync(WSDL_PATH, "utf8");
const lineOf = (text: string, needle: string) =>
  text.slice(0, text.indexOf(needle)).split("\n").length;

/** Loads `text`; with `strict`, recoveries from defects (recovery.ts) are errors too. */
async function diagnose(name: string, text: string, strict = false) {
  const file = writeTemp(dir, name, text);
  const r = await loadWsdl(file, { strict });
  return { file, model: r.model, errors: r.diagnostics.filter((d) => d.severity === "error") };
}

describe("diagnostics for invalid WSDLs", () => {
  it("malformed XML names its line and column", async () => {
    const { file, errors, model } = await diagnose(
      "malformed.wsdl",
      '<?xml version="1.0"?>\n<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">\n  <wsdl:types>\n</wsdl:definitions>\n',
    );
    expect(model).toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: "XML_MALFORMED", file });
    expect([3, 4]).toContain(errors[0]!.line);
    expect(errors[0]!.column).toBeGreaterThan(0);
  });

  it("a DTD is refused before any entity could expand", async () => {
    const { errors } = await diagnose(
      "dtd.wsdl",
      '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n<x>&b;</x>\n',
    );
    expect(errors[0]).toMatchObject({ code: "XML_DTD_REFUSED", line: 2, column: 1 });
  });

  it("a document that is not WSDL says what was expected", async () => {
    const { errors } = await diagnose("notwsdl.xml", "<root/>");
    expect(errors[0]!.code).toBe("WSDL_NOT_DEFINITIONS");
    expect(errors[0]!.message).toContain("expected wsdl:definitions");
  });

  it("an undeclared type is located at the element that names it (an error under strict)", async () => {
    const text = FIXTURE.replace('name="UserId" type="s:int"', 'name="UserId" type="tns:Missing"');
    const { errors } = await diagnose("unresolved.wsdl", text, true);
    expect(errors[0]).toMatchObject({
      code: "XSD_UNRESOLVED",
      line: lineOf(text, 'name="UserId"'),
    });
    expect(errors[0]!.message).toContain("{http://api.example.com/messages/}Missing");
  });

  it("an unbound prefix is located, and resolved by local name with a warning when that is unambiguous", async () => {
    const text = FIXTURE.replace('element="tns:GetMessages"', 'element="nope:GetMessages"');
    const file = writeTemp(dir, "prefix.wsdl", text);
    const r = await loadWsdl(file);
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const warning = r.diagnostics.find((d) => d.code === "XSD_RESOLVED_BY_LOCAL_NAME");
    expect(warning).toMatchObject({ file, line: lineOf(text, "nope:GetMessages") });
    expect(warning!.message).toContain('prefix "nope"');
    expect(warning!.message).toContain("{http://api.example.com/messages/}GetMessages");
    // The wire name is the declared element's, namespace included.
    const op = soapBop(r.model!.services[0]!.ports[0]!.binding.operations[0]);
    expect(op.soapInput).toMatchObject({
      kind: "element",
      element: { name: { ns: "http://api.example.com/messages/", local: "GetMessages" } },
    });
  });

  it("an unbound prefix that names nothing is named (an error under strict)", async () => {
    const text = FIXTURE.replace('element="tns:GetMessages"', 'element="nope:Nothing"');
    const { errors } = await diagnose("prefix2.wsdl", text, true);
    expect(errors[0]).toMatchObject({
      code: "XML_UNBOUND_PREFIX",
      line: lineOf(text, "nope:Nothing"),
    });
    expect(errors[0]!.message).toContain('prefix "nope"');
  });

  it("a reference in the wrong namespace resolves by its unique local name; an ambiguous one does not", async () => {
    const wrong = FIXTURE.replace('element="tns:GetMessages"', 'element="s:GetMessages"');
    const r = await loadWsdl(writeTemp(dir, "wrongns.wsdl", wrong));
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(r.diagnostics.find((d) => d.code === "XSD_RESOLVED_BY_LOCAL_NAME")?.message).toContain(
      'is not declared in namespace "http://www.w3.org/2001/XMLSchema"',
    );
    const builtin = FIXTURE.replace('name="UserId" type="s:int"', 'name="UserId" type="int"');
    const b = await loadWsdl(writeTemp(dir, "builtin.wsdl", builtin));
    expect(b.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(b.diagnostics.find((d) => d.code === "XSD_RESOLVED_BY_LOCAL_NAME")?.message).toContain(
      "built-in xs:int",
    );
    // Two schemas declaring the same local name: no guess.
    const twice = FIXTURE.replace(
      "</wsdl:types>",
      '<s:schema targetNamespace="urn:other"><s:element name="GetMessages" type="s:string"/></s:schema></wsdl:types>',
    ).replace('element="tns:GetMessages"', 'element="s:GetMessages"');
    const { errors } = await diagnose("ambiguous.wsdl", twice, true);
    expect(errors[0]).toMatchObject({
      code: "XSD_UNRESOLVED",
      line: lineOf(twice, 'element="s:GetMessages"'),
    });
  });

  it("an undeclared conventional prefix is read as its usual namespace, with a warning at its first use", async () => {
    // The fixture's root declares soap12 and http; drop both declarations.
    const text = FIXTURE.replace(/ xmlns:soap12="[^"]*"/, "").replace(/ xmlns:http="[^"]*"/, "");
    expect(text).not.toContain("xmlns:soap12=");
    expect(text).not.toContain("xmlns:http=");
    const file = writeTemp(dir, "soap12.wsdl", text);
    const r = await loadWsdl(file);
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const columnOf = (needle: string) =>
      text.slice(0, text.indexOf(needle)).split("\n").pop()!.length + 1;
    const warnings = r.diagnostics.filter((d) => d.code === "XML_PREFIX_ASSUMED");
    // Each at its own first use, the second too (after the first prefix was assumed).
    expect(warnings.map((w) => [w.line, w.column])).toEqual(
      ["<soap12:", "<http:"]
        .sort((a, b) => text.indexOf(a) - text.indexOf(b))
        .map((n) => [lineOf(text, n), columnOf(n)]),
    );
    const warning = warnings.find((w) => w.message.includes("soap12"));
    expect(warning).toMatchObject({ file, line: lineOf(text, "<soap12:") });
    expect(warning!.message).toContain("http://schemas.xmlsoap.org/wsdl/soap12/");
    expect(r.model!.services[0]!.ports.map((p) => p.binding.protocol)).toEqual([
      "soap11",
      "soap12",
      "httpGet",
      "httpPost",
    ]);
  });

  it("positions stay exact after a prefix is assumed, on the root's line too (a WSDL written on one line)", async () => {
    // One line, soap12's declaration dropped (its bindings come after the messages), and a message
    // part naming an element no schema declares.
    const text = FIXTURE.replace(/ xmlns:soap12="[^"]*"/, "")
      .replace(/>\s*\n\s*</g, "><")
      .replace(
        '<wsdl:part name="parameters" element="tns:GetMessages" />',
        '<wsdl:part name="parameters" element="tns:Nope" />',
      );
    expect(text.indexOf("\n", text.indexOf("<wsdl:definitions"))).toBe(-1);
    const file = writeTemp(dir, "one-line.wsdl", text);
    const { diagnostics } = await loadWsdl(file);
    const columnOf = (needle: string) =>
      text.slice(0, text.indexOf(needle)).split("\n").pop()!.length + 1;
    const assumed = diagnostics.find((d) => d.code === "XML_PREFIX_ASSUMED");
    expect(assumed).toMatchObject({ line: lineOf(text, "<soap12:"), column: columnOf("<soap12:") });
    const unresolved = diagnostics.find((d) => d.message.includes("Nope"));
    expect(unresolved).toMatchObject({
      line: lineOf(text, 'element="tns:Nope"'),
      column: columnOf('<wsdl:part name="parameters" element="tns:Nope"'),
    });
  });

  it("a derivation chain longer than 256 types is an error where it goes past the limit, not a stack overflow", async () => {
    const chain = (n: number) =>
      Array.from(
        { length: n },
        (_, i) =>
          `<xs:complexType name="T${i}"><xs:complexContent><xs:extension base="n:T${i + 1}"><xs:sequence><xs:element name="e${i}" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>\n`,
      ).join("") + `<xs:complexType name="T${n}"><xs:sequence/></xs:complexType>`;
    const text = (n: number) =>
      wsdl({
        types: `<xs:schema targetNamespace="urn:n" elementFormDefault="qualified">\n${chain(n)}<xs:element name="Req" type="n:T0"/><xs:element name="Res" type="xs:string"/></xs:schema>`,
      });
    const deep = text(3000);
    const { errors } = await diagnose("deep-chain.wsdl", deep);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      code: "XSD_TOO_DEEP",
      line: lineOf(deep, '<xs:extension base="n:T257"'),
      message:
        "the derivation chain reaching {urn:n}T257 is longer than 256 types; expected at most 256",
    });
    const { errors: none, model } = await diagnose("chain-of-256.wsdl", text(256));
    expect(none).toEqual([]);
    expect(model).toBeDefined();
  });

  it("named types nested a thousand deep generate (their mapping is put off past 128 levels); thousands deep is a diagnostic, not a stack overflow", async () => {
    const nested = (n: number) =>
      wsdl({
        types:
          `<xs:schema targetNamespace="urn:n" elementFormDefault="qualified">\n` +
          Array.from(
            { length: n },
            (_, i) =>
              `<xs:complexType name="T${i}"><xs:sequence><xs:element name="e${i}" type="n:T${i + 1}" minOccurs="0"/></xs:sequence></xs:complexType>\n`,
          ).join("") +
          `<xs:complexType name="T${n}"><xs:sequence/></xs:complexType><xs:element name="Req" type="n:T0"/><xs:element name="Res" type="xs:string"/></xs:schema>`,
      });
    const thousand = await generateFiles(writeTemp(dir, "nested-1000.wsdl", nested(1000)), {
      embedWsdl: false,
    });
    expect(thousand.diagnostics).toEqual([]);
    const types = thousand.files.find((f) => f.path === "types.ts")!.content;
    for (const i of [0, 127, 128, 129, 500, 999])
      expect(types).toContain(`export interface T${i} {\n  e${i}?: T${i + 1};\n}`);
    expect(types).toContain("export type T1000 = Record<string, never>;");
    const file = writeTemp(dir, "nested-5000.wsdl", nested(5000));
    const deep = await generateFiles(file, { embedWsdl: false });
    expect(deep.files).toEqual([]);
    expect(deep.diagnostics).toEqual([
      expect.objectContaining({ code: "XSD_TOO_DEEP", severity: "error", file, line: 0 }),
    ]);
  });

  it("an undeclared element prefix of no known meaning is located and named", async () => {
    const text = FIXTURE.replace("<wsdl:types>", "<wsdl:types>\n<foo:bar/>");
    const { errors } = await diagnose("foo.wsdl", text);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      code: "XML_UNBOUND_PREFIX",
      line: lineOf(text, "<foo:bar"),
      column: 1,
    });
    expect(errors[0]!.message).toContain('the element <foo:bar> uses the prefix "foo"');
  });

  it("an undeclared attribute prefix of no known meaning is located and named", async () => {
    const text = FIXTURE.replace("<wsdl:types>", '<wsdl:types foo:note="x">');
    const { errors } = await diagnose("foo-attr.wsdl", text);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      code: "XML_UNBOUND_PREFIX",
      line: lineOf(text, 'foo:note="x"'),
    });
    expect(errors[0]!.message).toContain('the attribute foo:note uses the prefix "foo"');
  });

  it("a misspelt schema component is named where it stands, not as an unresolved reference elsewhere", async () => {
    const text = FIXTURE.replace(
      '<s:complexType name="ArrayOfMessages">',
      '<s:complextype name="Spare"/><s:complexType name="ArrayOfMessages">',
    );
    const { errors } = await diagnose("typo.wsdl", text, true);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      code: "XSD_UNKNOWN_ELEMENT",
      line: lineOf(text, "<s:complextype"),
    });
    expect(errors[0]!.message).toContain("reading it as xs:complexType");
  });

  it("a document-style part with type= is read as an unqualified element named after the part, with a warning", async () => {
    const text = FIXTURE.replace(
      '<wsdl:part name="parameters" element="tns:DeleteMessage" />',
      '<wsdl:part name="id" type="s:int" />',
    );
    expect(text).toContain('<wsdl:part name="id" type="s:int" />');
    const file = writeTemp(dir, "typepart.wsdl", text);
    const r = await loadWsdl(file);
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(r.diagnostics.find((d) => d.code === "WSDL_DOCUMENT_PART_TYPE")).toMatchObject({
      severity: "warning",
      line: lineOf(text, '<wsdl:part name="id"'),
    });
    const op = soapBop(
      r.model!.services[0]!.ports[0]!.binding.operations.find(
        (o) => o.operation.name === "DeleteMessage",
      ),
    );
    expect(op.soapInput).toMatchObject({
      kind: "element",
      element: { name: { ns: "", local: "id" }, type: { kind: "builtin", scalar: "int" } },
    });
  });

  it("a binding without its portType is located, not a crash (an error under strict)", async () => {
    const text = FIXTURE.replace(
      '<wsdl:binding name="ApiSoap" type="tns:ApiSoap">',
      '<wsdl:binding name="ApiSoap" type="tns:Gone">',
    );
    const { errors } = await diagnose("portType.wsdl", text, true);
    expect(errors.map((e) => e.code)).toContain("WSDL_UNRESOLVED");
    expect(errors[0]!.line).toBe(lineOf(text, 'type="tns:Gone"'));
  });

  it("a missing required attribute says which", async () => {
    const text = FIXTURE.replace(
      '<wsdl:port name="ApiSoap" binding="tns:ApiSoap">',
      '<wsdl:port binding="tns:ApiSoap">',
    );
    const { errors } = await diagnose("noname.wsdl", text);
    expect(errors[0]).toMatchObject({
      code: "WSDL_MISSING_ATTRIBUTE",
      line: lineOf(text, '<wsdl:port binding="tns:ApiSoap">'),
    });
    expect(errors[0]!.message).toContain('expected name="…"');
  });

  it("an unreadable file is a diagnostic", async () => {
    const r = await loadWsdl(`${dir}/does-not-exist.wsdl`);
    expect(r.diagnostics[0]!.code).toBe("INPUT_NOT_READABLE");
  });

  it("the fixture itself has no diagnostics", async () => {
    const r = await loadWsdl(WSDL_PATH);
    expect(r.diagnostics).toEqual([]);
    expect(
      r.model?.services.map((s) => s.ports.map((p) => `${p.name}:${p.binding.protocol}`)),
    ).toEqual([
      ["ApiSoap:soap11", "ApiSoap12:soap12", "ApiHttpGet:httpGet", "ApiHttpPost:httpPost"],
    ]);
  });
});
