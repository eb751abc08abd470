// Runs a CLI script in this process, as `node <script> <args...>` would, and reports the process's
// peak resident set size when it exits, as the last line of stderr: `@@maxrss <kilobytes>`.
// Plain JavaScript (no tsx) so that both tools start exactly as their own bin scripts do.
// Usage: node bench/measure-cli.mjs <script.js> [args...]
import { writeSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

const script = path.resolve(process.argv[2] ?? "");
process.argv = [process.argv[0], script, ...process.argv.slice(3)];
process.on("exit", () => {
  writeSync(2, `\n@@maxrss ${process.resourceUsage().maxRSS}\n`);
});
await import(pathToFileURL(script).href);
