/**
 * `wsdl-tsgen scaffold --update` in a scaffolded project after its WSDL changed: the SDK is
 * regenerated, a stub is added for the new operation, the user's code keeps every byte, the
 * removed operation's method gets a located warning where tsc reports it too, and a second run
 * changes nothing. The unit tests of the editing itself are in update.test.ts.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { updateProject } from "../../src/scaffold/project-update.js";
import { scaffold } from "../../src/scaffold/scaffold.js";
import { WSDL_PATH } from "../support/captures.js";
import { tempDir } from "../support/tmp.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = path.join(ROOT, "bin/wsdl-tsgen.js");
const dir = tempDir("wsdl-tsgen-update-");

const MINE = `  async getMessages(input: GetMessages,
      context: ApiContext): Promise<ArrayOfMessagesInput | undefined> {
    // Mine: every byte of this stays.
    return  [ ]  ;
  },`;

/** The project's own compiler errors in src/service.ts, as `line:column TScode`. */
function tscErrors(project: string): string[] {
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", ".", "--noEmit"],
    { encoding: "utf8", cwd: project },
  );
  return [...r.stdout.matchAll(/^src\/service\.ts\((\d+),(\d+)\): error (TS\d+)/gm)].map(
    (m) => `${m[1]}:${m[2]} ${m[3]}`,
  );
}

