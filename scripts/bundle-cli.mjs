/**
 * Bundles the CLI into one module, dist/cli/bundle.js, which bin/wsdl-tsgen.js runs: loading the
 * ~100 modules of dist/ and its dependencies one by one took ~35 ms of every run (a third of a small
 * WSDL's). It sits beside dist/cli/main.js so that its relative paths (package.json) still hold.
 * Prettier stays outside (`--format prettier` loads the user's own), and so does the scaffold
 * command (dist/scaffold/, with Handlebars and ts-morph), which `generate` never loads.
 */
import { build } from "esbuild";

await build({
  entryPoints: ["dist/cli/main.js"],
  outfile: "dist/cli/bundle.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["prettier", "../scaffold/*"],
  // commander is CommonJS: its require() of Node's modules needs a require in an ES module.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module";\nconst require = __createRequire(import.meta.url);',
  },
  logLevel: "warning",
});
