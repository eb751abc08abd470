/**
 * Facets reach the descriptors (for samples), and facets no value meets are said where they are
 * written: `XSD_FACETS_CONTRADICT` (a defect of the schema, a recovery) and `SAMPLE_PATTERN_UNMET`
 * (a pattern the sample builder cannot meet, a limitation), each an error under `strict`.
 */
import { describe, expect, it } from "vitest";
import { generateFiles, loadWsdl } from "../../src/generate.js";
import { wsdl } from "../support/one-operation-wsdl.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const dir = tempDir();

const types = (
  simple: string,
) => `    <xs:schema targetNamespace="urn:n" xmlns:n="urn:n" elementFormDefault="qualified">
${simple}
      <xs:element name="Req"><xs:complexType><xs:sequence>
        <xs:element name="code" type="n:Code"/>
        <xs:element name="span" type="xs:duration"/>
      </xs:sequence></xs:complexType></xs:element>
      <xs:element name="Res" type="xs:string"/>
    </xs:schema>`;

async function run(name: string, simple: string) {
  const text = wsdl({ types: types(simple) });
  const file = writeTemp(dir, name, text);
  const r = await generateFiles(file, { embedWsdl: false });
  const strict = await loadWsdl(file, { strict: true });
  const descriptors = r.files.find((f) => f.path === "descriptors.ts")?.content ?? "";
  const line = text.split("\n").findIndex((l) => l.includes('name="Code"')) + 1;
  return { r, strict, descriptors, line, file };
}

describe("facets in the descriptors, and facets no sample meets", () => {
  it("a restriction's facets, its base's patterns with its own, and xs:duration, reach descriptors.ts", async () => {
    const { r, descriptors } = await run(
      "facets.wsdl",
      `      <xs:simpleType name="Base"><xs:restriction base="xs:token">
        <xs:pattern value="[A-Z]+\\d*"/><xs:maxLength value="9"/></xs:restriction></xs:simpleType>
      <xs:simpleType name="Code"><xs:restriction base="n:Base">
        <xs:pattern value="A.*"/><xs:pattern value="B.*"/><xs:minLength value="3"/>
      </xs:restriction></xs:simpleType>`,
    );
    expect(r.diagnostics).toEqual([]);
    expect(descriptors).toContain(
      'export const Code: ScalarDesc = scalar("string", {\n  maxLength: 9,\n  pattern: ["[A-Z]+\\\\d*", "(A.*)|(B.*)"],\n  minLength: 3,\n  xsd: "token",\n});',
    );
    expect(descriptors).toContain('field("span", xs.duration)');
  });

  it("contradictory facets: a located recovery, an error under strict", async () => {
    const { r, strict, line, file } = await run(
      "contradiction.wsdl",
      `      <xs:simpleType name="Code"><xs:restriction base="xs:string">
        <xs:minLength value="5"/><xs:maxLength value="2"/></xs:restriction></xs:simpleType>`,
    );
    const w = r.diagnostics.filter((d) => d.code === "XSD_FACETS_CONTRADICT");
    expect(w).toEqual([expect.objectContaining({ severity: "warning", file, line })]);
    expect(w[0]!.message).toContain("minLength 5 is above maxLength 2");
    expect(strict.model).toBeUndefined();
    expect(strict.diagnostics).toContainEqual(
      expect.objectContaining({ code: "XSD_FACETS_CONTRADICT", severity: "error", line }),
    );
  });

  it("a range with no value, and a pattern the sample builder cannot meet, each said", async () => {
    const range = await run(
      "range.wsdl",
      `      <xs:simpleType name="Code"><xs:restriction base="xs:int">
        <xs:minInclusive value="10"/><xs:maxExclusive value="10"/></xs:restriction></xs:simpleType>`,
    );
    expect(range.r.diagnostics.map((d) => d.code)).toContain("XSD_FACETS_CONTRADICT");
    const pattern = await run(
      "pattern.wsdl",
      `      <xs:simpleType name="Code"><xs:restriction base="xs:string">
        <xs:pattern value="\\p{IsNoSuchBlock}+"/></xs:restriction></xs:simpleType>`,
    );
    const w = pattern.r.diagnostics.filter((d) => d.code === "SAMPLE_PATTERN_UNMET");
    expect(w).toEqual([expect.objectContaining({ line: pattern.line, severity: "warning" })]);
    expect(pattern.strict.model).toBeUndefined();
  });
});

