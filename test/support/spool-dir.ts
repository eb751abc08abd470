/**
 * A private TMPDIR for the tests of spooled attachments: the runtime's temporary files go there
 * (os.tmpdir() reads TMPDIR when called), so that a test can see that none is left.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

/** Sets TMPDIR to a fresh directory around each test (`each`) or the file; returns its path. */
export function spoolDir(each: boolean): { readonly path: string; entries(): string[] } {
  let path = "";
  const before = process.env["TMPDIR"];
  (each ? beforeEach : beforeAll)(() => {
    path = mkdtempSync(join(tmpdir(), "spool-test-"));
    process.env["TMPDIR"] = path;
  });
  (each ? afterEach : afterAll)(() => {
    if (before === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = before;
    rmSync(path, { recursive: true, force: true });
  });
  return {
    get path() {
      return path;
    },
    /** Everything under the directory, recursively. */
    entries: () => readdirSync(path, { recursive: true }).map(String),
  };
}
