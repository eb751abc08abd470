/**
 * Recoveries from defects of the input (src/recovery.ts): each one generates code anyway, with
 * a located warning naming the defect, and each one is an error under `strict`.
 */
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/diagnostics.js";
import { generateFiles, loadWsdl } from "../../src/generate.js";
import { LIMITATIONS, RECOVERIES } from "../../src/recovery.js";
import { soapBop } from "../support/binding-operations.js";
import { MESSAGES, OPERATION, wsdl } from "../support/one-operation-wsdl.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const dir = tempDir();

/** 1-based line and column of `needle`, or of the start tag holding it (`tag`). */
function at(text: string, needle: string, tag = true): { line: number; column: number } {
  const i = text.indexOf(needle);
  expect(i, `${needle} is in the test's text`).toBeGreaterThanOrEqual(0);
  const start = tag ? text.lastIndexOf("<", i) : i;
  const before = text.slice(0, start);
  return { line: before.split("\n").length, column: start - before.lastIndexOf("\n") };
}

const RES = `<xs:element name="Res" type="xs:string"/>`;

const schema = (
  body: string,
) => `    <xs:schema targetNamespace="urn:n" xmlns:n="urn:n" elementFormDefault="qualified">
${body}
    </xs:schema>`;

const offline = (async () => {
  throw new Error("offline");
}) as typeof fetch;

/** Generates `text` (never fetching), expecting no errors; the warnings of `code` and the files. */
async function recover(
  name: string,
  text: string,
  code: keyof typeof RECOVERIES | keyof typeof LIMITATIONS,
) {
  const file = writeTemp(dir, name, text);
  const r = await generateFiles(file, { fetch: offline, embedWsdl: false });
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const file_ = (p: string) => r.files.find((f) => f.path === p)?.content ?? "";
  const strict = await loadWsdl(file, { fetch: offline, strict: true });
  return {
    file,
    model: r.model!,
    warnings: r.diagnostics.filter((d) => d.code === code),
    types: file_("types.ts"),
    client: file_("client.ts"),
    strict,
  };
}

/** Under strict the same diagnostic is an error, and nothing is generated. */
function expectStrictError(
  strict: Awaited<ReturnType<typeof loadWsdl>>,
  warning: Diagnostic,
): void {
  expect(strict.model).toBeUndefined();
  expect(strict.diagnostics).toContainEqual(
    expect.objectContaining({
      code: warning.code,
      severity: "error",
      file: warning.file,
      line: warning.line,
      column: warning.column,
    }),
  );
}

