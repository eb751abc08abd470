/**
 * SOAP-encoded arrays (fixtures/encoded-arrays): a restriction of soapenc:Array, its item type
 * given by wsdl:arrayType or by a repeated element, is a typed array both ways. The client reads
 * what rpc/encoded servers send (items with or without xsi:type, under any name, Axis 1's
 * href/multiRef items, an empty array); the client and server write xsi:type="soapenc:Array",
 * soapenc:arrayType with the item count, and each item's xsi:type, as rpc/encoded peers expect.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EchoServiceClient,
  type EchoRequest,
} from "../../generated-samples/encoded-arrays/index.js";
import { array, field, UNBOUNDED, xs } from "../../runtime/src/descriptors/builders.js";
import { decodeDocument } from "../../runtime/src/xml/reader.js";
import { writeField } from "../../runtime/src/xml/writer.js";
import { generateFiles } from "../../src/generate.js";
import { strictly } from "../../src/recovery.js";
import { echoServer, type EchoServer } from "../support/echo-server.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const FIXTURE = "fixtures/encoded-arrays/encoded-arrays.wsdl";
const ENVELOPE = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"
  xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
<soapenv:Body soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">${body}</soapenv:Body></soapenv:Envelope>`;

/** A client whose server answers `body` (inside a SOAP 1.1 envelope), recording what it sent. */
function answering(body: string) {
  const sent: string[] = [];
  const client = new EchoServiceClient({
    endpoint: "http://127.0.0.1:1/echo",
    fetch: async (_url, init) => {
      sent.push(String(init?.body));
      return new Response(ENVELOPE(body), { headers: { "content-type": "text/xml" } });
    },
  });
  return { client, sent };
}

const input: EchoRequest = {
  items: [
    { id: 1, name: "one & <two>" },
    { id: 2, name: null },
  ],
  names: ["a", ""],
  numbers: [7, -8, 9],
  basket: { owner: "me", items: [] },
};

