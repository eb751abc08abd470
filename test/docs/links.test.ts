/**
 * The README and docs/ point at places that exist: their relative links (and the headings those
 * name after `#`), and the repository paths they cite in backticks, which the contributor's guide
 * leans on. Moving a section or renaming a file without updating its mentions fails here.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PAGES = ["README.md", ...readdirSync(path.join(ROOT, "docs")).map((f) => `docs/${f}`)];
const text = (page: string) => readFileSync(path.join(ROOT, page), "utf8");

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

const anchors = (page: string) =>
  [...text(page).matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1]!.replace(/`/g, "")));

// Paths under these folders are this repository's; others (`../shared/corpus`, globs, `<name>`
// placeholders) are not.
const REPO_PATH =
  /^(?:src|runtime|test|bench|scripts|examples|fixtures|docs|generated-samples)\/[^\s*$<>]*$/;

/**
 * The files of a scaffolded project (docs/cli.md describes them), which are not this repository's.
 */
const PROJECT_PATHS = new Set([
  "src/generated/",
  ...readdirSync(path.join(ROOT, "templates"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".hbs"))
    .map((f) => f.replace(/\.hbs$/, "")),
]);

describe("the README and docs/", () => {
  it("every relative link names a file, and a heading there when it has #", () => {
    const broken: string[] = [];
    for (const page of PAGES)
      for (const [, target] of text(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [file, hash] = target!.split("#");
        // `(#heading)` names a heading of the page itself.
        const resolved = file ? path.join(path.dirname(page), file) : page;
        if (!existsSync(path.join(ROOT, resolved))) broken.push(`${page}: ${target}`);
        else if (hash !== undefined && !anchors(resolved).includes(hash))
          broken.push(`${page}: ${target} (no such heading)`);
      }
    expect(broken).toEqual([]);
  });

  it("every repository path cited in backticks exists", () => {
    const checked: string[] = [];
    const missing: string[] = [];
    for (const page of PAGES)
      for (const [, cited] of text(page).matchAll(/`([^`\n]+)`/g)) {
        if (!REPO_PATH.test(cited!) || PROJECT_PATHS.has(cited!)) continue;
        checked.push(cited!);
        if (!existsSync(path.join(ROOT, cited!))) missing.push(`${page}: ${cited}`);
      }
    expect(missing).toEqual([]);
    // The guide's files are among those checked.
    expect(checked).toEqual(expect.arrayContaining(["src/parse/xsd.ts", "runtime/src/"]));
  });
});
