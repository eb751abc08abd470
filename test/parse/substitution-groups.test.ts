/** Substitution groups: which elements may stand where a head is referenced, and the warning for those that cannot. */
import { describe, expect, it } from "vitest";
import { loadWsdl } from "../../src/generate.js";
import { oneOperationWsdl } from "../support/one-operation-wsdl.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const WSDL = oneOperationWsdl(
  `    <xs:complexType name="Base"><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType>
    <xs:element name="Head" type="t:Base"/>
    <xs:element name="First" type="t:Base" substitutionGroup="t:Head"/>
    <xs:element name="Second" substitutionGroup="t:First"/>
    <xs:element name="Plain" type="xs:string" substitutionGroup="t:Head"/>
    <xs:element name="Hidden" type="t:Base" abstract="true" substitutionGroup="t:Head"/>
    <xs:element name="UnderHidden" type="t:Base" substitutionGroup="t:Hidden"/>`,
  // Two references to the head: the members are found once, and a skipped one reported once.
  '<xs:element ref="t:Head" maxOccurs="unbounded"/><xs:element name="again"><xs:complexType><xs:sequence><xs:element ref="t:Head"/></xs:sequence></xs:complexType></xs:element>',
);

describe("substitution groups", () => {
  it("a ref to a head lists its members, directly or not, that are neither abstract nor simple; simple ones are left out with a located warning", async () => {
    const file = writeTemp(tempDir(), "s.wsdl", WSDL);
    const { model, diagnostics } = await loadWsdl(file);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const op = model!.types.find(
      (t) => t.kind === "complex" && t.fields.some((f) => f.name.local === "Head"),
    );
    const head = op!.kind === "complex" ? op!.fields[0]! : undefined;
    expect(head?.substitutes?.head.name.local).toBe("Head");
    expect(head?.substitutes?.members.map((m) => m.name.local)).toEqual([
      "First",
      "Second",
      "UnderHidden",
    ]);
    const skipped = diagnostics.filter((d) => d.code === "XSD_SUBSTITUTE_SKIPPED");
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ severity: "warning", file, line: 10 });
    expect(skipped[0]!.message).toContain(
      "{urn:n}Plain may stand for {urn:n}Head, but its type is simple",
    );
  });
});
