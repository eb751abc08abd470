/**
 * Smaller descriptors (issue 17): ports with equal operation tables share one, lists that several
 * operations declare are declared once, and Bing's descriptors.ts stays below its size budget.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as bing from "../../generated-samples/corpus/bing-campaign-management/descriptors.js";

const read = (golden: string): string =>
  readFileSync(`generated-samples/${golden}/descriptors.ts`, "utf8");
const count = (text: string, s: string): number => text.split(s).length - 1;

describe("descriptor size", () => {
  it("gives the SOAP 1.1 and 1.2 ports one operation table, and the HTTP ports another", () => {
    const text = read("message-service");
    expect(count(text, "const ApiSoapOperations = soapOperations({")).toBe(1);
    expect(count(text, "operations: ApiSoapOperations,")).toBe(2);
    expect(count(text, "operations: ApiHttpGetOperations,")).toBe(2);
    expect(count(text, "const ApiHttpGetOperations = httpOperations({")).toBe(1);
    expect(count(text, "Operations({")).toBe(2);
  });

  it("declares a header or fault list that operations share once, and names it", () => {
    const text = read("corpus/bing-campaign-management");
    expect(count(text, "const headers = [")).toBe(1);
    expect(count(text, "    headers,\n")).toBeGreaterThan(150);
    expect(count(text, '  "ApplicationToken",')).toBe(1);
  });

  it("leaves the options most fields have unsaid, and says REQUIRED for a required field", () => {
    // WCF writes every member minOccurs="0" nillable="true": Bing's `field` has those by default.
    const text = read("corpus/bing-campaign-management");
    // Only where `field` is declared: no field restates its default.
    expect(count(text, ", OPTIONAL_NILLABLE)")).toBe(1);
    expect(text).toContain('  field("Name", xs.string),\n');
    expect(text).toContain('  field("Day", xs.int, REQUIRED),\n');
    const shape = (name: string) => {
      const f = bing.Campaign.fields.find((f) => f.name === name)!;
      return { min: f.min, max: f.max, nillable: f.nillable };
    };
    expect(shape("Name")).toEqual({ min: 0, max: 1, nillable: true });
    expect(shape("IsPolitical")).toEqual({ min: 0, max: 1, nillable: false });
    const day = bing.Date_.fields.find((f) => f.name === "Day")!;
    expect([day.min, day.max, day.nillable]).toEqual([1, 1, false]);
    // A file whose required fields are about as many as its optional ones keeps no default.
    expect(read("message-service")).toContain("const field = fieldsIn(NS);");
  });

  it("keeps Bing's descriptors.ts at most 70% of its 494,404 bytes before (2026-11-25)", () => {
    // Derived types name their base; common options have names; lists and tables are shared;
    // fields leave the file's common namespace and options unsaid; operations imply their kind.
    // Within it, type descriptors carry their value and input types (`ComplexDesc<t.X, t.XInput>`).
    expect(read("corpus/bing-campaign-management").length).toBeLessThanOrEqual(0.7 * 494_404);
  });
});