describe("SOAP-encoded arrays", () => {
  it("are typed arrays of their item type, in every spelling", () => {
    const types = readFileSync("generated-samples/encoded-arrays/types.ts", "utf8");
    expect(types).toContain("export type ItemArray = (Item | null)[];");
    expect(types).toContain("export type StringArray = (string | null)[];");
    expect(types).toContain("export type IntArray = number[];");
  });

  it("read as arrays: items with or without xsi:type, under any name, by href, empty", async () => {
    const { client } = answering(`<ns1:echoResponse xmlns:ns1="urn:enc">
  <items xsi:type="soapenc:Array" soapenc:arrayType="ns1:Item[3]">
    <item href="#id0"/>
    <Item xsi:type="ns1:Item"><id xsi:type="xsd:int">2</id><name xsi:nil="true"/></Item>
    <whatever><id>3</id><name>three</name></whatever>
  </items>
  <names soapenc:arrayType="xsd:string[2]"><item xsi:type="xsd:string">a</item><item>b</item></names>
  <numbers href="#id1"/>
  <basket><owner>me</owner><items soapenc:arrayType="ns1:Item[0]" xsi:type="soapenc:Array"/></basket>
</ns1:echoResponse>
<multiRef id="id0" soapenc:root="0" xsi:type="ns1:Item" xmlns:ns1="urn:enc"><id href="#id2"/><name>one</name></multiRef>
<multiRef id="id1" soapenc:root="0" xsi:type="soapenc:Array" soapenc:arrayType="xsd:int[2]"><item>7</item><item>8</item></multiRef>
<multiRef id="id2" soapenc:root="0" xsi:type="xsd:int">1</multiRef>`);
    expect(await client.echo(input)).toEqual({
      items: [
        { id: 1, name: "one" },
        { id: 2, name: null },
        { id: 3, name: "three" },
      ],
      names: ["a", "b"],
      numbers: [7, 8],
      basket: { owner: "me", items: [] },
    });
  });

  it("an href to no element is refused, not read as absent", async () => {
    const { client } = answering(`<ns1:echoResponse xmlns:ns1="urn:enc">
  <items soapenc:arrayType="ns1:Item[1]"><item href="#nowhere"/></items>
  <names soapenc:arrayType="xsd:string[0]"/><numbers/><basket><owner>me</owner><items/></basket>
</ns1:echoResponse>`);
    await expect(client.echo(input)).rejects.toThrow(/#nowhere/);
  });

  for (const [what, array] of [
    ["partially transmitted (soapenc:offset)", '<items soapenc:offset="[1]">'],
    ["sparse (soapenc:position)", '<items><item soapenc:position="[2]">'],
  ])
    it(`${what}: refused, not read with its items out of place`, async () => {
      const { client } = answering(
        `<ns1:echoResponse xmlns:ns1="urn:enc">
  ${array}<id>1</id><name>one</name></item></items>
  <names/><numbers/><basket><owner>me</owner><items/></basket></ns1:echoResponse>`.replace(
          '<items soapenc:offset="[1]">',
          '<items soapenc:offset="[1]"><item>',
        ),
      );
      await expect(client.echo(input)).rejects.toThrow(/soapenc:(offset|position).*not supported/);
    });

  it("are written with xsi:type soapenc:Array, soapenc:arrayType and typed items", async () => {
    const { client, sent } = answering(`<ns1:echoResponse xmlns:ns1="urn:enc">
  <items/><names/><numbers/><basket><owner>me</owner><items/></basket></ns1:echoResponse>`);
    await client.echo(input);
    const xml = sent[0]!;
    const array = (part: string, type: string) =>
      new RegExp(
        `<${part}\\b[^>]*? xsi:type="(\\w+):Array" (\\w+):arrayType="(\\w+):${type}"[^>]*>`,
      ).exec(xml);
    const items = array("items", "Item\\[2\\]");
    expect(items, xml).not.toBeNull();
    // The prefixes are declared, soapenc's and the item type's.
    expect(xml).toMatch(
      new RegExp(`xmlns:${items![1]}="http://schemas.xmlsoap.org/soap/encoding/"`),
    );
    expect(xml).toMatch(new RegExp(`xmlns:${items![3]}="urn:enc"`));
    expect(array("names", "string\\[2\\]"), xml).not.toBeNull();
    expect(array("numbers", "int\\[3\\]"), xml).not.toBeNull();
    expect(array("items", "Item\\[0\\]"), xml).not.toBeNull();
    // Every other value carries its xsi:type too: scalars by their XML Schema type, structs by
    // theirs.
    expect(xml).toMatch(/<item xsi:type="\w+:Item"><id xsi:type="xsd:int">1<\/id>/);
    expect(xml).toMatch(/<name xsi:type="xsd:string">one &amp; &lt;two&gt;<\/name>/);
    expect(xml).toMatch(
      /<basket xmlns="" xmlns:xt="urn:enc" xsi:type="xt:Basket"><owner xsi:type="xsd:string">me</,
    );
    expect(xml).toMatch(/<number xsi:type="\w+:int">-8<\/number>/);
    expect(xml).toMatch(/<item xsi:type="\w+:string" ?\/>/);
  });
});

describe('a SOAP-encoded array of SOAP-encoded arrays (wsdl:arrayType="tns:ArrayOfString[]")', () => {
  const XSD = "http://www.w3.org/2001/XMLSchema";
  const item = { min: 0, max: UNBOUNDED, nillable: true };
  const strings = array("ArrayOfString", field("item", "", xs.string, item), {
    ns: XSD,
    type: "string",
  });
  const rows = array("ArrayOfArrayOfString", field("item", "", strings, item), {
    ns: "urn:enc",
    type: "ArrayOfString",
  });
  const root = field("rows", "", rows);
  const value = [["a", "b"], [], ["c"]];

  it("writes each inner array as an array (one xsi:type), and reads it back", () => {
    const out: string[] = [];
    writeField(out, root, value, "", "rows");
    const xml = out.join("");
    expect(xml).toContain('soapenc:arrayType="at:ArrayOfString[3]"');
    expect(xml).toContain('soapenc:arrayType="at:string[2]"');
    // Each element has one xsi:type at most: an inner array is a soapenc:Array, not
    // at:ArrayOfString.
    for (const tag of xml.match(/<[^/][^>]*>/g)!)
      expect(tag.split("xsi:type=").length, tag).toBeLessThanOrEqual(2);
    const decl = `<rows xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`;
    expect(decodeDocument(xml.replace("<rows", decl), [root]).value).toEqual(value);
  });
});

describe("SOAP-encoded arrays through the generated client and server", () => {
  let server: EchoServer;
  beforeAll(async () => (server = await echoServer()));
  afterAll(() => server.close());

  it("round-trip whole, items and all", async () => {
    const client = new EchoServiceClient({ endpoint: `${server.url}/echo` });
    expect(await client.echo(input)).toEqual(input);
    expect(server.arrived).toEqual([input]);
  });
});

describe("multi-dimensional SOAP-encoded arrays", () => {
  for (const dims of ["[,]", "[][]"]) {
    it(`${dims}: a located limitation warning that --strict refuses, the content kept raw`, async () => {
      const text = readFileSync(FIXTURE, "utf8").replace(
        'wsdl:arrayType="xsd:string[]"',
        `wsdl:arrayType="xsd:string${dims}"`,
      );
      const r = await generateFiles(writeTemp(tempDir(), "multi.wsdl", text));
      const warning = r.diagnostics.find((d) => d.code === "XSD_ENCODED_ARRAY_DIMENSIONS");
      expect(warning?.severity).toBe("warning");
      expect(warning?.message).toContain(`xsd:string${dims}`);
      expect(warning?.line).toBe(
        text.split("\n").findIndex((l) => l.includes(`string${dims}`)) + 1,
      );
      expect(strictly(r.diagnostics).find((d) => d.code === warning?.code)?.severity).toBe("error");
      const types = r.files.find((f) => f.path === "types.ts")!.content;
      const declared = types.slice(types.indexOf("export interface StringArray {"));
      expect(declared.slice(0, declared.indexOf("\n}"))).toContain("$any?: XmlNode[];");
    });
  }
});
