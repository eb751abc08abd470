/**
 * Swagger UI in a real browser: headless Chromium (Debian's `chromium`, driven by playwright-core,
 * never downloaded) opens `/` of a gateway with docsHandler in front of the example Message
 * Retrieval Service and sees every operation rendered from /openapi.json, with no console error,
 * no CSP violation and no request leaving the gateway's origin. Skipped, saying what to install,
 * without /usr/bin/chromium.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docsHandler } from "@wsdl-tsgen/gateway";
import { startServer, type RunningServer } from "../../examples/message-service/server.js";
import { SEED_PATH, tempDir } from "../message-service/helpers.js";
import { chromiumPresent, launchChromium, recordViolations } from "../support/chromium.js";
import { ApiClient } from "../../generated-samples/message-service/index.js";
import { ApiDesc } from "../../generated-samples/message-service/descriptors.js";
import { createGateway, type ServiceDesc } from "../../runtime/src/index.js";
import { generateFiles } from "../../src/generate.js";
import { openApiDocument } from "../../src/emit/openapi/openapi.js";

const present = chromiumPresent("docs-browser.test.ts");

describe.skipIf(!present)("Swagger UI at / in Chromium", () => {
  let backend: RunningServer;
  let server: Server;
  let base: string;
  let context: BrowserContext;

  beforeAll(async () => {
    const dbPath = path.join(tempDir(), "m.db");
    backend = await startServer({ port: 0, host: "127.0.0.1", dbPath, seedPath: SEED_PATH });
    const { plan } = await generateFiles("fixtures/message-service/api.wsdl");
    const gateway = createGateway({
      service: ApiDesc as ServiceDesc,
      document: openApiDocument(plan!),
      client: () => new ApiClient({ endpoint: backend.url }),
    });
    const docs = docsHandler({ title: ApiDesc.name });
    server = createServer((req, res) => {
      if (!docs(req, res)) gateway(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    context = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    server?.close();
    await backend?.close();
  });

  it("renders every operation of the document from the gateway's own origin", async () => {
    const requests: string[] = [];
    const errors: string[] = [];
    const violations: string[] = [];
    // Anything bound off the gateway's origin is recorded, then refused before it leaves.
    await context.route("**/*", (route) => {
      const url = route.request().url();
      requests.push(url);
      return url.startsWith(`${base}/`) ? route.continue() : route.abort();
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    await recordViolations(page, violations);
    await page.goto(`${base}/`);
    const operations = Object.keys(ApiDesc.ports.ApiSoap.operations);
    await page
      .locator(".opblock")
      .nth(operations.length - 1)
      .waitFor({ timeout: 30_000 });
    const summaries = await page.locator(".opblock .opblock-summary-path").allTextContents();
    expect(summaries.map((s) => s.replace(/\u200b/g, "")).sort()).toEqual(
      operations.map((o) => `/${o}`).sort(),
    );
    const getMessages = page.locator(
      '.opblock-post .opblock-summary-path[data-path="/GetMessages"]',
    );
    expect(await getMessages.count()).toBe(1);
    expect(await page.title()).toBe(ApiDesc.name);
    expect(requests.filter((u) => !u.startsWith(`${base}/`))).toEqual([]);
    expect(requests).toContain(`${base}/openapi.json`);
    expect(requests).toContain(`${base}/docs/swagger-ui-bundle.js`);
    expect(errors).toEqual([]);
    expect(violations).toEqual([]);
  }, 60_000);
});
