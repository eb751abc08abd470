/** The runtime's XML writer: escaping, namespaces, occurrence rules, recursion, and where a misfit is. */
import { describe, expect, it } from "vitest";
import { array, attribute, complex, field, xs } from "../../runtime/src/descriptors/builders.js";
import { ValueFormatError } from "../../runtime/src/scalars/scalars.js";
import { escapeAttr, escapeText } from "../../runtime/src/xml/escape.js";
import { tokenizeXml } from "../../runtime/src/xml/tokenizer.js";
import { writeElement, writeField } from "../../runtime/src/xml/writer.js";

const write = (f: ReturnType<typeof field>, value: unknown, parentNs = ""): string => {
  const out: string[] = [];
  writeField(out, f, value, parentNs, "");
  return out.join("");
};

describe("escaping", () => {
  it("escapes element text minimally and attribute values fully", () => {
    expect(escapeText(`a&b<c>d"e'f\r\n\tg → 😀`)).toBe(`a&amp;b&lt;c&gt;d"e'f&#xD;\n\tg → 😀`);
    expect(escapeAttr(`a&b<c>d"e'f\r\n\tg`)).toBe(`a&amp;b&lt;c&gt;d&quot;e'f&#xD;&#xA;&#x9;g`);
    expect(escapeText("plain")).toBe("plain");
    expect(escapeText("&&")).toBe("&amp;&amp;");
    expect(escapeText("😀&😀")).toBe("😀&amp;😀");
  });

  it("refuses what XML 1.0 cannot carry", () => {
    expect(() => escapeText("a\u0001b")).toThrow(/cannot represent/);
    expect(() => escapeText("a\uffffb")).toThrow(/cannot represent/);
    expect(() => escapeText("a\ud83d")).toThrow(/unpaired surrogate/);
    expect(() => escapeText("\ud83dx")).toThrow(/unpaired surrogate/);
    expect(() => escapeText("a\ude00b")).toThrow(/cannot represent/);
    // The search state does not leak from one call to the next.
    expect(() => escapeText("x&\u0002")).toThrow(ValueFormatError);
    expect(escapeText("y&z")).toBe("y&amp;z");
  });
});

