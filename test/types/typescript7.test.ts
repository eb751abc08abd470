/**
 * TypeScript 7 (the native compiler `npm i -D typescript` now installs) checks what we generate as
 * TypeScript 5 does: every sample SDK against the runtime's published declarations, and a
 * scaffolded project with its own tsconfig. It has no JavaScript API, so its tsc is run as users
 * run it; the dev dependency `typescript-7` is an npm alias, leaving `tsc` itself at 5.x.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scaffold } from "../../src/scaffold/scaffold.js";
import { WSDL_PATH } from "../support/captures.js";
import { tempDir } from "../support/tmp.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSC7 = path.join(ROOT, "node_modules/typescript-7/bin/tsc");
const SAMPLES = path.join(ROOT, "generated-samples");

/** The strict flags the README promises, as a user's tsconfig sets them. */
const STRICT = {
  target: "ES2022",
  lib: ["ES2023"],
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  types: ["node"],
  typeRoots: [path.join(ROOT, "node_modules/@types")],
  noEmit: true,
};

function tsc7(args: readonly string[], cwd: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [TSC7, ...args], { cwd, encoding: "utf8" });
  return { status: r.status, out: r.stdout + r.stderr };
}

/** A tsconfig in a folder of its own over `include`, with `extra` files beside it. */
function project(include: readonly string[], extra: Record<string, string> = {}): string {
  const dir = tempDir("wsdl-tsgen-ts7-");
  const files = Object.keys(extra).map((f) => path.join(dir, f));
  for (const [f, text] of Object.entries(extra)) writeFileSync(path.join(dir, f), text);
  const config = { compilerOptions: STRICT, include: [...include, ...files] };
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(config));
  return dir;
}

describe("TypeScript 7", () => {
  it("is the 7.x compiler", () => {
    expect(tsc7(["--version"], ROOT).out).toMatch(/^Version 7\./);
  });

  it("checks every sample SDK, strict with exactOptionalPropertyTypes, against the runtime's declarations", () => {
    const dir = project([SAMPLES]);
    const r = tsc7(["-p", ".", "--listFilesOnly"], dir);
    const listed = r.out.split("\n").map((l) => path.resolve(l.trim()));
    const sdks = readdirSync(SAMPLES, { recursive: true, encoding: "utf8" })
      .filter((f) => path.basename(f) === "types.ts")
      .map((f) => path.join(SAMPLES, f));
    expect(sdks.length).toBeGreaterThan(15);
    for (const sdk of sdks) expect(listed).toContain(sdk);
    // The runtime comes from its built declarations, as in a user's project.
    expect(listed).toContain(path.join(ROOT, "runtime/dist/index.d.ts"));
    expect(tsc7(["-p", "."], dir)).toEqual({ status: 0, out: "" });
  });

  it("refuses a misuse of the generated types, so the check above is a real one", () => {
    const types = path.join(SAMPLES, "message-service/index.js");
    const misuse = [
      `import type { GetMessages } from ${JSON.stringify(types)};`,
      // exactOptionalPropertyTypes: an optional member is left out, never set to undefined.
      "export const input: GetMessages = { email: undefined };",
    ].join("\n");
    const dir = project([path.join(SAMPLES, "message-service")], { "misuse.ts": misuse });
    const r = tsc7(["-p", "."], dir);
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/misuse\.ts\(2,14\): error TS2375/);
  });

  it(
    "compiles a scaffolded project, which accepts either compiler, with its own tsconfig",
    { timeout: 60_000 },
    async () => {
      const dir = path.join(tempDir("wsdl-tsgen-ts7-scaffold-"), "project");
      await scaffold({ wsdl: WSDL_PATH, out: dir });
      const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
        devDependencies: Record<string, string>;
      };
      expect(manifest.devDependencies["typescript"]).toMatch(/^\^5\.\d+\.\d+ \|\| \^7\.\d+\.\d+$/);
      symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
      expect(tsc7(["-p", ".", "--noEmit"], dir)).toEqual({ status: 0, out: "" });
    },
  );
});
