/**
 * `scaffold --update` reads the project's config through the reading `generate` uses (its
 * operations and docs, here, are kept, not silently undone), and writes nothing unless everything
 * succeeds: a failure leaves every file of the project as it was.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { updateProject } from "../../src/scaffold/project-update.js";
import { scaffold } from "../../src/scaffold/scaffold.js";
import { WSDL_PATH } from "../support/captures.js";
import { tempDir } from "../support/tmp.js";

const dir = tempDir("wsdl-tsgen-update-config-");

/** Every file under `root` with its bytes, for comparing a project before and after. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!f.isFile()) continue;
    const file = path.join(f.parentPath, f.name);
    out[path.relative(root, file)] = readFileSync(file, "utf8");
  }
  return out;
}

function editConfig(project: string, edit: (source: Record<string, unknown>) => void): void {
  const file = path.join(project, "wsdl-tsgen.config.json");
  const config = JSON.parse(readFileSync(file, "utf8")) as { sources: Record<string, unknown>[] };
  edit(config.sources[0]!);
  writeFileSync(file, JSON.stringify(config, null, 2));
}

describe("scaffold --update and the project's config", () => {
  it("keeps the config's operations and docs, then says it is up to date", async () => {
    const project = path.join(dir, "configured");
    await scaffold({ wsdl: WSDL_PATH, out: project });
    editConfig(project, (source) => {
      source["operations"] = ["GetMessages"];
      source["docs"] = false;
    });
    const updated = await updateProject(project, { check: false, strict: false });
    expect(updated.ok).toBe(true);
    const client = readFileSync(path.join(project, "src/generated/client.ts"), "utf8");
    expect(client).toContain("readonly getMessages:");
    expect(client).not.toContain("readonly deleteMessage:");
    expect(client).not.toContain("readonly getMessagesInDateRange:");
    // docs: false, the WSDL's documentation is not copied.
    expect(client).not.toContain("Returns all messages of the account.");
    // The operations left out are said of the methods that still implement them.
    expect(updated.diagnostics.map((d) => d.code)).toContain("SCAFFOLD_OPERATION_REMOVED");
    const again = await updateProject(project, { check: true, strict: false });
    expect(again.changes).toEqual([]);
  });

  it("scaffold --operations limits the project to them and keeps them in its config for --update", async () => {
    const project = path.join(dir, "limited");
    await scaffold({ wsdl: WSDL_PATH, out: project, operations: ["DeleteMessage"] });
    const config = JSON.parse(readFileSync(path.join(project, "wsdl-tsgen.config.json"), "utf8"));
    expect(config.sources[0].operations).toEqual(["DeleteMessage"]);
    const service = readFileSync(path.join(project, "src/service.ts"), "utf8");
    expect(service).toContain("async deleteMessage(");
    expect(service).not.toContain("getMessages");
    const again = await updateProject(project, { check: true, strict: false });
    expect([again.ok, again.changes, again.diagnostics]).toEqual([true, [], []]);
  });

  it("writes nothing when it fails: the SDK is not regenerated without src/service.ts", async () => {
    const project = path.join(dir, "failing");
    await scaffold({ wsdl: WSDL_PATH, out: project });
    const wsdl = path.join(project, "wsdl/api.wsdl");
    writeFileSync(wsdl, readFileSync(wsdl, "utf8").replaceAll("DeleteMessage", "PurgeMessage"));
    rmSync(path.join(project, "src/service.ts"));
    const before = snapshot(project);
    const r = await updateProject(project, { check: false, strict: false });
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => d.code)).toContain("SCAFFOLD_SERVICE_MISSING");
    expect(r.changes).toEqual([]);
    expect(snapshot(project)).toEqual(before);
  });
});
