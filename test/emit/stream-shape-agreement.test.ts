/**
 * Which results may be streamed is decided twice: by the generator from the model (`streamedField`,
 * giving the generated `item` and `serverItem` types) and by the runtime from the descriptors
 * (`streamShape`, which `client.stream` and a server's iterable follow). Here both must pick the
 * same operations and the same item element, on every port, over the sample WSDLs, the corpus
 * goldens (skipped, saying so, without the corpus) and synthetic shapes meant to split them.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import {
  CORPUS_GOLDENS,
  GOLDEN_OPTIONS,
  SKIP_LINE,
  corpusPresent,
  goldenRoot,
} from "../../scripts/corpus-goldens.js";
import { SAMPLES } from "../../scripts/samples.js";
import { streamedField } from "../../src/emit/types/service-types.js";
import { generateFiles } from "../../src/generate.js";
import type { ServiceDesc } from "../../runtime/src/index.js";
import { streamShape } from "../../runtime/src/descriptors/stream-shape.js";
import { tempDir, writeTemp } from "../support/tmp.js";

/** One operation on one port: the item each side picks (`{ns}name`), or "-" for none. */
type Row = readonly [port: string, operation: string, generator: string, runtime: string];

/** Generates `file` (in memory, then its files into a folder to import) and lists both picks. */
async function picks(file: string, options = {}): Promise<Row[]> {
  const r = await generateFiles(file, options);
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const dir = tempDir();
  for (const f of r.files) {
    mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    writeFileSync(path.join(dir, f.path), f.content);
  }
  const descriptors = (await import(
    pathToFileURL(path.join(dir, "descriptors.ts")).href
  )) as Record<string, unknown>;
  const rows: Row[] = [];
  for (const s of r.model!.services) {
    const desc = descriptors[r.plan!.names.service(s).descriptor] as ServiceDesc;
    for (const [port, p] of Object.entries(desc.ports))
      for (const [name, op] of Object.entries(p.operations)) {
        const modelOp = s.operations.find((o) => o.name === name)!;
        // An HTTP result that is no XML document (mime:content) cannot stream on that port, whatever
        // the operation's types say: the client says so at the first next().
        if (op.kind === "http" && !op.response) continue;
        const g = streamedField(r.plan!, modelOp);
        const item = streamShape(op.response)?.item;
        rows.push([
          port,
          name,
          g ? `{${g.name.ns}}${g.name.local}` : "-",
          item ? `{${item.ns}}${item.name}` : "-",
        ]);
      }
  }
  return rows;
}

/** The rows where the two sides disagree ([] when they agree everywhere). */
const disagreements = (rows: readonly Row[]) => rows.filter(([, , g, rt]) => g !== rt);

describe("the generator and the runtime pick the same streamed results", () => {
  it.each(SAMPLES.map((s) => [s.out, s.wsdl] as const))("%s", async (_, wsdl) => {
    const rows = await picks(wsdl);
    expect(rows.length).toBeGreaterThan(0);
    expect(disagreements(rows)).toEqual([]);
  });

  it("the message service's GetMessages on all four ports, and nothing else there", async () => {
    const rows = await picks("fixtures/message-service/api.wsdl");
    const streamed = rows.filter(([, , g]) => g !== "-").map(([port, op]) => `${port} ${op}`);
    expect(streamed).toEqual(
      expect.arrayContaining([
        "ApiSoap GetMessages",
        "ApiSoap12 GetMessages",
        "ApiHttpGet GetMessages",
        "ApiHttpPost GetMessages",
      ]),
    );
  });
});

const present = corpusPresent();
if (!present) console.log(SKIP_LINE);

describe.skipIf(!present)("the same over the corpus goldens", () => {
  it.each(CORPUS_GOLDENS.map((g) => [g.name, g] as const))("%s", async (_, g) => {
    const rows = await picks(goldenRoot(g), GOLDEN_OPTIONS);
    expect(disagreements(rows)).toEqual([]);
  });
});

/**
 * Synthetic results: each shape twice, as operation `<name>` taking `<name>` and answering
 * `<name>Response` (unwrapped when the wrapper holds one element: the document/literal wrapped
 * convention), and as `Bare<name>` taking `Req<name>` and answering `Res<name>` (the whole element
 * the result).
 */
