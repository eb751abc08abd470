/** Substitution groups: which elements may stand where a head is referenced, and the warning for those that cannot. */
import { describe, expect, it } from "vitest";
import { loadWsdl } from "../../src/generate.js";
import { generateAndImport } from "../support/generated.js";
import { listen } from "../support/loopback.js";
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

const RECURSIVE_WSDL = oneOperationWsdl(
  `    <xs:complexType name="ExprType" abstract="true"/>
    <xs:element name="Expr" type="t:ExprType" abstract="true"/>
    <xs:complexType name="EqType"><xs:complexContent><xs:extension base="t:ExprType"><xs:attribute name="field" type="xs:string"/></xs:extension></xs:complexContent></xs:complexType>
    <xs:element name="Eq" type="t:EqType" substitutionGroup="t:Expr"/>
    <xs:complexType name="NotType"><xs:complexContent><xs:extension base="t:ExprType"><xs:sequence><xs:element ref="t:Expr"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
    <xs:element name="Not" type="t:NotType" substitutionGroup="t:Expr"/>
    <xs:complexType name="AndType"><xs:complexContent><xs:extension base="t:ExprType"><xs:sequence><xs:element ref="t:Expr" maxOccurs="unbounded"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
    <xs:element name="And" type="t:AndType" substitutionGroup="t:Expr"/>`,
  '<xs:element ref="t:Expr"/>',
);

describe("recursive substitution groups (the shape of Exchange Web Services' restrictions)", () => {
  it("every member is allowed at every depth, and none is called simple", async () => {
    const file = writeTemp(tempDir(), "r.wsdl", RECURSIVE_WSDL);
    const { model, diagnostics } = await loadWsdl(file);
    expect(diagnostics.filter((d) => d.code === "XSD_SUBSTITUTE_SKIPPED")).toEqual([]);
    const members = (typeName: string) => {
      const t = model!.types.find((x) => x.kind === "complex" && x.name?.local === typeName);
      if (t?.kind !== "complex") throw new Error(`no type ${typeName}`);
      const f = t.fields.find((x) => x.name.local === "Expr");
      return f?.substitutes?.members.map((m) => m.name.local);
    };
    expect(members("NotType")).toEqual(["Eq", "Not", "And"]);
    expect(members("AndType")).toEqual(["Eq", "Not", "And"]);
  });
});

describe("a recursive substitution group on the wire", () => {
  type Expr = { $element: string; [k: string]: unknown };
  interface Mod {
    createSHandler(impl: { op(input: { Expr: Expr }): object }): Parameters<typeof listen>[0];
    SClient: new (o: { endpoint: string }) => { op(input: { Expr: Expr }): Promise<unknown> };
  }

  it("And holding Not holding Eq arrives whole, through the generated client and server", async () => {
    const { mod } = await generateAndImport<Mod>(RECURSIVE_WSDL);
    const arrived: unknown[] = [];
    const lb = await listen(mod.createSHandler({ op: (input) => (arrived.push(input), {}) }));
    try {
      const value = {
        Expr: {
          $element: "And",
          Expr: [
            { $element: "Not", Expr: { $element: "Eq", field: "a" } },
            { $element: "And", Expr: [{ $element: "Eq", field: "b" }] },
          ],
        },
      };
      await new mod.SClient({ endpoint: `${lb.url}/` }).op(value);
      // Each arrives with its member's type named too ($type, from the family the members share).
      const withoutTypes = JSON.stringify(arrived, (k, v: unknown) =>
        k === "$type" ? undefined : v,
      );
      expect(JSON.parse(withoutTypes)).toEqual([value]);
    } finally {
      await lb.close();
    }
  });
});
