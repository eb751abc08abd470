/**
 * Packaging, as a user installs it: `npm pack`, install the tarball into a fresh project, generate
 * the sample there with its `wsdl-tsgen` bin (without Prettier, which is only an optional peer: the
 * output must be the checked-in sample, byte for byte), and compile it with that project's own tsc.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
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
      // Prettier is an optional peer: not installed, and nowhere the project could resolve it.
      expect(installed).not.toContain("prettier");
      expect(() =>
        execFileSync(process.execPath, ["-e", "require.resolve('prettier')"], {
          cwd: project,
          stdio: "ignore",
        }),
      ).toThrow();

      // Without Prettier, the output is the checked-in sample, byte for byte.
      const wsdl = "fixtures/message-service/api.wsdl";
      execFileSync("mkdir", ["-p", path.join(project, path.dirname(wsdl))]);
      copyFileSync(path.join(ROOT, wsdl), path.join(project, wsdl));
      const bin = path.join(project, "node_modules/.bin/wsdl-tsgen");
      execFileSync(bin, ["generate", wsdl, "--out", "generated"], {
        cwd: project,
        encoding: "utf8",
      });
      const golden = path.join(ROOT, "generated-samples/message-service");
      expect(readdirSync(path.join(project, "generated")).sort()).toEqual(
        readdirSync(golden).sort(),
      );
      for (const f of readdirSync(golden))
        expect(readFileSync(path.join(project, "generated", f), "utf8"), f).toBe(
          readFileSync(path.join(golden, f), "utf8"),
        );

      // --format prettier without Prettier: a usage error that says how to install it.
      const refused = spawnSync(
        bin,
        ["generate", wsdl, "--out", "formatted", "--format", "prettier"],
        {
          cwd: project,
          encoding: "utf8",
        },
      );
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain("npm install --save-dev prettier");
      expect(existsSync(path.join(project, "formatted"))).toBe(false);
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