describe("recoveries from defects", () => {
  it("a type declared nowhere is read as xs:anyType, its content kept raw; where a simple type is expected, as xs:string", async () => {
    const text = wsdl({
      types: schema(`      <xs:element name="Req"><xs:complexType>
        <xs:sequence><xs:element name="code" type="n:Missing"/></xs:sequence>
        <xs:attribute name="flag" type="n:MissingSimple"/>
      </xs:complexType></xs:element>
      ${RES}`),
    });
    const { file, warnings, types, strict } = await recover(
      "unresolved-type.wsdl",
      text,
      "XSD_UNRESOLVED",
    );
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({
      severity: "warning",
      file,
      ...at(text, 'type="n:Missing"'),
    });
    expect(warnings[0]!.message).toBe(
      "type {urn:n}Missing is not declared; expected a declaration in this WSDL's schemas, an imported schema, or an XSD built-in; reading it as xs:anyType: its content (text, child elements, attributes) kept as raw XML",
    );
    expect(warnings[1]).toMatchObject({ file, ...at(text, 'type="n:MissingSimple"') });
    expect(warnings[1]!.message).toContain("reading it as xs:string");
    expect(types).toContain("export interface Missing {\n  $value?: string;");
    expect(types).toMatch(/\$attributes\?: Record<string, string>;\n[^]*\$any\?: XmlNode\[\];\n\}/);
    expect(types).toMatch(/export interface Req \{\n[^}]*flag\?: string;\n[^}]*code: Missing;\n\}/);
    expectStrictError(strict, warnings[0]!);
  });

  it("an xs:import written straight in wsdl:types is read as a schema of its own held it; other stray schema content is left out, said", async () => {
    writeTemp(
      dir,
      "stray-n.xsd",
      `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:n" elementFormDefault="qualified">
  <xs:element name="Req" type="xs:string"/>${RES}
</xs:schema>`,
    );
    const text = wsdl({
      types: `    <xs:import namespace="urn:n" schemaLocation="stray-n.xsd"/>
    <xs:element name="Lost" type="xs:string"/>`,
    });
    const r = await recover("stray-import.wsdl", text, "XSD_IMPORT_IN_TYPES");
    expect(r.warnings).toEqual([
      expect.objectContaining({
        file: r.file,
        ...at(text, "<xs:import"),
        message:
          "this xs:import stands in wsdl:types, outside any xs:schema; it is read as if a schema of its own held it",
      }),
    ]);
    // What it imports resolves: no follow-on warnings pointing elsewhere.
    const file = writeTemp(dir, "stray-import.wsdl", text);
    const all = (await generateFiles(file, { fetch: offline, embedWsdl: false })).diagnostics;
    expect(all.map((d) => d.code).sort()).toEqual(["XSD_IMPORT_IN_TYPES", "XSD_LEFT_OUT"]);
    expect(all.find((d) => d.code === "XSD_LEFT_OUT")).toMatchObject({
      ...at(text, '<xs:element name="Lost"'),
      message: expect.stringContaining(
        "xs:element stands in wsdl:types, outside any xs:schema; it is left out",
      ),
    });
    expectStrictError(r.strict, r.warnings[0]!);
  });

  it("a part's element declared nowhere becomes an element of that name with xs:anyType content", async () => {
    const text = wsdl({
      types: schema(`      <xs:element name="Req" type="xs:string"/>`),
    });
    const { file, model, warnings, types, strict } = await recover(
      "unresolved-element.wsdl",
      text,
      "XSD_UNRESOLVED",
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ file, ...at(text, 'element="n:Res"') });
    expect(warnings[0]!.message).toContain("element {urn:n}Res is not declared");
    expect(warnings[0]!.message).toContain(
      "reading it as an element of that name whose content is xs:anyType's",
    );
    const out = soapBop(model.services[0]!.ports[0]!.binding.operations[0]).soapOutput;
    expect(out).toMatchObject({
      kind: "element",
      element: {
        name: { ns: "urn:n", local: "Res" },
        type: { kind: "complex", anyElements: true, anyAttributes: true },
      },
    });
    expect(types).toContain("export interface Res {\n  $value?: string;");
    expectStrictError(strict, warnings[0]!);
  });

  it("an element ref, a group ref and an attributeGroup ref declared nowhere keep their content raw", async () => {
    const text = wsdl({
      types: schema(`      <xs:element name="Req"><xs:complexType>
        <xs:sequence><xs:element ref="n:Absent"/><xs:group ref="n:NoGroup"/></xs:sequence>
        <xs:attributeGroup ref="n:NoAttributes"/>
      </xs:complexType></xs:element>
      ${RES}`),
    });
    const { file, warnings, types, strict } = await recover(
      "unresolved-refs.wsdl",
      text,
      "XSD_UNRESOLVED",
    );
    expect(warnings.map((w) => [w.line, w.column])).toEqual([
      [at(text, 'ref="n:Absent"').line, at(text, 'ref="n:Absent"').column],
      [at(text, 'ref="n:NoGroup"').line, at(text, 'ref="n:NoGroup"').column],
      [at(text, 'ref="n:NoAttributes"').line, at(text, 'ref="n:NoAttributes"').column],
    ]);
    expect(warnings.every((w) => w.file === file)).toBe(true);
    expect(warnings[1]!.message).toContain("group {urn:n}NoGroup is not declared");
    expect(warnings[1]!.message).toContain("kept as raw XML trees in $any");
    expect(warnings[2]!.message).toContain("kept in $attributes");
    expect(types).toContain(
      "export interface Req {\n  /** Attributes matched by xs:anyAttribute, by name (`{namespace}local` when qualified). */\n  $attributes?: Record<string, string>;\n  Absent: Absent;\n  /** Elements matched by xs:any, as raw XML trees. */\n  $any?: XmlNode[];\n}",
    );
    expectStrictError(strict, warnings[2]!);
  });

  it("a QName whose prefix is unbound and whose local name matches nothing is recovered the same way", async () => {
    const text = wsdl({
      types: schema(`      <xs:element name="Req" type="xs:string"/>${RES}`),
      messages: MESSAGES.replace('element="n:Req"', 'element="q:Nowhere"'),
    });
    const { file, model, warnings, strict } = await recover(
      "unbound-prefix.wsdl",
      text,
      "XML_UNBOUND_PREFIX",
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ file, ...at(text, 'element="q:Nowhere"') });
    expect(warnings[0]!.message).toContain(
      'the element q:Nowhere uses the prefix "q", which no xmlns declaration in scope binds',
    );
    expect(soapBop(model.services[0]!.ports[0]!.binding.operations[0]).soapInput).toMatchObject({
      kind: "element",
      element: { name: { ns: "", local: "Nowhere" } },
    });
    expectStrictError(strict, warnings[0]!);
  });

  it("a missing output message makes the result void; a missing input message an empty request", async () => {
    const text = wsdl({
      types: schema(`      <xs:element name="Req" type="xs:string"/>${RES}`),
      messages: `  <wsdl:message name="In"><wsdl:part name="p" element="n:Req"/></wsdl:message>`,
    });
    const { file, model, warnings, types, strict } = await recover(
      "missing-output.wsdl",
      text,
      "WSDL_UNRESOLVED",
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ file, ...at(text, '<wsdl:output message="tns:Out"/>') });
    expect(warnings[0]!.message).toBe(
      "message {urn:svc}Out is not declared; expected a declaration in this WSDL or one it imports; reading it as a message without parts, so Op sends or receives an empty body there",
    );
    expect(model.services[0]!.operations[0]).toMatchObject({
      name: "Op",
      result: { kind: "void" },
    });
    expect(types).toMatch(/^  op: \{\n    input: .*;\n    output: void;$/m);
    expectStrictError(strict, warnings[0]!);

    const noInput = wsdl({
      types: schema(`      ${RES}`),
      messages: `  <wsdl:message name="Out"><wsdl:part name="p" element="n:Res"/></wsdl:message>`,
    });
    const r = await recover("missing-input.wsdl", noInput, "WSDL_UNRESOLVED");
    expect(r.warnings[0]).toMatchObject({ ...at(noInput, '<wsdl:input message="tns:In"/>') });
    const bop = soapBop(r.model.services[0]!.ports[0]!.binding.operations[0]);
    expect(bop.soapInput).toEqual({ kind: "empty" });
    expect(bop.operation.input.fields).toEqual([]);
  });

  it("a fault whose message is declared nowhere is left out", async () => {
    const text = wsdl({
      types: schema(`      <xs:element name="Req" type="xs:string"/>${RES}`),
      operation: OPERATION.replace(
        "</wsdl:operation>",
        '<wsdl:fault name="Oops" message="tns:NoSuchFault"/></wsdl:operation>',
      ),
    });
    const { file, model, warnings, strict } = await recover(
      "missing-fault.wsdl",
      text,
      "WSDL_UNRESOLVED",
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ file, ...at(text, 'message="tns:NoSuchFault"') });
    expect(warnings[0]!.message).toContain(
      "fault Oops of Op is left out (it arrives as an untyped SoapFault)",
    );
    expect(soapBop(model.services[0]!.ports[0]!.binding.operations[0]).faults).toEqual([]);
    expectStrictError(strict, warnings[0]!);
  });

  it("an import that cannot be read or fetched is left out; what it would declare is unresolved", async () => {
    const text = wsdl({
      head: '  <wsdl:import namespace="urn:gone" location="gone.wsdl"/>\n',
      types: `    <xs:schema targetNamespace="urn:svc">
      <xs:import namespace="urn:n" schemaLocation="absent.xsd"/>
      <xs:import namespace="urn:n" schemaLocation="http://schemas.invalid/types.xsd"/>
    </xs:schema>`,
    });
    const file = writeTemp(dir, "imports.wsdl", text);
    const r = await generateFiles(file, { fetch: offline, embedWsdl: false });
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const codes = (code: string) => r.diagnostics.filter((d) => d.code === code);
    expect(codes("INPUT_NOT_READABLE")).toEqual([
      expect.objectContaining({
        severity: "warning",
        file,
        ...at(text, 'schemaLocation="absent.xsd"'),
      }),
      expect.objectContaining({
        severity: "warning",
        file,
        ...at(text, '<wsdl:import namespace="urn:gone"'),
      }),
    ]);
    expect(codes("INPUT_NOT_READABLE")[0]!.message).toMatch(
      /^cannot read .*absent\.xsd \(ENOENT\); expected a readable WSDL or XSD file; continuing without it/,
    );
    expect(codes("INPUT_FETCH_FAILED")).toEqual([
      expect.objectContaining({
        file,
        ...at(text, 'schemaLocation="http://schemas.invalid/types.xsd"'),
      }),
    ]);
    expect(codes("INPUT_FETCH_FAILED")[0]!.message).toBe(
      "fetching http://schemas.invalid/types.xsd failed: offline; continuing without it (what it declares is unresolved)",
    );
    expect(codes("XSD_UNRESOLVED").map((d) => d.line)).toEqual([
      at(text, 'element="n:Req"').line,
      at(text, 'element="n:Res"').line,
    ]);
    expect(r.files.find((f) => f.path === "types.ts")!.content).toContain("export interface Req {");
    const strict = await loadWsdl(file, { fetch: offline, strict: true });
    expectStrictError(strict, codes("INPUT_FETCH_FAILED")[0]!);
    expectStrictError(strict, codes("INPUT_NOT_READABLE")[1]!);
  });

  it("the pre-2001 XML Schema namespaces are read as XML Schema", async () => {
    const text = wsdl({
      types: `    <xsd:schema targetNamespace="urn:n" xmlns:xsd="http://www.w3.org/2000/10/XMLSchema" elementFormDefault="qualified">
      <xsd:element name="Req"><xsd:complexType><xsd:all><xsd:element name="tickerSymbol" type="xsd:string"/></xsd:all></xsd:complexType></xsd:element>
    </xsd:schema>
    <schema targetNamespace="urn:n" xmlns="http://www.w3.org/1999/XMLSchema"><element name="Res" type="float"/></schema>`,
    });
    const { file, warnings, types, strict } = await recover(
      "obsolete.wsdl",
      text,
      "XSD_OBSOLETE_NAMESPACE",
    );
    expect(warnings).toEqual([
      expect.objectContaining({ file, ...at(text, 'xmlns:xsd="http://www.w3.org/2000/10', false) }),
      expect.objectContaining({ file, ...at(text, 'xmlns="http://www.w3.org/1999', false) }),
    ]);
    expect(warnings[0]!.message).toBe(
      "xmlns:xsd names the pre-2001 XML Schema namespace http://www.w3.org/2000/10/XMLSchema; reading it as http://www.w3.org/2001/XMLSchema",
    );
    expect(types).toMatch(/export interface Req \{\n\s*tickerSymbol: string;\n\}/);
    expectStrictError(strict, warnings[1]!);
  });

  it("a schema element outside the XML Schema namespace is left out, with a warning where it stands", async () => {
    const text = wsdl({
      types: `    <schema xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:n"><element name="Req" type="string"/></schema>`,
    });
    const { file, warnings, types, strict } = await recover(
      "schema-namespace.wsdl",
      text,
      "XSD_SCHEMA_NAMESPACE",
    );
    expect(warnings).toEqual([
      expect.objectContaining({
        file,
        ...at(text, '<schema xmlns="http://schemas.xmlsoap.org/wsdl/"'),
      }),
    ]);
    expect(warnings[0]!.message).toBe(
      'this schema element is in namespace "http://schemas.xmlsoap.org/wsdl/", not XML Schema\'s (http://www.w3.org/2001/XMLSchema); it is left out, so what it declares is unresolved',
    );
    // Its element Req is then declared nowhere: kept raw.
    expect(types).toContain("export interface Req {\n  $value?: string;");
    expectStrictError(strict, warnings[0]!);
  });

  it("a WSDL without a service generates the types of its messages, without a client", async () => {
    const text = wsdl({
      types:
        schema(`      <xs:element name="Req"><xs:complexType><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="Res"><xs:complexType><xs:sequence><xs:element name="total" type="xs:long"/></xs:sequence></xs:complexType></xs:element>`),
      service: false,
    });
    const { file, model, warnings, types, client, strict } = await recover(
      "fragment.wsdl",
      text,
      "WSDL_NO_SERVICE",
    );
    expect(warnings).toEqual([expect.objectContaining({ file, ...at(text, "<wsdl:definitions") })]);
    expect(warnings[0]!.message).toBe(
      "the WSDL declares no wsdl:service (an abstract fragment); generating the types of its messages only, without a client or server",
    );
    expect(model.services).toEqual([]);
    expect(types).toMatch(/export interface Req \{\n\s*id: number;\n\}/);
    expect(types).toMatch(/export interface Res \{\n\s*total: bigint;\n\}/);
    expect(client).not.toContain("clientClass(");
    expectStrictError(strict, warnings[0]!);
  });

  it("a service whose every port uses an unsupported binding has no client: the types of its messages, or else its schemas' named types", async () => {
    const types =
      schema(`      <xs:element name="Req"><xs:complexType><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
      <xs:complexType name="Entry"><xs:sequence><xs:element name="at" type="xs:dateTime"/></xs:sequence></xs:complexType>
      ${RES}`);
    // A binding with no soap:binding (nor http:binding) in it: neither SOAP nor HTTP.
    const unsupported = (text: string) => text.replace(/    <soap:binding [^>]*\/>\n/, "");
    const withMessages = unsupported(wsdl({ types }));
    const a = await recover("unsupported-binding.wsdl", withMessages, "WSDL_NO_SERVICE");
    expect(a.warnings.map((w) => w.message)).toEqual([
      "no wsdl:service of the WSDL has a usable port; generating the types of its messages only, without a client or server",
    ]);
    expect(a.model.services).toEqual([]);
    expect(a.types).toMatch(/export interface Req \{\n\s*id: number;\n\}/);
    expect(a.types).not.toContain("Entry");
    expect(a.client).not.toContain("clientClass(");
    const noMessages = unsupported(wsdl({ types, messages: "", operation: "" }));
    const b = await recover("unsupported-binding-no-messages.wsdl", noMessages, "WSDL_NO_SERVICE");
    expect(b.warnings.map((w) => w.message)).toEqual([
      "no wsdl:service of the WSDL has a usable port; generating the named types of its schemas only, without a client or server",
    ]);
    expect(b.types).toMatch(/export interface Entry \{\n\s*at: XsdDateTime;\n\}/);
    expect(b.client).not.toContain("clientClass(");
  });

  it("a WSDL without a service and without typed parts is still an error: nothing to generate", async () => {
    const text = wsdl({ messages: "", operation: "", service: false });
    const r = await loadWsdl(writeTemp(dir, "empty-fragment.wsdl", text));
    expect(r.model).toBeUndefined();
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        code: "WSDL_NO_SERVICE",
        severity: "error",
        ...at(text, "<wsdl:definitions"),
      }),
    ]);
  });

  it("a schema component misspelt only in case is read as the component meant", async () => {
    const text = wsdl({
      types:
        schema(`      <xs:simpletype name="Colour"><xs:restriction base="xs:string"><xs:enumeration value="red"/><xs:enumeration value="blue"/></xs:restriction></xs:simpletype>
      <xs:element name="Req" type="n:Colour"/>${RES}`),
    });
    const { file, warnings, types, strict } = await recover(
      "misspelt.wsdl",
      text,
      "XSD_UNKNOWN_ELEMENT",
    );
    expect(warnings).toEqual([expect.objectContaining({ file, ...at(text, "<xs:simpletype") })]);
    expect(warnings[0]!.message).toBe(
      "<xs:simpletype> is not an XML Schema element (XML names are case-sensitive); reading it as xs:simpleType",
    );
    expect(types).toContain('export type Colour = "red" | "blue";');
    expectStrictError(strict, warnings[0]!);
  });

  it("a type derived from itself, and a group, attribute group or simple type that contains itself, lose the reference that closes the circle", async () => {
    const text = wsdl({
      types:
        schema(`      <xs:complexType name="A"><xs:complexContent><xs:extension base="n:B"><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
      <xs:complexType name="B"><xs:complexContent><xs:extension base="n:A"><xs:sequence><xs:element name="b" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
      <xs:group name="G"><xs:sequence><xs:element name="g" type="xs:int"/><xs:group ref="n:G"/></xs:sequence></xs:group>
      <xs:attributeGroup name="AG"><xs:attribute name="at" type="xs:string"/><xs:attributeGroup ref="n:AG"/></xs:attributeGroup>
      <xs:simpleType name="S1"><xs:restriction base="n:S2"/></xs:simpleType>
      <xs:simpleType name="S2"><xs:list itemType="n:S1"/></xs:simpleType>
      <xs:element name="Req"><xs:complexType><xs:sequence><xs:element name="x" type="n:A"/><xs:group ref="n:G"/><xs:element name="s" type="n:S1"/></xs:sequence><xs:attributeGroup ref="n:AG"/></xs:complexType></xs:element>
      ${RES}`),
    });
    const { file, warnings, types, strict } = await recover("circular.wsdl", text, "XSD_CIRCULAR");
    expect(warnings.map((w) => [w.file, w.line, w.column, w.message])).toEqual([
      [
        file,
        at(text, '<xs:extension base="n:B"').line,
        at(text, '<xs:extension base="n:B"').column,
        "the type {urn:n}A derives from itself ({urn:n}A → {urn:n}B → {urn:n}A); expected a base that does not derive from it; reading it without this derivation",
      ],
      [
        file,
        at(text, '<xs:group ref="n:G"/></xs:sequence></xs:group>').line,
        at(text, '<xs:group ref="n:G"/></xs:sequence></xs:group>').column,
        "the group {urn:n}G contains itself; expected a group that does not refer to itself; this reference to it is left out",
      ],
      [
        file,
        at(text, '<xs:simpleType name="S1"').line,
        at(text, '<xs:simpleType name="S1"').column,
        "the simple type {urn:n}S1 is derived from itself (by restriction or list); expected a base or item type that does not derive from it; where it refers to itself, reading it as xs:string",
      ],
      [
        file,
        at(text, '<xs:attributeGroup ref="n:AG"/></xs:attributeGroup>').line,
        at(text, '<xs:attributeGroup ref="n:AG"/></xs:attributeGroup>').column,
        "the attribute group {urn:n}AG contains itself; expected an attribute group that does not refer to itself; this reference to it is left out",
      ],
    ]);
    // B extends A; A stands alone.
    expect(types).toMatch(/export interface A \{\n(?:.*\n)*?  a: string;\n\}/);
    expect(types).toMatch(/export interface B \{\n(?:.*\n)*?  a: string;\n  b: string;\n\}/);
    expect(types).toMatch(
      /export interface Req \{\n(?:.*\n)*?  at\?: string;\n  x: AOrDerived;\n  g: number;\n  s: S1;\n\}/,
    );
    // S2 lists S1, read as xs:string there; S1 restricts S2.
    expect(types).toMatch(/export type S1 = string\[\];/);
    expectStrictError(strict, warnings[0]!);
  });

  it("strict refuses a limitation too, saying it is one; without strict it is a warning", async () => {
    const text = wsdl({
      types: schema(`      <xs:element name="Req" type="xs:string"/>${RES}`),
    }).replace('use="literal"/></wsdl:input>', 'use="encoded"/></wsdl:input>');
    const file = writeTemp(dir, "encoded.wsdl", text);
    const lenient = await loadWsdl(file);
    expect(lenient.model).toBeDefined();
    expect(lenient.diagnostics).toEqual([
      expect.objectContaining({ code: "WSDL_ENCODED", severity: "warning" }),
    ]);
    const r = await loadWsdl(file, { strict: true });
    expect(r.model).toBeUndefined();
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        code: "WSDL_ENCODED",
        severity: "error",
        message: expect.stringContaining("(strict: limitations are errors)"),
      }),
    ]);
  });
});

