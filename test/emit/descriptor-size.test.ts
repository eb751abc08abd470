/**
 * Smaller descriptors (issue 17): ports with equal operation tables share one, lists that several
 * operations declare are declared once, and Bing's descriptors.ts stays below its size budget.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

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

  it("keeps Bing's descriptors.ts at most 70% of its 494,404 bytes before (2026-11-25)", () => {
    // Derived types name their base; common options have names; lists and tables are shared;
    // fields leave the file's common namespace unsaid; operations imply their kind.
    expect(read("corpus/bing-campaign-management").length).toBeLessThanOrEqual(0.7 * 494_404);
  });
});