const SHAPES: Readonly<Record<string, string>> = {
  // An ASMX result: the wrapper holds one element of an ArrayOfX type.
  Asmx: `<xs:sequence><xs:element name="R" type="n:ArrayOfItem" minOccurs="0"/></xs:sequence>`,
  Repeated: `<xs:sequence><xs:element name="I" type="n:Item" maxOccurs="unbounded"/></xs:sequence>`,
  Bounded: `<xs:sequence><xs:element name="I" type="n:Item" maxOccurs="5"/></xs:sequence>`,
  RepeatedScalar: `<xs:sequence><xs:element name="S" type="xs:string" maxOccurs="unbounded"/></xs:sequence>`,
  TwoFields: `<xs:sequence><xs:element name="I" type="n:Item" maxOccurs="unbounded"/><xs:element name="C" type="xs:int"/></xs:sequence>`,
  WithAttribute: `<xs:sequence><xs:element name="I" type="n:Item" maxOccurs="unbounded"/></xs:sequence><xs:attribute name="a" type="xs:string"/>`,
  WithAny: `<xs:sequence><xs:element name="I" type="n:Item" maxOccurs="unbounded"/><xs:any processContents="lax" minOccurs="0"/></xs:sequence>`,
  Single: `<xs:sequence><xs:element name="I" type="n:Item"/></xs:sequence>`,
  RepeatedChoice: `<xs:choice maxOccurs="unbounded"><xs:element name="A" type="n:Item"/><xs:element name="B" type="xs:int"/></xs:choice>`,
  ChoiceOfOne: `<xs:choice><xs:element name="A" type="n:Item" maxOccurs="unbounded"/><xs:element name="B" type="xs:int"/></xs:choice>`,
  Fixed: `<xs:sequence><xs:element name="S" type="xs:string" fixed="x" maxOccurs="unbounded"/></xs:sequence>`,
  Head: `<xs:sequence><xs:element ref="n:Head" maxOccurs="unbounded"/></xs:sequence>`,
  RepeatedSequence: `<xs:sequence maxOccurs="unbounded"><xs:element name="I" type="n:Item"/></xs:sequence>`,
  NillableArray: `<xs:sequence><xs:element name="R" type="n:ArrayOfItem" nillable="true"/></xs:sequence>`,
  ArrayOfHeads: `<xs:sequence><xs:element name="R" type="n:ArrayOfHead"/></xs:sequence>`,
  Empty: `<xs:sequence/>`,
};

const SHAPE_NAMES = Object.keys(SHAPES);
/** Each operation and the shape and name of its response element. */
const OPERATIONS = [
  ...SHAPE_NAMES.map((n) => ({ op: n, shape: SHAPES[n]!, request: n, element: `${n}Response` })),
  ...SHAPE_NAMES.map((n) => ({
    op: `Bare${n}`,
    shape: SHAPES[n]!,
    request: `Req${n}`,
    element: `Res${n}`,
  })),
];

function synthetic(): string {
  const names = OPERATIONS.map((o) => o.op);
  const elements = OPERATIONS.map(
    (o) =>
      `<xs:element name="${o.element}"><xs:complexType>${o.shape}</xs:complexType></xs:element>`,
  ).join("\n");
  const messages = OPERATIONS.map(
    (o) =>
      `<wsdl:message name="In${o.op}"><wsdl:part name="parameters" element="n:${o.request}"/></wsdl:message>` +
      `<wsdl:message name="Out${o.op}"><wsdl:part name="parameters" element="n:${o.element}"/></wsdl:message>`,
  ).join("\n");
  const op = (n: string) =>
    `<wsdl:operation name="${n}"><wsdl:input message="tns:In${n}"/><wsdl:output message="tns:Out${n}"/></wsdl:operation>`;
  const bound = (n: string) =>
    `<wsdl:operation name="${n}"><soap:operation soapAction="${n}"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>`;
  return `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:n="urn:n" xmlns:tns="urn:svc" targetNamespace="urn:svc">
  <wsdl:types><xs:schema targetNamespace="urn:n" elementFormDefault="qualified">
    <xs:complexType name="Item"><xs:sequence><xs:element name="Id" type="xs:int"/></xs:sequence></xs:complexType>
    <xs:complexType name="ArrayOfItem"><xs:sequence><xs:element name="Item" type="n:Item" nillable="true" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
    <xs:element name="Head" type="n:Item"/>
    <xs:element name="Member" type="n:Item" substitutionGroup="n:Head"/>
    <xs:complexType name="ArrayOfHead"><xs:sequence><xs:element ref="n:Head" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
${elements}
  </xs:schema></wsdl:types>
${messages}
  <wsdl:portType name="P">${names.map(op).join("")}</wsdl:portType>
  <wsdl:binding name="B" type="tns:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>${names.map(bound).join("")}</wsdl:binding>
  <wsdl:service name="S"><wsdl:port name="Port" binding="tns:B"><soap:address location="http://localhost/"/></wsdl:port></wsdl:service>
</wsdl:definitions>`;
}

describe("synthetic result shapes", () => {
  it("both sides pick the same, and pick the shapes meant to stream", async () => {
    const rows = await picks(writeTemp(tempDir(), "shapes.wsdl", synthetic()));
    expect(rows).toHaveLength(OPERATIONS.length);
    expect(disagreements(rows)).toEqual([]);
    const streamed = rows.filter(([, , g]) => g !== "-").map(([, op, g]) => `${op} ${g}`);
    expect(streamed).toEqual(
      expect.arrayContaining([
        // Unwrapped: the wrapper's one element, an array or repeated.
        "Asmx {urn:n}Item",
        "NillableArray {urn:n}Item",
        "Repeated {urn:n}I",
        "Bounded {urn:n}I",
        "RepeatedScalar {urn:n}S",
        // The whole element, of an array type (one repeated element).
        "BareRepeated {urn:n}I",
        "BareRepeatedScalar {urn:n}S",
        // A wrapper that is a plain array decodes to the array: its item's rules apply, and a
        // fixed value is no bar to an item.
        "Fixed {urn:n}S",
      ]),
    );
    const none = ["TwoFields", "WithAttribute", "WithAny", "Single", "RepeatedChoice"];
    for (const op of [...none, "Head", "ArrayOfHeads", "Empty", "BareAsmx", "BareTwoFields"])
      expect(rows.find((r) => r[1] === op)?.[2], op).toBe("-");
  });
});