describe("defects once passed over without a word", () => {
  it("a global component declared twice: the first is read, the second said and left out", async () => {
    const text = wsdl({
      types:
        schema(`      <xs:element name="Req"><xs:complexType><xs:sequence><xs:element name="first" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="Req" type="n:Second"/>
      <xs:simpleType name="Second"><xs:restriction base="xs:string"/></xs:simpleType>
      <xs:complexType name="Second"/>
      ${RES}`),
    });
    const { file, warnings, types, strict } = await recover(
      "duplicate.wsdl",
      text,
      "XSD_DUPLICATE",
    );
    expect(warnings.map((w) => ({ line: w.line, column: w.column }))).toEqual([
      at(text, 'name="Req" type="n:Second"'),
      at(text, '<xs:simpleType name="Second"', false),
    ]);
    expect(warnings[0]).toMatchObject({ file });
    expect(warnings[0]!.message).toBe(
      `element {urn:n}Req is declared twice; expected one global declaration of each name; the first (${file}:${at(text, 'name="Req"').line}) is read, this one is left out`,
    );
    expect(warnings[1]!.message).toContain("type {urn:n}Second is declared twice");
    expect(types).toMatch(/export interface Req \{\n\s+first: string;\n\}/);
    expectStrictError(strict, warnings[0]!);
  });

  it("a restriction's base and a union's member declared nowhere are said", async () => {
    const text = wsdl({
      types:
        schema(`      <xs:complexType name="Narrow"><xs:complexContent><xs:restriction base="n:NoBase">
        <xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence>
      </xs:restriction></xs:complexContent></xs:complexType>
      <xs:simpleType name="Either"><xs:union memberTypes="xs:int n:NoMember n:string"/></xs:simpleType>
      <xs:element name="Req"><xs:complexType><xs:sequence>
        <xs:element name="narrow" type="n:Narrow"/><xs:element name="either" type="n:Either"/>
      </xs:sequence></xs:complexType></xs:element>
      ${RES}`),
    });
    const { model, warnings, types, strict } = await recover(
      "unresolved-bases.wsdl",
      text,
      "XSD_UNRESOLVED",
    );
    expect(warnings.map((w) => [w.line, w.message.split(";")[0]])).toEqual([
      [at(text, 'base="n:NoBase"').line, "type {urn:n}NoBase is not declared"],
      [at(text, '<xs:simpleType name="Either"').line, "type {urn:n}NoMember is not declared"],
      // A built-in's local name in another namespace is no built-in.
      [at(text, '<xs:simpleType name="Either"').line, "type {urn:n}string is not declared"],
    ]);
    expect(warnings[0]!.message).toContain(
      "the type is read as its own content, restricting nothing",
    );
    expect(warnings[1]!.message).toContain("the union's values are read as strings");
    const narrow = model.types.find((t) => t.name?.local === "Narrow");
    expect(narrow).toMatchObject({ kind: "complex", fields: [{ name: { local: "a" } }] });
    expect(narrow).not.toHaveProperty("restricts");
    expect(types).toMatch(/export interface Req \{\n\s+narrow: Narrow;\n\s+either: Either;\n\}/);
    expectStrictError(strict, warnings[0]!);
  });

  it("a soap:body parts name that no part of the message has is said and left out", async () => {
    const text = wsdl({
      types: schema(`      <xs:element name="Req" type="xs:string"/>\n      ${RES}`),
    }).replace(
      '<wsdl:input><soap:body use="literal"/>',
      '<wsdl:input><soap:body use="literal" parts="q"/>',
    );
    const { file, warnings, strict } = await recover("body-parts.wsdl", text, "WSDL_UNRESOLVED");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ file, line: at(text, 'parts="q"').line });
    expect(warnings[0]!.message).toBe(
      "soap:body parts names q, which message In has no part of; expected one of its parts (p); it is left out",
    );
    expectStrictError(strict, warnings[0]!);
  });

  it("an attribute group's xs:anyAttribute opens the types that use it to any attribute", async () => {
    const text = wsdl({
      types:
        schema(`      <xs:attributeGroup name="Open"><xs:attribute name="x" type="xs:string"/><xs:anyAttribute processContents="lax"/></xs:attributeGroup>
      <xs:element name="Req"><xs:complexType><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence>
        <xs:attributeGroup ref="n:Open"/>
      </xs:complexType></xs:element>
      ${RES}`),
    });
    const { model, types, strict } = await recover("open-group.wsdl", text, "XSD_UNRESOLVED");
    // Req's type is anonymous: the one with the group's attribute.
    const req = model.types.find(
      (t) => t.kind === "complex" && t.attributes.some((a) => a.name.local === "x"),
    );
    expect(req).toMatchObject({ anyAttributes: true, attributes: [{ name: { local: "x" } }] });
    expect(types).toMatch(
      /export interface Req \{\n.*\n {2}\$attributes\?: Record<string, string>;/,
    );
    expect(strict.diagnostics).toEqual([]);
  });

  it("a local xs:attributeGroup without ref is a located error, not a crash", async () => {
    const text = wsdl({
      types:
        schema(`      <xs:element name="Req"><xs:complexType><xs:attributeGroup name="G"/></xs:complexType></xs:element>
      ${RES}`),
    });
    const file = writeTemp(dir, "group-without-ref.wsdl", text);
    const { model, diagnostics } = await loadWsdl(file, { fetch: offline });
    expect(model).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: "XSD_MISSING_ATTRIBUTE",
        severity: "error",
        file,
        ...at(text, '<xs:attributeGroup name="G"', false),
        message:
          "found a local xs:attributeGroup without a ref attribute; expected ref naming a global attribute group",
      }),
    ]);
  });
});

