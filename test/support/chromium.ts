/**
 * Headless Chromium for the browser tests: Debian's `chromium`, driven by playwright-core, never
 * downloaded; tests skip, saying what to install, without it. Each page reports its CSP violations
 * to the test, and the browser is started without its background traffic (updates, sync, QUIC).
 */
import { existsSync } from "node:fs";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { tempDir } from "./tmp.js";

export const CHROMIUM = "/usr/bin/chromium";

/** Whether Chromium is here; if not, logs the one line saying what to install. */
export function chromiumPresent(test: string): boolean {
  const present = existsSync(CHROMIUM);
  if (!present)
    console.log(
      `${test}: skipped: no ${CHROMIUM}; install Debian's chromium (apt-get install chromium) to run the browser tests`,
    );
  return present;
}

/** A fresh headless browser (a persistent context is how playwright takes a user data folder). */
export function launchChromium(): Promise<BrowserContext> {
  return chromium.launchPersistentContext(tempDir(), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Makes every document `page` opens push its CSP violations into `violations`. */
export async function recordViolations(page: Page, violations: string[]): Promise<void> {
  await page.exposeFunction("reportViolation", (v: string) => violations.push(v));
  // The script is text: the tests compile without the DOM's types.
  await page.addInitScript({
    content: `document.addEventListener("securitypolicyviolation", (e) =>
  window.reportViolation(e.violatedDirective + " " + e.blockedURI));`,
  });
}
