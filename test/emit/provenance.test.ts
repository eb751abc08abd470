/**
 * Every generated type says in its JSDoc where it comes from (`{namespace}name, complexType`, or
 * the element an anonymous type belongs to); an input form says what it is and links the type whose
 * JSDoc has that, rather than repeating it.
 */
import { describe, expect, it } from "vitest";
import { generateFiles } from "../../src/generate.js";

async function declarations(wsdl: string): Promise<Map<string, string>> {
  const { files } = await generateFiles(wsdl);
  const types = files.find((f) => f.path === "types.ts")!.content;
  const out = new Map<string, string>();
  for (const m of types.matchAll(
    /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\nexport (?:interface|type) (\w+)/g,
  ))
    out.set(m[2]!, m[1]!.replace(/\n \* ?/g, " ").trim());
  return out;
}

describe("provenance lines", () => {
  it("name each type's origin once, and an input form's type by link", async () => {
    const docs = await declarations("fixtures/message-service/api.wsdl");
    expect(docs.get("Messages")).toBe("{http://api.example.com/messages/}Messages, complexType");
    expect(docs.get("GetMessages")).toBe(
      "Anonymous complexType of element {http://api.example.com/messages/}GetMessages",
    );
    expect(docs.get("MessagesInput")).toBe(
      "Input form of {@link Messages}: what a caller writes, where it differs.",
    );
    for (const [name, doc] of docs) {
      if (name.endsWith("Input"))
        expect(doc, name).not.toMatch(/\}\w+, (complex|simple)Type|of element/);
      else if (!["ApiPortName", "ApiOperations"].includes(name))
        expect(doc, name).toMatch(/\{http:\/\/api\.example\.com\/messages\/\}/);
    }
  });
});
