/**
 * An element present but empty stands for its default or fixed value, as XML Schema says: `<Id />`
 * of an xs:int with default="-2147483648" (as ASMX declares them) is that number, not an invalid
 * value. Without either, an empty element is read as before ("" for a string, an error for an int).
 */
import { describe, expect, it } from "vitest";
import { complex, field, xs } from "../../runtime/src/descriptors/builders.js";
import { decodeDocument } from "../../runtime/src/xml/reader.js";
import { XmlDecodeError } from "../../runtime/src/xml/decode-options.js";
import { generateAndImport } from "../support/generated.js";
import { oneOperationWsdl } from "../support/one-operation-wsdl.js";

const NS = "urn:t";
const Search = complex("Search", () => [
  field("Id", NS, xs.int, { min: 0, default: "-2147483648" }),
  field("Text", NS, xs.string, { min: 0, default: "Welcome" }),
  field("Kind", NS, xs.string, { min: 0, fixed: "k1" }),
  field("Name", NS, xs.string, { min: 0 }),
  field("Count", NS, xs.int, { min: 0 }),
]);
const read = (xml: string) =>
  decodeDocument(`<Search xmlns="${NS}">${xml}</Search>`, [field("Search", NS, Search)]).value;

describe("an empty element with a default or fixed value", () => {
  it("reads as that value, whether written <X /> or <X></X>", () => {
    expect(read("<Id /><Text></Text><Kind/>")).toEqual({
      Id: -2147483648,
      Text: "Welcome",
      Kind: "k1",
    });
    expect(read("<Id>5</Id><Text>hi</Text>")).toEqual({ Id: 5, Text: "hi" });
  });

  it("without one, reads as before: a string as '', an int as an error", () => {
    expect(read("<Name />")).toEqual({ Name: "" });
    expect(() => read("<Count />")).toThrow(XmlDecodeError);
  });

  it("the generated descriptors carry the default (not an empty one, nor one its type refuses), or a fixed value the writer does not supply", async () => {
    const g = await generateAndImport<object>(
      oneOperationWsdl(
        `    <xs:complexType name="Search"><xs:sequence>
      <xs:element name="Id" type="xs:int" minOccurs="0" default="-2147483648"/>
      <xs:element name="No" type="xs:string" minOccurs="0" default=""/>
      <xs:element name="Bad" type="xs:int" minOccurs="0" default="many"/>
      <xs:element name="Many" type="xs:int" maxOccurs="unbounded" fixed="7"/>
    </xs:sequence></xs:complexType>`,
        '<xs:element name="search" type="t:Search"/>',
      ),
    );
    const desc = g.file("descriptors.ts");
    expect(desc).toMatch(/field\("Id", (?:\w+, )?xs\.int, \{ min: 0, default: "-2147483648" \}\)/);
    expect(desc).toMatch(/field\("No", (?:\w+, )?xs\.string, OPTIONAL\)/);
    expect(desc).toMatch(/field\("Bad", (?:\w+, )?xs\.int, OPTIONAL\)/);
    // A fixed value the writer does not supply (a repeated element): still what an empty one stands for.
    expect(desc).toMatch(/field\("Many", (?:\w+, )?xs\.int, \{ max: UNBOUNDED, default: "7" \}\)/);
  });
});
