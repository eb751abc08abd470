/**
 * Precompiles templates/ into dist/scaffold/precompiled.js, so that `scaffold` loads only the
 * Handlebars runtime, not its compiler, for the built-in templates. Run by `npm run build`.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import Handlebars from "handlebars";
import { COMPILE_OPTIONS } from "../dist/scaffold/templates.js";

const dir = "templates";
const files = readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith(".hbs"))
  .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
  .sort();
const entries = files.map((rel) => {
  const spec = Handlebars.precompile(readFileSync(path.join(dir, rel), "utf8"), COMPILE_OPTIONS);
  return `  ${JSON.stringify(rel)}: ${spec},`;
});
mkdirSync("dist/scaffold", { recursive: true });
writeFileSync(
  "dist/scaffold/precompiled.js",
  `// Precompiled from templates/ by scripts/precompile-templates.mjs.\nexport const TEMPLATES = {\n${entries.join("\n")}\n};\n`,
);
