/**
 * Packaging, as a user installs it: `npm pack`, install the tarball into a fresh project, generate
 * the sample there with its `wsdl-tsgen` bin, and compile the result with that project's own tsc.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/tmp.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const dir = tempDir("wsdl-tsgen-pack-");
const npm = (args: string[], cwd: string) =>
  execFileSync("npm", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_loglevel: "error" },
  });

describe("the published package", () => {
  it(
    "installs, generates and compiles in a fresh project, without dev-only dependencies",
    { timeout: 240_000 },
    () => {
      const packed = JSON.parse(
        npm(["pack", "--json", "--ignore-scripts", "--pack-destination", dir], ROOT),
      ) as { filename: string; files: { path: string }[] }[];
      const files = packed[0]!.files.map((f) => f.path);
      expect(files).toContain("dist/runtime/index.js");
      expect(files).toContain("templates/client.ts.hbs");
      expect(
        files.some(
          (f) => f.startsWith("test/") || f.startsWith("examples/") || f.startsWith("fixtures/"),
        ),
      ).toBe(false);

      const project = path.join(dir, "project");
      execFileSync("mkdir", ["-p", project]);
      writeFileSync(
        path.join(project, "package.json"),
        JSON.stringify({ name: "user-project", private: true, type: "module" }),
      );
      const typescript = JSON.parse(
        execFileSync(
          process.execPath,
          ["-p", "JSON.stringify(require('typescript/package.json').version)"],
          { cwd: ROOT, encoding: "utf8" },
        ),
      ) as string;
      npm(
        [
          "install",
          "--no-audit",
          "--no-fund",
          "--prefer-offline",
          path.join(dir, packed[0]!.filename),
          `typescript@${typescript}`,
          "@types/node@20",
        ],
        project,
      );

      const installed = readdirSync(path.join(project, "node_modules"));
      for (const devOnly of ["better-sqlite3", "vitest", "soap", "autocannon", "tsx", "@xmldom"])
        expect(installed).not.toContain(devOnly);

      copyFileSync(
        path.join(ROOT, "fixtures/message-service/api.wsdl"),
        path.join(project, "api.wsdl"),
      );
      execFileSync(
        path.join(project, "node_modules/.bin/wsdl-tsgen"),
        ["generate", "api.wsdl", "--out", "generated"],
        { cwd: project, encoding: "utf8" },
      );
      expect(existsSync(path.join(project, "generated/client.ts"))).toBe(true);
      writeFileSync(
        path.join(project, "main.ts"),
        'import { ApiClient, type Messages } from "./generated/index.js";\nconst c = new ApiClient({ endpoint: "http://127.0.0.1:1/api.asmx", port: "ApiHttpGet" });\nexport const list: Promise<(Messages | null)[] | undefined> = c.getMessages({ email: "a", password: "b" });\n',
      );
      const tsc = path.join(project, "node_modules/.bin/tsc");
      const out = execFileSync(
        tsc,
        [
          "--noEmit",
          "--strict",
          "--exactOptionalPropertyTypes",
          "--noUncheckedIndexedAccess",
          "--module",
          "nodenext",
          "--moduleResolution",
          "nodenext",
          "--target",
          "es2022",
          "--types",
          "node",
          "main.ts",
        ],
        { cwd: project, encoding: "utf8" },
      );
      expect(out).toBe("");
    },
  );
});
