/**
 * A gateway serves one service (its templates take the first): on a WSDL of several, its OpenAPI
 * document describes that one alone, at the paths it answers, and the others are named in a
 * warning rather than left out unsaid.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { generateFiles } from "../../src/generate.js";
import { openApiDocument } from "../../src/emit/openapi/openapi.js";
import { gatewayWarnings, openApiText } from "../../src/scaffold/scaffold.js";
import { tempDir } from "../support/tmp.js";

/** The message service's WSDL with its service declared twice, as Api and Archive. */
function twoServices(): string {
  const text = readFileSync("fixtures/message-service/api.wsdl", "utf8");
  const service = /<wsdl:service name="Api">[\s\S]*?<\/wsdl:service>/.exec(text)![0];
  const archive = service
    .replace('name="Api"', 'name="Archive"')
    .replaceAll("/api.asmx", "/archive.asmx");
  const file = path.join(tempDir(), "two.wsdl");
  writeFileSync(file, text.replace(service, `${service}\n  ${archive}`));
  return file;
}

describe("a gateway over a WSDL of several services", () => {
  it("describes every service under its name by default, one alone when asked", async () => {
    const { plan } = await generateFiles(twoServices());
    const all = Object.keys(openApiDocument(plan!).paths);
    expect(all).toContain("/Api/GetMessages");
    expect(all).toContain("/Archive/GetMessages");
    const one = Object.keys(openApiDocument(plan!, { service: "Archive" }).paths);
    expect(one).toEqual(["/GetMessages", "/GetMessagesInDateRange", "/DeleteMessage"]);
  });

  it("serves the first service's document and warns of the others, located", async () => {
    const { plan, model } = await generateFiles(twoServices());
    expect(Object.keys(JSON.parse(openApiText(plan!)).paths)).toContain("/GetMessages");
    const [warning, ...rest] = gatewayWarnings(model!);
    expect(rest).toEqual([]);
    expect(warning).toMatchObject({ code: "SCAFFOLD_GATEWAY_ONE_SERVICE", severity: "warning" });
    expect(warning!.message).toMatch(/serves one service, Api .*Archive is not served/);
    expect(warning!.line).toBeGreaterThan(300);
  });

  it("says nothing of a WSDL of one service", async () => {
    const { model } = await generateFiles("fixtures/message-service/api.wsdl");
    expect(gatewayWarnings(model!)).toEqual([]);
  });
});
