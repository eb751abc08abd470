import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll } from "vitest";

const created: string[] = [];
const removeAll = () => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
};
// Registered once per test file (each file has its own module graph), so folders made inside tests
// are removed too; outside vitest (the benchmarks), at exit.
if (process.env["VITEST"]) afterAll(removeAll);
else process.once("exit", removeAll);

/** A temporary folder removed after the test file. */
export function tempDir(prefix = "wsdl-tsgen-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

export function writeTemp(dir: string, name: string, text: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}
