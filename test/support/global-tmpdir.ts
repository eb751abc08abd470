/**
 * Vitest's global setup: one TMPDIR for the run, removed at its end. Spooled attachments of a
 * call's result live until the process exits (docs/attachments.md), and Vitest ends its workers
 * by signal, when no exit hook runs: their files go with this directory instead of piling up.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const before = process.env["TMPDIR"];
  const dir = mkdtempSync(join(tmpdir(), "vitest-run-"));
  // Open as /tmp is (sticky, all may write): the daemons the tests start as other users
  // (PostgreSQL, Apache, squid) reach their folders in it. What is private is made so inside it.
  chmodSync(dir, 0o1777);
  process.env["TMPDIR"] = dir;
  return () => {
    if (before === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = before;
    rmSync(dir, { recursive: true, force: true });
  };
}
