/**
 * The published packages as users get them: `npm pack` tarballs, installed with npm into projects
 * outside the repository. Shared by the packaging and the consumer-matrix tests.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export const npm = (args: string[], cwd: string) =>
  execFileSync("npm", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_loglevel: "error" },
  });

export const INSTALL = ["install", "--no-audit", "--no-fund", "--prefer-offline"];

/**
 * `npm pack` of the generator (no workspace) or of a workspace into `dest`: the tarball and its
 * files.
 */
export function pack(dest: string, workspace?: string): { tarball: string; files: string[] } {
  const args = ["pack", "--json", "--ignore-scripts", "--pack-destination", dest];
  const packed = JSON.parse(npm(workspace ? [...args, "-w", workspace] : args, ROOT)) as {
    filename: string;
    files: { path: string }[];
  }[];
  return {
    tarball: path.join(dest, packed[0]!.filename),
    files: packed[0]!.files.map((f) => f.path),
  };
}

/** The TypeScript version this repository builds with, which user projects install too. */
export const typescriptVersion = () =>
  JSON.parse(
    execFileSync(
      process.execPath,
      ["-p", "JSON.stringify(require('typescript/package.json').version)"],
      { cwd: ROOT, encoding: "utf8" },
    ),
  ) as string;