describe("facets the sample builder once skipped without a word", () => {
  const codes = async (name: string, simple: string) =>
    (await run(name, simple)).r.diagnostics.map((d) => d.code);
  const restriction = (base: string, facets: string) =>
    `      <xs:simpleType name="Code"><xs:restriction base="${base}">${facets}` +
    "</xs:restriction></xs:simpleType>";

  it("bounds of a date: an inclusive one met, exclusive ones alone said", async () => {
    expect(
      await codes("date-in.wsdl", restriction("xs:date", '<xs:minInclusive value="2020-01-01"/>')),
    ).toEqual([]);
    const ex = await run(
      "date-ex.wsdl",
      restriction("xs:date", '<xs:minExclusive value="2020-01-01"/>'),
    );
    expect(ex.r.diagnostics).toEqual([
      expect.objectContaining({ code: "SAMPLE_PATTERN_UNMET", line: ex.line }),
    ]);
  });

  it("a double's bounds with an exponent are met; an INF bound is said", async () => {
    const e = restriction(
      "xs:double",
      '<xs:minInclusive value="1E1"/><xs:maxInclusive value="1E2"/>',
    );
    expect(await codes("exp.wsdl", e)).toEqual([]);
    const inf = restriction("xs:double", '<xs:maxExclusive value="INF"/>');
    expect(await codes("inf.wsdl", inf)).toEqual(["SAMPLE_PATTERN_UNMET"]);
  });

  it("a union's restriction: its patterns checked on its members, other facets said", async () => {
    const union =
      '<xs:simpleType name="U"><xs:union memberTypes="xs:int xs:boolean"/>' + "</xs:simpleType>";
    const ok = `${union}\n${restriction("n:U", '<xs:pattern value="true|\\d"/>')}`;
    expect(await codes("union-ok.wsdl", ok)).toEqual([]);
    const none = `${union}\n${restriction("n:U", '<xs:pattern value="[a-c]+"/>')}`;
    expect(await codes("union-none.wsdl", none)).toEqual(["SAMPLE_PATTERN_UNMET"]);
    const length = `${union}\n${restriction("n:U", '<xs:maxLength value="3"/>')}`;
    expect(await codes("union-length.wsdl", length)).toEqual(["SAMPLE_PATTERN_UNMET"]);
  });

  it("a restriction of a list: an item count of two met, a pattern said", async () => {
    const list = `      <xs:simpleType name="L"><xs:list itemType="xs:int"/></xs:simpleType>`;
    const counts = '<xs:minLength value="1"/><xs:maxLength value="4"/>';
    const count = `${list}\n${restriction("n:L", counts)}`;
    expect(await codes("list-count.wsdl", count)).toEqual([]);
    const one = `${list}\n${restriction("n:L", '<xs:length value="1"/>')}`;
    expect(await codes("list-one.wsdl", one)).toEqual(["SAMPLE_PATTERN_UNMET"]);
    const pattern = `${list}\n${restriction("n:L", '<xs:pattern value="\\d+( \\d+)*"/>')}`;
    const p = await run("list-pattern.wsdl", pattern);
    expect(p.r.diagnostics).toEqual([
      expect.objectContaining({ code: "SAMPLE_PATTERN_UNMET", line: p.line }),
    ]);
    expect(p.r.diagnostics[0]!.message).toContain("pattern");
  });

  it("bounds with a value between them are no contradiction, however close", async () => {
    const long = restriction(
      "xs:long",
      '<xs:minExclusive value="9223372036854775806"/>' +
        '<xs:maxExclusive value="9223372036854775808"/>',
    );
    expect(await codes("long.wsdl", long)).toEqual([]);
    const tiny = restriction(
      "xs:decimal",
      '<xs:minExclusive value="0"/><xs:maxExclusive value="0.0000001"/>',
    );
    expect(await codes("tiny.wsdl", tiny)).toEqual([]);
  });
});
