/** The WSDL a handler serving only some ports advertises: the others' port elements left out. */
import { describe, expect, it } from "vitest";
import { withoutPorts } from "../../runtime/src/server/documents.js";

describe("withoutPorts", () => {
  it("drops the named ports, prefixed or not, with content or self-closing, and no other", () => {
    const wsdl = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/">
  <portType name="A"/><binding name="A" type="tns:A"/>
  <service name="S">
    <port name="A" binding="tns:A"><soap:address location="http://h/a"/></port>
    <port binding="tns:B" name='B'/>
    <w:port name="C" binding="tns:C"><soap:address location="http://h/c"/></w:port>
    <port name="AB" binding="tns:A"><soap:address location="http://h/ab"/></port>
  </service>
</definitions>`;
    const out = withoutPorts(wsdl, ["A", "B", "C"]);
    expect(out).toContain('<portType name="A"/><binding name="A" type="tns:A"/>');
    expect(out).not.toContain('http://h/a"');
    expect(out).not.toContain("tns:B");
    expect(out).not.toContain("http://h/c");
    expect(out).toContain(
      '<port name="AB" binding="tns:A"><soap:address location="http://h/ab"/></port>',
    );
    expect(withoutPorts(wsdl, [])).toBe(wsdl);
  });
});