describe("attribute values outside their few words", () => {
  it("XSD: another case is read as the word meant, anything else as the default, each said", async () => {
    const text = wsdl({
      types: schema(`      <xs:element name="Req"><xs:complexType mixed="yes"><xs:sequence>
        <xs:element name="note" type="xs:string" nillable="True"/>
      </xs:sequence>
        <xs:attribute name="id" type="xs:string" use="Required"/>
      </xs:complexType></xs:element>
      ${RES}`),
    });
    const { warnings, types, strict } = await recover("values.wsdl", text, "XSD_INVALID_VALUE");
    const byLine = [...warnings].sort((a, b) => a.line - b.line);
    expect(byLine.map((w) => [w.line, w.message])).toEqual([
      [
        at(text, 'mixed="yes"').line,
        'found mixed="yes" on xs:complexType; expected one of "true", "false", "1", "0"; reading it as "false"',
      ],
      [
        at(text, 'nillable="True"').line,
        'found nillable="True" on xs:element; expected one of "true", "false", "1", "0"; reading it as "true"',
      ],
      [
        at(text, 'use="Required"').line,
        'found use="Required" on xs:attribute; expected one of "optional", "required", "prohibited"; reading it as "required"',
      ],
    ]);
    expect(types).toMatch(
      /export interface Req \{\n[^}]*\bid: string;\n[^}]*note: string \| null;\n\}/,
    );
    expectStrictError(strict, warnings[0]!);
  });

  it("WSDL: a binding's style and a body's use, read the same way", async () => {
    const text = wsdl({
      types: schema(`      <xs:element name="Req" type="xs:string"/>\n      ${RES}`),
    })
      .replace('<soap:binding style="document"', '<soap:binding style="Document"')
      .replace('<wsdl:input><soap:body use="literal"/>', '<wsdl:input><soap:body use="literl"/>');
    const { model, warnings, strict } = await recover(
      "wsdl-values.wsdl",
      text,
      "WSDL_INVALID_VALUE",
    );
    expect(warnings.map((w) => [w.line, w.message])).toEqual([
      [
        at(text, 'style="Document"').line,
        'found style="Document" on soap:binding; expected one of "document", "rpc"; reading it as "document"',
      ],
      [
        at(text, 'use="literl"').line,
        'found use="literl" on soap:body; expected one of "literal", "encoded"; reading it as "literal"',
      ],
    ]);
    const op = model.services[0]!.ports[0]!.binding.operations[0]!;
    expect(op).toMatchObject({ style: "document", soapInput: { kind: "element" } });
    expectStrictError(strict, warnings[0]!);
  });
});

