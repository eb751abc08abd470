/** Bad input gets a located diagnostic: file, line, column and what was expected; never a crash. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadWsdl } from "../../src/generate.js";
import { WSDL_PATH } from "../support/captures.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const dir = tempDir();
const FIXTURE = readFileSync(WSDL_PATH, "utf8");
const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split("\n").length;

async function diagnose(name: string, text: string) {
  const file = writeTemp(dir, name, text);
  const r = await loadWsdl(file);
  return { file, model: r.model, errors: r.diagnostics.filter((d) => d.severity === "error") };
}

describe("diagnostics for invalid WSDLs", () => {
  it("malformed XML names its line and column", async () => {
    const { file, errors, model } = await diagnose("malformed.wsdl", '<?xml version="1.0"?>\n<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">\n  <wsdl:types>\n</wsdl:definitions>\n');
    expect(model).toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: "XML_MALFORMED", file });
    expect([3, 4]).toContain(errors[0]!.line);
    expect(errors[0]!.column).toBeGreaterThan(0);
  });

  it("a DTD is refused before any entity could expand", async () => {
    const { errors } = await diagnose("dtd.wsdl", '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n<x>&b;</x>\n');
    expect(errors[0]).toMatchObject({ code: "XML_DTD_REFUSED", line: 2, column: 1 });
  });

  it("a document that is not WSDL says what was expected", async () => {
    const { errors } = await diagnose("notwsdl.xml", "<root/>");
    expect(errors[0]!.code).toBe("WSDL_NOT_DEFINITIONS");
    expect(errors[0]!.message).toContain("expected wsdl:definitions");
  });

  it("an undeclared type is located at the element that names it", async () => {
    const text = FIXTURE.replace('name="UserId" type="s:int"', 'name="UserId" type="tns:Missing"');
    const { errors } = await diagnose("unresolved.wsdl", text);
    expect(errors[0]).toMatchObject({ code: "XSD_UNRESOLVED", line: lineOf(text, 'name="UserId"') });
    expect(errors[0]!.message).toContain("{http://api.example.com/messages/}Missing");
  });

  it("an unbound prefix is located", async () => {
    const text = FIXTURE.replace('element="tns:GetMessages"', 'element="nope:GetMessages"');
    const { errors } = await diagnose("prefix.wsdl", text);
    expect(errors[0]).toMatchObject({ code: "XML_UNBOUND_PREFIX", line: lineOf(text, "nope:GetMessages") });
  });

  it("a binding without its portType is an error, not a crash", async () => {
    const text = FIXTURE.replace('<wsdl:binding name="ApiSoap" type="tns:ApiSoap">', '<wsdl:binding name="ApiSoap" type="tns:Gone">');
    const { errors } = await diagnose("portType.wsdl", text);
    expect(errors.map((e) => e.code)).toContain("WSDL_UNRESOLVED");
    expect(errors[0]!.line).toBe(lineOf(text, 'type="tns:Gone"'));
  });

  it("a missing required attribute says which", async () => {
    const text = FIXTURE.replace('<wsdl:port name="ApiSoap" binding="tns:ApiSoap">', '<wsdl:port binding="tns:ApiSoap">');
    const { errors } = await diagnose("noname.wsdl", text);
    expect(errors[0]).toMatchObject({ code: "WSDL_MISSING_ATTRIBUTE", line: lineOf(text, '<wsdl:port binding="tns:ApiSoap">') });
    expect(errors[0]!.message).toContain('expected name="…"');
  });

  it("an unreadable file is a diagnostic", async () => {
    const r = await loadWsdl(`${dir}/does-not-exist.wsdl`);
    expect(r.diagnostics[0]!.code).toBe("INPUT_NOT_READABLE");
  });

  it("the fixture itself has no diagnostics", async () => {
    const r = await loadWsdl(WSDL_PATH);
    expect(r.diagnostics).toEqual([]);
    expect(r.model?.services.map((s) => s.ports.map((p) => `${p.name}:${p.binding.protocol}`))).toEqual([
      ["ApiSoap:soap11", "ApiSoap12:soap12", "ApiHttpGet:httpGet", "ApiHttpPost:httpPost"],
    ]);
  });
});
