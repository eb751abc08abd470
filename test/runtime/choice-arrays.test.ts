/**
 * A repeated element of a choice's branch (`<choice><element name="one"/><element name="many"
 * maxOccurs="unbounded"/></choice>`): when another branch is taken it reads as absent, not as `[]`,
 * which the generated exclusive union forbids beside the other branch (`many?: never`). Found by
 * scripts/corpus-roundtrip.ts on node-soap's recursive.wsdl. Outside a choice, an absent repeated
 * element still reads as `[]`.
 */
import { describe, expect, it } from "vitest";
import { generateFiles } from "../../src/generate.js";
import { complex, field, UNBOUNDED, xs } from "../../runtime/src/descriptors/builders.js";
import { decodeDocument } from "../../runtime/src/xml/reader.js";
import { oneOperationWsdl } from "../support/one-operation-wsdl.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const NS = "urn:t";
const Pick = complex("Pick", () => [
  field("one", NS, xs.string, { min: 0 }),
  field("many", NS, xs.string, { min: 0, max: UNBOUNDED, choice: true }),
  field("list", NS, xs.int, { min: 0, max: UNBOUNDED }),
]);
const read = (xml: string) =>
  decodeDocument(`<Pick xmlns="${NS}">${xml}</Pick>`, [field("Pick", NS, Pick)]).value;

describe("a repeated element of a choice branch", () => {
  it("reads as absent when another branch is taken, or none is; as its items when it is", () => {
    expect(read("<one>x</one>")).toEqual({ one: "x", list: [] });
    expect(read("")).toEqual({ list: [] });
    expect(read("<many>a</many><many>b</many><list>1</list>")).toEqual({
      many: ["a", "b"],
      list: [1],
    });
  });

  it("is marked choice in the generated descriptors (and a repeated element outside the choice is not)", async () => {
    const file = writeTemp(
      tempDir(),
      "c.wsdl",
      oneOperationWsdl(
        `    <xs:complexType name="Pick"><xs:sequence>
      <xs:choice><xs:element name="one" type="xs:string"/><xs:element name="many" type="xs:string" maxOccurs="unbounded"/></xs:choice>
      <xs:element name="list" type="xs:int" minOccurs="0" maxOccurs="unbounded"/>
    </xs:sequence></xs:complexType>`,
        '<xs:element name="pick" type="t:Pick"/>',
      ),
    );
    const { files } = await generateFiles(file);
    const desc = files.find((f) => f.path === "descriptors.ts")!.content;
    expect(desc).toMatch(
      /field\("many", (?:\w+, )?xs\.string, \{ min: 0, max: UNBOUNDED, choice: true, branch: 1 \}\)/,
    );
    expect(desc).toMatch(/field\("list", (?:\w+, )?xs\.int, REPEATED\)/);
    expect(desc).toMatch(/field\("one", (?:\w+, )?xs\.string, OPTIONAL\)/);
  });
});
