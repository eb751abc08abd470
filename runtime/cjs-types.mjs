/**
 * CommonJS-flavoured declarations for TypeScript consumers whose files are CommonJS under
 * `moduleResolution` node16 or nodenext: tsc refuses to let them import declarations that are ES
 * modules (TS1479), although Node >= 20.19 `require()`s the runtime's ES modules. The same
 * declarations under dist/cjs/, which a package.json there marks as CommonJS, describe what that
 * `require()` returns. There is no CommonJS build: both conditions load the one ES build, so an app
 * that mixes `import` and `require` still gets one runtime (one `SoapFault` for `instanceof`).
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

const dist = fileURLToPath(new URL("./dist/", import.meta.url));
const cjs = `${dist}cjs/`;
rmSync(cjs, { recursive: true, force: true });
mkdirSync(cjs);
// Every declaration, those in the source's folders too (xml/, server/, …), at the same relative
// path.
for (const f of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
  if (!f.endsWith(".d.ts") || f.startsWith("cjs")) continue;
  mkdirSync(dirname(cjs + f), { recursive: true });
  copyFileSync(dist + f, cjs + f);
}
writeFileSync(`${cjs}package.json`, `${JSON.stringify({ type: "commonjs" })}\n`);