describe("services and faults once passed over without a word", () => {
  it("a service declared twice: the first is read, the second said and left out", async () => {
    const base = wsdl({
      types: schema(`      <xs:element name="Req" type="xs:string"/>\n      ${RES}`),
    });
    const second = `  <wsdl:service name="S"><wsdl:port name="Other" binding="tns:B"><soap:address location="http://elsewhere/"/></wsdl:port></wsdl:service>\n`;
    const text = base.replace("</wsdl:definitions>", `${second}</wsdl:definitions>`);
    const { model, warnings, strict } = await recover("two-services.wsdl", text, "WSDL_DUPLICATE");
    expect(warnings.map((w) => [w.line, w.message])).toEqual([
      [
        at(text, 'name="Other"').line,
        `service S is declared twice by name; expected one declaration of each name (WS-I Basic Profile R2304); the first (line ${at(text, 'wsdl:service name="S"').line}) is read, this one is left out`,
      ],
    ]);
    expect(model.services.map((s) => s.ports.map((p) => p.address))).toEqual([
      ["http://localhost/"],
    ]);
    expectStrictError(strict, warnings[0]!);
  });

  it("a fault whose message has no part, or a type= part, is said: it arrives untyped", async () => {
    const text = wsdl({
      types: schema(`      <xs:element name="Req" type="xs:string"/>\n      ${RES}`),
      messages: `${MESSAGES}
  <wsdl:message name="Empty"/>
  <wsdl:message name="Typed"><wsdl:part name="detail" type="xs:string"/></wsdl:message>`,
      operation: OPERATION.replace(
        "</wsdl:operation>",
        '<wsdl:fault name="None" message="tns:Empty"/><wsdl:fault name="ByType" message="tns:Typed"/></wsdl:operation>',
      ),
    });
    const { warnings, strict } = await recover("untyped-faults.wsdl", text, "WSDL_FAULT_UNTYPED");
    expect(warnings.map((w) => [w.line, w.message])).toEqual([
      [
        at(text, 'name="None"').line,
        "fault None of Op: message Empty has no part; expected one part with element=; it arrives as an untyped SoapFault",
      ],
      [
        at(text, 'name="ByType"').line,
        "fault ByType of Op: message Typed has part detail without element=; expected one part with element=; it arrives as an untyped SoapFault",
      ],
    ]);
    expectStrictError(strict, warnings[0]!);
  });
});

describe("one schema document reached twice", () => {
  it("declares its components once: no XSD_DUPLICATE for the same declaration read again", async () => {
    const folder = tempDir();
    writeTemp(
      folder,
      "common.xsd",
      `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:n" elementFormDefault="qualified">
  <xs:element name="Req" type="xs:string"/>
  ${RES}
</xs:schema>`,
    );
    // Included by one schema and imported by another (node-soap's complex/registration.wsdl).
    writeTemp(
      folder,
      "messages.xsd",
      `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:n"><xs:include schemaLocation="common.xsd"/></xs:schema>`,
    );
    const imports = ["messages.xsd", "common.xsd"].map(
      (f) =>
        `    <xs:schema targetNamespace="urn:svc"><xs:import namespace="urn:n" schemaLocation="${f}"/></xs:schema>`,
    );
    const file = writeTemp(folder, "twice.wsdl", wsdl({ types: imports.join("\n") }));
    const r = await loadWsdl(file, { fetch: offline, strict: true });
    expect(r.diagnostics).toEqual([]);
    expect(r.model).toBeDefined();
  });
});
