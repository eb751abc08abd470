/**
 * The Message Retrieval Service's help pages in a real browser: headless Chromium (Debian's
 * `chromium`, driven by playwright-core, never downloaded) opens the service page, follows an
 * operation, uses the test form to read, fail and delete, and sees no console error and no CSP
 * violation. Skipped, saying what to install, without /usr/bin/chromium. The loopback rule is
 * checked without a browser, at the handler, since a test cannot connect from a remote address.
 */
import * as path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHandler } from "../../generated-samples/message-service/index.js";
import { startServer, type RunningServer } from "../../examples/message-service/server.js";
import { createMessageService } from "../../examples/message-service/service.js";
import { open } from "../../examples/message-service/store.js";
import { chromiumPresent, launchChromium, recordViolations } from "../support/chromium.js";
import { postFormFrom } from "../support/help-samples.js";
import { ALICE, SEED, SEED_PATH, tempDir } from "./helpers.js";

const present = chromiumPresent("help-browser.test.ts");

const ALICE_IDS = SEED.accounts
  .find((a) => a.email === ALICE.email)!
  .messages!.map((m) => m.Id)
  .sort();

describe.skipIf(!present)("the help pages in Chromium", () => {
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  const violations: string[] = [];

  beforeAll(async () => {
    server = await startServer({
      port: 0,
      host: "127.0.0.1",
      dbPath: path.join(tempDir(), "messages.db"),
      seedPath: SEED_PATH,
    });
    context = await launchChromium();
    page = context.pages()[0] ?? (await context.newPage());
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    await recordViolations(page, violations);
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await server?.close();
  });

  /** Opens an operation's page, fills its form and submits it; the result page's text. */
  async function invoke(op: string, fields: Record<string, string>): Promise<string> {
    await page.goto(`${server.url}?op=${op}`);
    for (const [name, value] of Object.entries(fields))
      await page.fill(`form.test input[name="${name}"]`, value);
    await Promise.all([page.waitForURL(/\?op=/), page.click('form.test input[type="submit"]')]);
    return (await page.textContent("main")) ?? "";
  }
  const idsIn = (text: string) => [...text.matchAll(/<Id>(\d+)<\/Id>/g)].map((m) => Number(m[1]));

  it("opens the service page and follows GetMessages to its four samples", async () => {
    await page.goto(server.url);
    expect(await page.textContent("main")).toContain("Message Retrieval Service (reference peer)");
    await Promise.all([
      page.waitForURL(/\?op=GetMessages$/),
      page.click('main a:text-is("GetMessages")'),
    ]);
    expect(await page.textContent("h2")).toBe("GetMessages");
    expect(await page.locator("section.sample h3").allTextContents()).toEqual([
      "SOAP 1.1",
      "SOAP 1.2",
      "HTTP GET",
      "HTTP POST",
    ]);
    // Every section shows a request and a response, with placeholders for the values.
    expect(await page.locator("section.sample pre.request").count()).toBe(4);
    expect(await page.locator("section.sample pre.response").count()).toBe(4);
    expect(await page.locator("section.sample pre.request .ph").first().textContent()).toBe(
      "string",
    );
  });

  it("reads alice's five messages through the form, never showing the password", async () => {
    const text = await invoke("GetMessages", { email: ALICE.email, password: ALICE.password });
    expect(text).toContain("HTTP 200");
    expect(idsIn(text).sort()).toEqual(ALICE_IDS);
    expect(ALICE_IDS).toHaveLength(5);
    expect(await page.content()).not.toContain(ALICE.password);
  });

  it("shows the fault for a wrong password", async () => {
    const text = await invoke("GetMessages", { email: ALICE.email, password: "not-her-password" });
    expect(await page.textContent(".fault .reason")).toBe("Invalid email or password.");
    expect(idsIn(text)).toEqual([]);
    expect(await page.content()).not.toContain("not-her-password");
  });

  it("deletes a message through the form; a listing then lacks it", async () => {
    const gone = ALICE_IDS[2]!;
    const text = await invoke("DeleteMessage", { ...ALICE, MessageId: String(gone) });
    expect(text).toContain("HTTP 200 and an empty body");
    const after = idsIn(await invoke("GetMessages", { ...ALICE }));
    expect(after.sort()).toEqual(ALICE_IDS.filter((id) => id !== gone));
  });

  it("saw no console error and no CSP violation on any page", async () => {
    expect(errors).toEqual([]);
    expect(violations).toEqual([]);
    // The policy is the one the pages were served with (and it forbids inline script).
    const res = await page.request.get(server.url);
    expect(res.headers()["content-security-policy"]).toMatch(
      /^default-src 'none'; style-src 'sha256-/,
    );
  });
});

describe("the Message Retrieval Service's test form from a remote address", () => {
  it("is refused, and nothing is deleted", async () => {
    const store = await open(path.join(tempDir(), "remote.db"));
    try {
      await store.seed(SEED);
      const handler = createApiHandler(createMessageService(store));
      const form = `email=${encodeURIComponent(ALICE.email)}&password=${ALICE.password}&MessageId=101`;
      const remote = await postFormFrom(handler, "198.51.100.4", "DeleteMessage", form);
      expect(remote.status).toBe(403);
      expect(remote.body).toContain("only available for requests from the local machine");
      const list = await postFormFrom(handler, "127.0.0.1", "GetMessages", form);
      expect(list.status).toBe(200);
      expect(list.body).toContain("&lt;Id&gt;101&lt;/Id&gt;");
    } finally {
      await store.close();
    }
  });
});