describe("writing values", () => {
  const Item = complex("Item", () => [
    field("Name", "urn:a", xs.string),
    field("Note", "urn:a", xs.string, { min: 0, nillable: true }),
    field("Tags", "urn:b", xs.string, { min: 0, max: Infinity }),
  ]);
  const Node = complex("Node", () => [
    field("Value", "", xs.int),
    field("Next", "", () => Node, { min: 0 }),
  ]);
  const Items = array(
    "ArrayOfItem",
    field("Item", "urn:a", Item, { min: 0, max: Infinity, nillable: true }),
  );

  it("declares a namespace only where it changes, and writes empty, nil and repeated fields", () => {
    expect(write(field("Item", "urn:a", Item), { Name: "", Note: null, Tags: ["x", "y&"] })).toBe(
      '<Item xmlns="urn:a"><Name /><Note xsi:nil="true" /><Tags xmlns="urn:b">x</Tags><Tags xmlns="urn:b">y&amp;</Tags></Item>',
    );
    expect(write(field("Item", "urn:a", Item), { Name: "n" }, "urn:a")).toBe(
      "<Item><Name>n</Name></Item>",
    );
    expect(write(field("Items", "", Items), [{ Name: "a" }, null])).toBe(
      '<Items><Item xmlns="urn:a"><Name>a</Name></Item><Item xmlns="urn:a" xsi:nil="true" /></Items>',
    );
    expect(write(field("Items", "", Items), [])).toBe("<Items />");
  });

  it("escapes attribute values once, as attribute values, and simple content as text", () => {
    const Tagged = complex("Tagged", () => [], {
      attrs: [attribute("label", "", xs.string), attribute("at", "urn:x", xs.dateTime)],
      text: xs.string,
    });
    expect(
      write(field("T", "", Tagged), {
        label: `a&b "q"\n<`,
        at: "2024-01-01T00:00:00Z",
        $value: "x&y\r",
      }),
    ).toBe(
      '<T label="a&amp;b &quot;q&quot;&#xA;&lt;" xmlns:a0="urn:x" a0:at="2024-01-01T00:00:00Z">x&amp;y&#xD;</T>',
    );
  });

  it("writes recursive types to any depth", () => {
    expect(write(field("N", "", Node), { Value: 1, Next: { Value: 2, Next: { Value: 3 } } })).toBe(
      "<N><Value>1</Value><Next><Value>2</Value><Next><Value>3</Value></Next></Next></N>",
    );
  });

  it("names the path of a value that does not fit", () => {
    const items = field("Items", "", Items);
    expect(() => write(items, [{ Name: "a" }, { Name: 5 }])).toThrow(
      "Items[1].Name: 5 (number) cannot be written as xs:string",
    );
    expect(() => write(items, [{ Name: "a", Tags: "t" }])).toThrow(
      "Items[0].Tags must be an array",
    );
    expect(() => write(items, [{ Note: "x" }])).toThrow("Items[0].Name is required");
    expect(() => write(items, [{ Name: "a\u0000" }])).toThrow(
      "Items[0].Name: the text contains a character that XML 1.0 cannot represent",
    );
    expect(() =>
      write(field("N", "", Node), { Value: 1, Next: { Value: 2, Next: { Value: 1.5 } } }),
    ).toThrow("N.Next.Next.Value: 1.5 (number) cannot be written as xs:int");
    // null for an optional element that is not nillable leaves it out; for a required one it is a misfit.
    expect(write(field("N", "", Node), { Value: 1, Next: null })).toBe("<N><Value>1</Value></N>");
    expect(() => write(field("N", "", Node), { Value: 1, Next: { Value: null } })).toThrow(
      "N.Next.Value is required",
    );
    expect(() => write(field("N", "", Node), "x")).toThrow("N must be an object of type Node");
    // Occurrences outside minOccurs..maxOccurs, of a repeated field and of an ArrayOfX's item.
    const Pair = complex("Pair", () => [field("V", "", xs.int, { min: 1, max: 2 })]);
    expect(() => write(field("P", "", Pair), { V: [] })).toThrow(
      "P.V needs at least 1 item (minOccurs); got 0",
    );
    expect(() => write(field("P", "", Pair), { V: [1, 2, 3] })).toThrow(
      "P.V takes at most 2 items (maxOccurs); got 3",
    );
    expect(write(field("P", "", Pair), { V: [1, 2] })).toBe("<P><V>1</V><V>2</V></P>");
    // An optional repeated element left out is zero items (input forms let it be absent); a
    // required one left out is refused like an array too short.
    expect(write(field("Item", "urn:a", Item), { Name: "n" })).toBe(
      '<Item xmlns="urn:a"><Name>n</Name></Item>',
    );
    expect(() => write(field("P", "", Pair), {})).toThrow("P.V is required (at least 1 item)");
    const Some = array("ArrayOfV", field("V", "", xs.int, { min: 1, max: 3 }));
    expect(() => write(field("S", "", Some), [])).toThrow(
      "S needs at least 1 item (minOccurs); got 0",
    );
    expect(() => write(field("S", "", Some), [1, 2, 3, 4])).toThrow(
      "S takes at most 3 items (maxOccurs); got 4",
    );
    const out: string[] = [];
    expect(() => writeElement(out, "R", "", "", Node, { Value: "1" }, false, "result", "")).toThrow(
      "result.Value: '1' (string) cannot be written as xs:int",
    );
  });
});

describe("the xml namespace", () => {
  // Namespaces in XML 1.0: the xml namespace may be bound to no prefix but `xml`. EWS's xml:lang
  // attributes were once written as `xmlns:a0="…/XML/1998/namespace" a0:lang`, which parsers refuse.
  const XML = "http://www.w3.org/XML/1998/namespace";

  it("writes a described attribute of the xml namespace as xml:, never declared", () => {
    const Text = complex("Text", () => [], {
      attrs: [attribute("lang", XML, xs.string), attribute("at", "urn:x", xs.string)],
      text: xs.string,
    });
    const xml = write(field("T", "", Text), { lang: "en-GB", at: "x", $value: "hi" });
    expect(xml).toBe('<T xml:lang="en-GB" xmlns:a0="urn:x" a0:at="x">hi</T>');
    expect(() =>
      tokenizeXml(xml, { open: () => {}, close: () => {}, text: () => {} }),
    ).not.toThrow();
  });

  it("writes an xml: attribute of an xs:anyAttribute bag the same way", () => {
    const Open = complex("Open", () => [], { anyAttrs: true });
    const xml = write(field("O", "", Open), {
      $attributes: { [`{${XML}}space`]: "preserve", "{urn:y}k": "1" },
    });
    expect(xml).toBe('<O xml:space="preserve" xmlns:a0="urn:y" a0:k="1" />');
    expect(() =>
      tokenizeXml(xml, { open: () => {}, close: () => {}, text: () => {} }),
    ).not.toThrow();
  });
});
