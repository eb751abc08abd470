/**
 * Schema-level recoveries seen in real WSDLs, each with a located warning: a type reference that
 * names a global element, xs:include/xs:import with wsdl:import's `location=` attribute, and a schema
 * file missing at the path written but present beside the importing document.
 */
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { loadWsdl } from "../../src/generate.js";
import { soapBop } from "../support/binding-operations.js";
import { wsdl as oneOperationWsdl } from "../support/one-operation-wsdl.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const dir = tempDir();
const lineOf = (text: string, needle: string) =>
  text.slice(0, text.indexOf(needle)).split("\n").length;

/** A one-operation document/literal WSDL whose types are `types` (a wsdl:types body). */
const wsdl = (types: string) => oneOperationWsdl({ types });

const errorsOf = (r: Awaited<ReturnType<typeof loadWsdl>>) =>
  r.diagnostics.filter((d) => d.severity === "error");

describe("lenient schema reading", () => {
  it("a reference with a prefix no xmlns binds is never taken as an exact match: it resolves by local name, with a warning, reported once per place", async () => {
    const text = wsdl(`    <xs:schema elementFormDefault="qualified">
      <xs:complexType name="Foo"><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:complexType>
    </xs:schema>
    <xs:schema targetNamespace="urn:n" xmlns:n="urn:n" elementFormDefault="qualified">
      <xs:element name="Req"><xs:complexType><xs:sequence><xs:element name="f" type="zz:Foo"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="Res"><xs:complexType/></xs:element>
    </xs:schema>`);
    const file = writeTemp(dir, "unbound-prefix-exact.wsdl", text);
    const r = await loadWsdl(file);
    expect(errorsOf(r)).toEqual([]);
    const warnings = r.diagnostics.filter((d) => d.code === "XSD_RESOLVED_BY_LOCAL_NAME");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ file, line: lineOf(text, 'type="zz:Foo"') });
    expect(warnings[0]!.message).toContain(
      'uses the prefix "zz", which no xmlns declaration in scope binds',
    );
  });

  it("a type reference that names a global element (and no type) uses that element's type, with a warning", async () => {
    const text =
      wsdl(`    <xs:schema targetNamespace="urn:n" xmlns:n="urn:n" elementFormDefault="qualified">
      <xs:element name="Code" type="xs:int"/>
      <xs:element name="Shape"><xs:complexType><xs:sequence><xs:element name="side" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="Req"><xs:complexType><xs:sequence><xs:element name="code" type="n:Code"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="Res"><xs:complexType><xs:complexContent><xs:extension base="n:Shape">
        <xs:sequence><xs:element name="extra" type="xs:string"/></xs:sequence>
      </xs:extension></xs:complexContent></xs:complexType></xs:element>
    </xs:schema>`);
    const file = writeTemp(dir, "type-names-element.wsdl", text);
    const r = await loadWsdl(file);
    expect(errorsOf(r)).toEqual([]);
    const warnings = r.diagnostics.filter((d) => d.code === "XSD_TYPE_NAMES_ELEMENT");
    expect(warnings.map((w) => w.line)).toEqual([
      lineOf(text, 'type="n:Code"'),
      lineOf(text, 'base="n:Shape"'),
    ]);
    expect(warnings[0]!.message).toContain("{urn:n}Code names a global element");
    const op = soapBop(r.model!.services[0]!.ports[0]!.binding.operations[0]);
    expect(op.soapInput).toMatchObject({
      kind: "element",
      element: {
        type: {
          kind: "complex",
          fields: [
            { name: { ns: "urn:n", local: "code" }, type: { kind: "builtin", scalar: "int" } },
          ],
        },
      },
    });
    // The extension base's fields come first, then the extension's own.
    const res = op.soapOutput;
    expect(res?.kind).toBe("element");
    const type = res!.kind === "element" ? res!.element.type : undefined;
    expect(type?.kind === "complex" && type.base?.fields.map((f) => f.name.local)).toEqual([
      "side",
    ]);
    expect(type?.kind === "complex" && type.fields.map((f) => f.name.local)).toEqual(["extra"]);
  });

  it("a type reference naming neither a type nor an element stays an error under strict", async () => {
    const text = wsdl(`    <xs:schema targetNamespace="urn:n" xmlns:n="urn:n">
      <xs:element name="Req" type="n:Nowhere"/><xs:element name="Res" type="xs:string"/>
    </xs:schema>`);
    const r = await loadWsdl(writeTemp(dir, "nowhere.wsdl", text), { strict: true });
    expect(errorsOf(r)[0]).toMatchObject({
      code: "XSD_UNRESOLVED",
      line: lineOf(text, "n:Nowhere"),
    });
  });

  it("xs:include and xs:import with location= instead of schemaLocation= are followed, with a warning", async () => {
    writeTemp(
      dir,
      "included.xsd",
      `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:n">
  <xs:element name="Req" type="xs:string"/>
</xs:schema>`,
    );
    writeTemp(
      dir,
      "imported.xsd",
      `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:n">
  <xs:element name="Res" type="xs:int"/>
</xs:schema>`,
    );
    const text = wsdl(`    <xs:schema targetNamespace="urn:n">
      <xs:include location="included.xsd"/>
    </xs:schema>
    <xs:schema targetNamespace="urn:other">
      <xs:import namespace="urn:n" location="imported.xsd"/>
    </xs:schema>`);
    const file = writeTemp(dir, "location.wsdl", text);
    const r = await loadWsdl(file);
    expect(errorsOf(r)).toEqual([]);
    const warnings = r.diagnostics.filter((d) => d.code === "XSD_LOCATION_ATTRIBUTE");
    expect(warnings).toMatchObject([
      { severity: "warning", file, line: lineOf(text, "<xs:include") },
      { severity: "warning", file, line: lineOf(text, "<xs:import") },
    ]);
    const op = soapBop(r.model!.services[0]!.ports[0]!.binding.operations[0]);
    expect(op.soapOutput).toMatchObject({
      kind: "element",
      element: { name: { ns: "urn:n", local: "Res" }, type: { kind: "builtin", scalar: "int" } },
    });
  });

  it("a schema missing at its relative path is read from beside the importing document, with a warning", async () => {
    const sub = path.join(dir, "flat");
    mkdirSync(sub);
    writeTemp(
      sub,
      "types.xsd",
      `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:n">
  <xs:element name="Req" type="xs:string"/><xs:element name="Res" type="xs:string"/>
</xs:schema>`,
    );
    const text = wsdl(`    <xs:schema targetNamespace="urn:svc">
      <xs:import namespace="urn:n" schemaLocation="../../xsd/types.xsd"/>
    </xs:schema>`);
    const file = writeTemp(sub, "flat.wsdl", text);
    const r = await loadWsdl(file);
    expect(errorsOf(r)).toEqual([]);
    expect(r.diagnostics.find((d) => d.code === "INPUT_FOUND_BESIDE")).toMatchObject({
      severity: "warning",
      file,
      line: lineOf(text, "<xs:import"),
    });
    // Nothing of that name beside it: still unreadable, located at the import (an error under strict).
    const missing = writeTemp(sub, "missing.wsdl", text.replace("types.xsd", "absent.xsd"));
    const m = await loadWsdl(missing, { strict: true });
    expect(errorsOf(m)[0]).toMatchObject({
      code: "INPUT_NOT_READABLE",
      file: missing,
      line: lineOf(text, "<xs:import"),
    });
  });
});