describe("scaffold --update", () => {
  it(
    "adds the new operation's stub, keeps the user's bytes, locates the removed one, and is idempotent",
    { timeout: 120_000 },
    async () => {
      const project = path.join(dir, "project");
      await scaffold({ wsdl: WSDL_PATH, out: project });
      // The project's packages: the repository's, the runtime among them as a workspace link.
      symlinkSync(path.join(ROOT, "node_modules"), path.join(project, "node_modules"));
      const serviceFile = path.join(project, "src/service.ts");
      const scaffolded = readFileSync(serviceFile, "utf8");
      const stub = scaffolded.match(/ {2}async getMessages\([\s\S]*?\n {2}\},/)![0];
      const edited = scaffolded.replace(stub, MINE);
      writeFileSync(serviceFile, edited);
      expect(tscErrors(project)).toEqual([]);

      // DeleteMessage leaves the WSDL and PurgeMessage takes its place, on every binding.
      const wsdlFile = path.join(project, "wsdl/api.wsdl");
      writeFileSync(
        wsdlFile,
        readFileSync(wsdlFile, "utf8").replaceAll("DeleteMessage", "PurgeMessage"),
      );

      const checked = await updateProject(project, { check: true, strict: false });
      expect(checked.ok).toBe(true);
      expect(checked.changes).toContain("src/service.ts: added purgeMessage (PurgeMessage)");
      expect(checked.changes).toContain("src/generated/types.ts");
      expect(readFileSync(serviceFile, "utf8")).toBe(edited);
      const cli = (...args: string[]) =>
        spawnSync(process.execPath, [BIN, "scaffold", ...args], { cwd: project, encoding: "utf8" });
      const check = cli("--update", "--check");
      expect(check.status).toBe(1);
      expect(check.stdout).toContain("would change: src/service.ts: imported PurgeMessage");
      // What works in the project: the generator is a dev dependency, not a command on PATH.
      expect(check.stderr).toContain("The project is out of date. Run: npm run update\n");

      const updated = await updateProject(project, { check: false, strict: false });
      const after = readFileSync(serviceFile, "utf8");
      const added =
        '  /** Deletes one message of the account. */\n  async purgeMessage(input: PurgeMessage, context: ApiContext): Promise<void> {\n    throw notImplemented("PurgeMessage");\n  },\n\n';
      // Exactly two insertions: the new type's import and the new method, before the old one.
      expect(after).toBe(
        edited
          .replace("  GetMessagesInDateRange,\n", "  GetMessagesInDateRange,\n  PurgeMessage,\n")
          .replace(
            "  /** Deletes one message of the account. */\n  async deleteMessage",
            `${added}  /** Deletes one message of the account. */\n  async deleteMessage`,
          ),
      );
      expect(after).toContain(MINE);

      const lines = after.split("\n");
      const line = lines.findIndex((l) => l.includes("async deleteMessage(")) + 1;
      const column = lines[line - 1]!.indexOf("deleteMessage") + 1;
      expect(updated.diagnostics).toEqual([
        {
          code: "SCAFFOLD_OPERATION_REMOVED",
          severity: "warning",
          message:
            "method deleteMessage of apiService: no operation of service Api in the WSDL has this method any more (it was removed or renamed); remove the method, or keep it as a helper outside the object",
          file: "src/service.ts",
          line,
          column,
        },
        {
          code: "SCAFFOLD_IMPORT_UNUSED",
          severity: "warning",
          message:
            'the import of DeleteMessage from "./generated/types.js" is left unused by the operations the WSDL no longer has (only removed operations\' methods use it); remove it with the methods, or the file no longer compiles once the SDK stops exporting it',
          file: "src/service.ts",
          line: lines.findIndex((l) => l === "  DeleteMessage,") + 1,
          column: 3,
        },
      ]);
      // tsc says so at the same place (and that the removed operation's type is gone).
      expect(tscErrors(project)).toEqual(expect.arrayContaining([`${line}:${column} TS2353`]));

      // A second run changes no byte, and says the same.
      const again = await updateProject(project, { check: false, strict: false });
      expect(again.changes).toEqual([]);
      expect(again.diagnostics).toEqual(updated.diagnostics);
      expect(readFileSync(serviceFile, "utf8")).toBe(after);
      const fresh = cli("--update", "--check");
      expect([fresh.status, fresh.stdout]).toEqual([0, "Up to date.\n"]);
      expect(fresh.stderr).toContain(
        `src/service.ts:${line}:${column}: warning SCAFFOLD_OPERATION_REMOVED`,
      );
    },
  );

  it("reports a field renamed inside a type at each method that reaches it, once", async () => {
    const project = path.join(dir, "renamed-field");
    await scaffold({ wsdl: WSDL_PATH, out: project });
    const wsdlFile = path.join(project, "wsdl/api.wsdl");
    const wsdl = readFileSync(wsdlFile, "utf8");
    writeFileSync(wsdlFile, wsdl.replace('name="Transcription"', 'name="Transcript"'));

    const updated = await updateProject(project, { check: false, strict: false });
    expect(updated.ok).toBe(true);
    const changed = updated.diagnostics.filter((d) => d.code === "SCAFFOLD_SIGNATURE_CHANGED");
    // The two listing operations return Messages; DeleteMessage reaches no changed type.
    expect(changed.map((d) => d.message.match(/^method (\w+)/)![1])).toEqual([
      "getMessages",
      "getMessagesInDateRange",
    ]);
    expect(changed[0]!.message).toContain("Messages: Transcription removed; Transcript added");
    const lines = readFileSync(path.join(project, "src/service.ts"), "utf8").split("\n");
    expect(changed[0]!.line).toBe(lines.findIndex((l) => l.includes("async getMessages(")) + 1);

    // Reported by the update that brings the change: the SDK on disk now has it.
    const again = await updateProject(project, { check: false, strict: false });
    expect(again.diagnostics.filter((d) => d.code === "SCAFFOLD_SIGNATURE_CHANGED")).toEqual([]);
  });

  it(
    "gives a mock project scaffolded before mocks.answer the `mocks` its new methods call",
    { timeout: 120_000 },
    async () => {
      const project = path.join(dir, "old-mock");
      await scaffold({ wsdl: WSDL_PATH, out: project, mock: true });
      symlinkSync(path.join(ROOT, "node_modules"), path.join(project, "node_modules"));
      const serviceFile = path.join(project, "src/service.ts");
      // The mock as scaffolded before response files: samples, and no `mocks` declared.
      const old = readFileSync(serviceFile, "utf8")
        .replace("import { createMocks }", "import { sampleOutput }")
        .replace(/\/\*\*\n \* The mock's answers[\s\S]*?createMocks\([^\n]*\n\n/, "")
        .replace(/mocks\.answer\((\w+), ("\w+"), input\)/g, "sampleOutput($1, $2)");
      expect(old).not.toContain("mocks");
      writeFileSync(serviceFile, old);
      expect(tscErrors(project)).toEqual([]);
      const wsdlFile = path.join(project, "wsdl/api.wsdl");
      const wsdl = readFileSync(wsdlFile, "utf8");
      writeFileSync(wsdlFile, wsdl.replaceAll("DeleteMessage", "PurgeMessage"));

      const updated = await updateProject(project, { check: false, strict: false });
      expect(updated.changes).toContain("src/service.ts: declared mocks");
      const after = readFileSync(serviceFile, "utf8");
      expect(after).toContain('import { createMocks, sampleOutput } from "@wsdl-tsgen/runtime";');
      expect(after).toContain("export const mocks = createMocks({ services: [ApiDesc] });");
      expect(after).toContain('return mocks.answer(ApiDesc, "purgeMessage", input);');
      // The declaration comes before the service object that uses it.
      expect(after.indexOf("export const mocks")).toBeLessThan(after.indexOf("export const api"));
      // The compiler finds every name the added lines use (TS2304 would be `mocks` unknown); what
      // it reports is the removed operation's method, and its type no longer exported.
      const codes = tscErrors(project).map((e) => e.split(" ")[1]);
      expect(codes).toContain("TS2353");
      expect(codes).not.toContain("TS2304");
      const again = await updateProject(project, { check: false, strict: false });
      expect(again.changes).toEqual([]);
    },
  );

  it("a project without its config is a located error (exit 1), not a stack trace", () => {
    const r = spawnSync(process.execPath, [BIN, "scaffold", "--update"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/wsdl-tsgen\.config\.json: cannot read the config file/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
